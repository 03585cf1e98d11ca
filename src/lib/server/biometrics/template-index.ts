// 1:N search over one account's protected templates. Templates are unit-length, so the dot product is
// the cosine. The matrix lives in WebAssembly memory and is scanned by a SIMD kernel (dot-scan.wasm.ts);
// plain JavaScript is the fallback (about 4× slower) and the reference in tests.
import { EMBEDDING_LENGTH } from '#lib/face/face-thresholds.ts';
import { createDotScan, type DotScan } from './dot-scan.wasm.ts';

export interface TemplateMatch {
	id: string;
	score: number;
}

const PAGE = 65536;
const align64 = (n: number) => Math.ceil(n / 64) * 64;

export class TemplateIndex {
	readonly dim: number;
	readonly #simd: boolean;
	#capacity = 0;
	#scan: DotScan | null = null;
	#view = new Float32Array(0);
	#qAt = 0;
	#outAt = 0;
	#dataAt = 0;
	#ids: string[] = [];
	#rows = new Map<string, number>();

	/** @param simd use the WebAssembly kernel when available (false: JavaScript only) */
	constructor(dim = EMBEDDING_LENGTH, capacity = 1024, { simd = true } = {}) {
		this.dim = dim;
		this.#simd = simd && dim % 16 === 0;
		this.#allocate(Math.max(1, capacity));
	}

	get size(): number {
		return this.#ids.length;
	}

	/** Whether searches run on the SIMD kernel. */
	get accelerated(): boolean {
		return this.#scan !== null;
	}

	#allocate(capacity: number): void {
		// Byte layout: probe | scores | templates (row-major), each 64-byte aligned.
		const qAt = 0;
		const outAt = align64(this.dim * 4);
		const dataAt = outAt + align64(capacity * 4);
		const bytes = dataAt + capacity * this.dim * 4;
		const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
		const view = new Float32Array(memory.buffer);
		view.set(this.#view.subarray(this.#dataAt / 4, this.#dataAt / 4 + this.#ids.length * this.dim), dataAt / 4);
		this.#scan = this.#simd ? createDotScan(memory) : null;
		this.#view = view;
		this.#capacity = capacity;
		this.#qAt = qAt;
		this.#outAt = outAt;
		this.#dataAt = dataAt;
	}

	/** Adds or replaces the template of `id` (L2-normalised on the way in). */
	add(id: string, template: ArrayLike<number>): void {
		if (template.length !== this.dim) throw new RangeError(`template has ${template.length} values, expected ${this.dim}`);
		let row = this.#rows.get(id);
		if (row === undefined) {
			row = this.#ids.length;
			if (row >= this.#capacity) this.#allocate(this.#capacity * 2);
			this.#ids.push(id);
			this.#rows.set(id, row);
		}
		this.#writeUnit(this.#dataAt / 4 + row * this.dim, template);
	}

	/** Removes `id` (the last row moves into its place). */
	remove(id: string): boolean {
		const row = this.#rows.get(id);
		if (row === undefined) return false;
		const last = this.#ids.length - 1;
		if (row !== last) {
			const base = this.#dataAt / 4;
			this.#view.copyWithin(base + row * this.dim, base + last * this.dim, base + (last + 1) * this.dim);
			const moved = this.#ids[last];
			this.#ids[row] = moved;
			this.#rows.set(moved, row);
		}
		this.#ids.pop();
		this.#rows.delete(id);
		return true;
	}

	/** The most similar template (cosine), or null when the index is empty. */
	search(probe: ArrayLike<number>): TemplateMatch | null {
		if (probe.length !== this.dim) throw new RangeError(`probe has ${probe.length} values, expected ${this.dim}`);
		const n = this.#ids.length;
		if (n === 0) return null;
		const view = this.#view;
		const dim = this.dim;
		const q = this.#qAt / 4;
		this.#writeUnit(q, probe);
		const out = this.#outAt / 4;
		if (this.#scan) {
			this.#scan.dots(this.#dataAt, n, dim * 4, this.#qAt, this.#outAt);
		} else {
			for (let row = 0, at = this.#dataAt / 4; row < n; row++) {
				let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
				for (let k = 0; k < dim; k += 4, at += 4) {
					s0 += view[at] * view[q + k];
					s1 += view[at + 1] * view[q + k + 1];
					s2 += view[at + 2] * view[q + k + 2];
					s3 += view[at + 3] * view[q + k + 3];
				}
				view[out + row] = s0 + s1 + s2 + s3;
			}
		}
		let best = 0;
		for (let row = 1; row < n; row++) if (view[out + row] > view[out + best]) best = row;
		return { id: this.#ids[best], score: view[out + best] };
	}

	#writeUnit(at: number, v: ArrayLike<number>): void {
		let norm = 0;
		for (let k = 0; k < this.dim; k++) norm += v[k] * v[k];
		const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
		for (let k = 0; k < this.dim; k++) this.#view[at + k] = v[k] * inv;
	}
}

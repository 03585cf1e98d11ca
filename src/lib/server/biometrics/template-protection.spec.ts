import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import {
	decodeTemplate,
	encodeTemplate,
	protectTemplate,
	reprotectTemplate,
	rotationFor,
	unprotectTemplate
} from './template-protection.ts';

const key = (label: string) => new Uint8Array(createHash('sha256').update(label).digest());

/** Deterministic pseudo-random vectors (xorshift), so failures reproduce. */
function vectors(count: number, dim = 512, seed = 1): Float32Array[] {
	let s = seed;
	const next = () => {
		s ^= s << 13;
		s ^= s >>> 17;
		s ^= s << 5;
		return ((s >>> 0) / 4294967296) * 2 - 1;
	};
	return Array.from({ length: count }, () => Float32Array.from({ length: dim }, next));
}

describe('template protection', () => {
	const k1 = key('account one');
	const k2 = key('account two');

	it('derives an orthogonal matrix, the same one for the same key', () => {
		const q = rotationFor(k1);
		const dim = 512;
		let worst = 0;
		for (let i = 0; i < dim; i += 7) {
			for (let j = i; j < dim; j += 13) {
				let dot = 0;
				for (let k = 0; k < dim; k++) dot += q[i * dim + k] * q[j * dim + k];
				worst = Math.max(worst, Math.abs(dot - (i === j ? 1 : 0)));
			}
		}
		expect(worst).toBeLessThan(1e-5);
		expect(rotationFor(Uint8Array.from(k1))).toBe(q); // cached
	});

	it('preserves cosine similarity to 1e-5 and can be undone', () => {
		const vs = vectors(12);
		const ps = vs.map((v) => protectTemplate(v, k1));
		for (let i = 0; i < vs.length; i++) {
			for (let j = 0; j < vs.length; j++) {
				expect(Math.abs(cosineSimilarity(ps[i], ps[j]) - cosineSimilarity(vs[i], vs[j]))).toBeLessThan(1e-5);
			}
			const back = unprotectTemplate(ps[i], k1);
			for (let k = 0; k < 512; k++) expect(Math.abs(back[k] - vs[i][k])).toBeLessThan(1e-5);
		}
	});

	it('gives unrelated templates under different keys, and templates unrelated to the raw embedding', () => {
		for (const v of vectors(8, 512, 7)) {
			const a = protectTemplate(v, k1);
			const b = protectTemplate(v, k2);
			// Random directions in 512-d: cosine has a standard deviation of 1/√512 ≈ 0.044.
			expect(Math.abs(cosineSimilarity(a, b))).toBeLessThan(0.2);
			expect(Math.abs(cosineSimilarity(a, v))).toBeLessThan(0.2);
			expect(cosineSimilarity(reprotectTemplate(a, k1, k2), b)).toBeGreaterThan(1 - 1e-5);
		}
	});

	it('refuses keys that are not 32 bytes', () => {
		expect(() => protectTemplate(new Float32Array(512), new Uint8Array(16))).toThrow(RangeError);
	});

	it('encodes and decodes stored templates exactly', () => {
		const t = protectTemplate(vectors(1)[0], k1);
		expect(decodeTemplate(encodeTemplate(t))).toEqual(t);
		expect(() => decodeTemplate(new Uint8Array([9, 0, 0, 0]))).toThrow();
	});
});

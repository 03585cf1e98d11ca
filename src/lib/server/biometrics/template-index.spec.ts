import { describe, expect, it } from 'vitest';
import { TemplateIndex } from './template-index.ts';

function random(dim: number, rand: () => number) {
	return Float32Array.from({ length: dim }, () => rand() - 0.5);
}
function rng(seed: number) {
	let s = seed;
	return () => {
		s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
		return s / 4294967296;
	};
}

describe('TemplateIndex', () => {
	it('finds the planted match among many random templates, with its cosine as score', () => {
		const rand = rng(42);
		const index = new TemplateIndex(512, 16); // grows past its first capacity
		for (let i = 0; i < 5000; i++) index.add(`t${i}`, random(512, rand));
		const face = random(512, rand);
		index.add('planted', face);
		for (let i = 5000; i < 10000; i++) index.add(`t${i}`, random(512, rand));
		expect(index.accelerated).toBe(true);
		// A probe close to the planted face (cosine ≈ 0.9).
		const noise = random(512, rand);
		const probe = face.map((v, k) => v + 0.45 * noise[k]);
		const match = index.search(probe);
		expect(match?.id).toBe('planted');
		let dot = 0, na = 0, nb = 0;
		for (let k = 0; k < 512; k++) {
			dot += face[k] * probe[k];
			na += face[k] ** 2;
			nb += probe[k] ** 2;
		}
		expect(match?.score).toBeCloseTo(dot / Math.sqrt(na * nb), 5);
	});

	it('scores the same with the SIMD kernel and in JavaScript', () => {
		const rand = rng(7);
		const simd = new TemplateIndex(512, 64);
		const js = new TemplateIndex(512, 64, { simd: false });
		expect(js.accelerated).toBe(false);
		for (let i = 0; i < 200; i++) {
			const t = random(512, rand);
			simd.add(`t${i}`, t);
			js.add(`t${i}`, t);
		}
		for (let i = 0; i < 5; i++) {
			const probe = random(512, rand);
			const a = simd.search(probe);
			const b = js.search(probe);
			expect(a?.id).toBe(b?.id);
			expect(a?.score).toBeCloseTo(b?.score ?? NaN, 5);
		}
	});

	it('replaces, removes and reports an empty index', () => {
		const index = new TemplateIndex(16, 2);
		expect(index.search(new Float32Array(16).fill(1))).toBeNull();
		const a = new Float32Array(16);
		a[0] = 1;
		const b = new Float32Array(16);
		b[1] = 1;
		const c = new Float32Array(16);
		c[2] = 1;
		index.add('a', a);
		index.add('b', b);
		index.add('c', c);
		expect(index.search(b)).toEqual({ id: 'b', score: 1 });
		index.add('b', c); // replaced: b now points like c
		expect(index.size).toBe(3);
		expect(index.remove('a')).toBe(true);
		expect(index.remove('a')).toBe(false);
		expect(index.size).toBe(2);
		expect(index.search(a)?.score).toBe(0);
		expect(index.search(c)?.score).toBe(1);
		expect(() => index.search(new Float32Array(3))).toThrow(RangeError);
	});
});

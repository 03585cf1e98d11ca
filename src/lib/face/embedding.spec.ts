import { describe, expect, it } from 'vitest';
import { cosineSimilarity, l2Normalize } from './embedding.ts';

describe('cosineSimilarity', () => {
	it('is 1 for parallel, 0 for orthogonal, −1 for opposite vectors, whatever their length', () => {
		expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 10);
		expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
		expect(cosineSimilarity([1, 1], [-3, -3])).toBeCloseTo(-1, 10);
		expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(24 / 25, 10);
	});
	it('is 0 for a zero vector and refuses different lengths', () => {
		expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
		expect(() => cosineSimilarity([1], [1, 2])).toThrow();
	});
});

describe('l2Normalize', () => {
	it('scales to unit length in place and leaves a zero vector alone', () => {
		const v = new Float32Array([3, 4]);
		expect(l2Normalize(v)).toBe(v);
		expect(Array.from(v)).toEqual([0.6000000238418579, 0.800000011920929]);
		expect(Array.from(l2Normalize(new Float32Array(2)))).toEqual([0, 0]);
	});
});

import { describe, expect, it } from 'vitest';
import { decodeLandmarks, fivePoints } from './landmarks.ts';
import { frontalLandmarks } from './test-faces.ts';

describe('decodeLandmarks', () => {
	it('maps crop-relative 0–1 coordinates to image pixels', () => {
		const output = new Float32Array(136);
		output[0] = 0.5;
		output[1] = 0.25;
		output[135] = 1;
		const l = decodeLandmarks(output, { x: 100, y: 50, width: 64, height: 128 });
		expect(l[0]).toBe(132);
		expect(l[1]).toBe(82);
		expect(l[135]).toBe(178);
	});
	it('rejects a short output', () => {
		expect(() => decodeLandmarks(new Float32Array(10), { x: 0, y: 0, width: 1, height: 1 })).toThrow();
	});
});

describe('fivePoints', () => {
	it('takes eye centres from the lids, nose tip 30, and mouth corners as outer/inner means', () => {
		const l = frontalLandmarks(0, 0, 1);
		// Move an eye corner: the eye centre must not move (corners are left out).
		l[2 * 36] -= 5;
		l[2 * 60] = l[2 * 48] + 0.2;
		const [le, re, nose, lm, rm] = fivePoints(l);
		expect(le.x).toBeCloseTo(-0.5, 5);
		expect(le.y).toBeCloseTo(-0.2, 5);
		expect(re.x).toBeCloseTo(0.5, 5);
		expect(nose).toEqual({ x: l[60], y: l[61] });
		expect(lm.x).toBeCloseTo(l[2 * 48] + 0.1, 5);
		expect(rm.x).toBeCloseTo((l[2 * 54] + l[2 * 64]) / 2, 5);
	});
});

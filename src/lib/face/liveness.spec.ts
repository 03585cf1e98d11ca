import { describe, expect, it } from 'vitest';
import { livenessCropBox, liveProbability, softmax } from './liveness.ts';

describe('livenessCropBox', () => {
	it('scales the square box ×2.7 about its centre when the image has room', () => {
		const crop = livenessCropBox({ x: 450, y: 450, width: 100, height: 100 }, 1000, 1000);
		expect(crop.width).toBeCloseTo(270, 6);
		expect(crop.x).toBeCloseTo(365, 6);
		expect(crop.y).toBeCloseTo(365, 6);
	});
	it('shifts the crop inside the image near a border, keeping its size', () => {
		const crop = livenessCropBox({ x: 0, y: 900, width: 100, height: 100 }, 1000, 1000);
		expect(crop.width).toBeCloseTo(270, 6);
		expect(crop.x).toBe(0);
		expect(crop.y + crop.height).toBeLessThanOrEqual(999);
	});
	it('uses a smaller factor when ×2.7 would not fit (selfie-sized faces)', () => {
		const crop = livenessCropBox({ x: 100, y: 150, width: 300, height: 300 }, 480, 640);
		expect(crop.width).toBeCloseTo(479, 6);
		expect(crop.x).toBeGreaterThanOrEqual(0);
		expect(crop.x + crop.width).toBeLessThanOrEqual(479 + 1e-9);
	});
});

describe('softmax', () => {
	it('sums to 1, keeps the order, and does not overflow on large logits', () => {
		const p = softmax([1000, 999, -5]);
		expect(p[0] + p[1] + p[2]).toBeCloseTo(1, 6);
		expect(p[0]).toBeGreaterThan(p[1]);
		expect(Number.isFinite(p[0])).toBe(true);
		expect(liveProbability([0, 0, 0])).toBeCloseTo(1 / 3, 6);
	});
});

import { describe, expect, it } from 'vitest';
import { qualityGate } from './quality-gate.ts';
import type { FaceQualityMetrics } from './quality.ts';

const good: FaceQualityMetrics = {
	faceSize: 200,
	centreOffset: 0.02,
	yaw: 2,
	pitch: -3,
	roll: 1,
	sharpness: 300,
	luminance: 125,
	eyeAspectRatio: 0.3
};
const gate = (face: Partial<FaceQualityMetrics>, faceCount = 1, settings = {}) =>
	qualityGate({ faceCount, face: { ...good, ...face } }, settings);

describe('qualityGate', () => {
	it('passes a good frame with a high score', () => {
		const v = gate({});
		expect(v.pass).toBe(true);
		expect(v.reasons).toEqual([]);
		expect(v.score).toBeGreaterThan(0.9);
	});

	it.each([
		[{}, 0, 'noFace'],
		[{}, 3, 'multipleFaces'],
		[{ faceSize: 80 }, 1, 'tooSmall'],
		[{ faceSize: 500 }, 1, 'tooLarge'],
		[{ centreOffset: 0.3 }, 1, 'offCentre'],
		[{ yaw: 35 }, 1, 'notFrontal'],
		[{ roll: -20 }, 1, 'notFrontal'],
		[{ sharpness: 20 }, 1, 'blurry'],
		[{ luminance: 30 }, 1, 'tooDark'],
		[{ luminance: 230 }, 1, 'tooBright']
	] as const)('fails %o with %i faces as %s', (face, count, reason) => {
		const v = gate(face, count);
		expect(v.pass).toBe(false);
		expect(v.reasons).toContain(reason);
	});

	it('follows the node settings', () => {
		expect(gate({ faceSize: 80 }, 1, { minFaceSize: 60 }).pass).toBe(true);
		expect(gate({ sharpness: 300 }, 1, { blurThreshold: 400 }).reasons).toEqual(['blurry']);
		expect(gate({ faceSize: 300 }, 1, { maxFaceSize: 250 }).reasons).toEqual(['tooLarge']);
	});

	it('lists several failures in the fixed order', () => {
		// Light before blur: a dark face also reads as blurry, and the user needs to hear about the light.
		expect(gate({ faceSize: 50, sharpness: 5, luminance: 20 }).reasons).toEqual(['tooSmall', 'tooDark', 'blurry']);
	});

	it('names the weakest check when only the overall score is below qualityThreshold', () => {
		const marginal = gate({ centreOffset: 0.19, yaw: 19, sharpness: 55, luminance: 65 });
		expect(marginal.reasons).toHaveLength(1);
		expect(marginal.pass).toBe(false);
		expect(marginal.score).toBeLessThan(0.7);
		expect(gate({ centreOffset: 0.19, yaw: 19, sharpness: 55, luminance: 65 }, 1, { qualityThreshold: 0.5 }).pass).toBe(true);
	});
});

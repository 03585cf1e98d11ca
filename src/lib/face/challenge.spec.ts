import { describe, expect, it } from 'vitest';
import { verifyChallenge, type ChallengeSample } from './challenge.ts';
import type { Landmarks68 } from './landmarks.ts';
import { eyeAspectRatio, headPose } from './quality.ts';
import { frontalLandmarks } from './test-faces.ts';

/** A face whose nose tip sits `shift` (share of the cheek-to-cheek width) off centre: a turned head, as 2D landmarks see it. */
function turned(shift: number): Landmarks68 {
	const l = frontalLandmarks();
	const width = l[2 * 14] - l[2 * 2];
	for (const i of [27, 28, 29, 30, 31, 32, 33, 34, 35]) l[2 * i] += shift * width;
	return l;
}

/** Eyes closed to `open` (1 = as drawn, 0 = lids together). */
function eyes(l: Landmarks68, open: number): Landmarks68 {
	const out = Float32Array.from(l);
	for (const [first, centreY] of [
		[36, l[2 * 36 + 1]],
		[42, l[2 * 42 + 1]]
	]) {
		for (let k = 0; k < 6; k++) out[2 * (first + k) + 1] = centreY + (l[2 * (first + k) + 1] - centreY) * open;
	}
	return out;
}

const sample = (t: number, l: Landmarks68): ChallengeSample => ({ t, yaw: headPose(l).yaw, ear: (eyeAspectRatio(l, 36) + eyeAspectRatio(l, 42)) / 2 });
const sequence = (faces: Landmarks68[]) => faces.map((l, i) => sample(i * 100, l));

describe('verifyChallenge on landmark sequences', () => {
	it('sees the user turn to their left as yaw towards the image right, and not as a right turn', () => {
		const shifts = [0, 0, 0.05, 0.12, 0.2, 0.25, 0.2];
		const seq = sequence(shifts.map(turned));
		expect(headPose(turned(0.25)).yaw).toBeGreaterThan(18);
		const left = verifyChallenge('turnLeft', seq);
		expect(left).toMatchObject({ passed: true, progress: 1, peakIndex: 5 });
		expect(left.peak).toBeGreaterThan(18);
		const right = verifyChallenge('turnRight', seq);
		expect(right).toMatchObject({ passed: false, reason: 'wrongDirection' });
	});

	it('passes a right turn and refuses a turn that stops short', () => {
		expect(verifyChallenge('turnRight', sequence([0, 0, -0.1, -0.25].map(turned))).passed).toBe(true);
		const short = verifyChallenge('turnRight', sequence([0, 0, -0.04, -0.06].map(turned)));
		expect(short).toMatchObject({ passed: false, reason: 'notTurned' });
		expect(short.progress).toBeGreaterThan(0);
		expect(short.progress).toBeLessThan(1);
	});

	it('measures the turn from the user\'s own frontal pose, not from zero', () => {
		// Someone whose "straight ahead" already reads 12° to the right needs the full movement.
		const seq = sequence([0.1, 0.1, 0.14, 0.16].map(turned));
		expect(verifyChallenge('turnLeft', seq).passed).toBe(false);
	});

	it('needs a frontal start: a head turned all along proves nothing', () => {
		const seq = sequence([0.3, 0.3, 0.35].map(turned));
		expect(verifyChallenge('turnLeft', seq)).toMatchObject({ passed: false, reason: 'noFrontalStart' });
	});

	it('counts the turn from any frontal frame before it (the user may look the other way first)', () => {
		const seq = sequence([0.15, 0.15, -0.05, -0.05, 0.2].map(turned));
		expect(verifyChallenge('turnLeft', seq)).toMatchObject({ passed: true, peakIndex: 4 });
		// …but never from a frame after it.
		expect(verifyChallenge('turnLeft', sequence([0.25, 0.25, 0, 0].map(turned))).passed).toBe(false);
	});

	it('marks where the final climb to the peak passed half the asked turn (what the light challenge times)', () => {
		// Yaw in degrees straight from the samples: frontal, a glance the asked way and back, then the turn.
		const at = (yaws: number[]) => yaws.map((yaw, i) => ({ t: i * 100, yaw, ear: 0.3 }));
		const slow = verifyChallenge('turnLeft', at([0, 1, 12, 2, 0, 4, 8, 11, 15, 19, 24]));
		expect(slow).toMatchObject({ passed: true, peakIndex: 10, onsetIndex: 7 });
		// The same for a right turn (yaw falling).
		expect(verifyChallenge('turnRight', at([0, -3, -10, -20, -22]))).toMatchObject({ passed: true, peakIndex: 4, onsetIndex: 2 });
		// Measured from the frontal baseline the peak counts from, not from zero.
		expect(verifyChallenge('turnLeft', at([-8, -8, -2, 2, 6, 12]))).toMatchObject({ passed: true, peakIndex: 5, onsetIndex: 3 });
		expect(verifyChallenge('turnLeft', at([0, 0, 0]))).toMatchObject({ passed: false, onsetIndex: -1 });
	});

	it('sees a blink as eyes open, closed, then open again', () => {
		const face = frontalLandmarks();
		const blink = sequence([1, 1, 0.8, 0.2, 0.1, 0.9, 1].map((o) => eyes(face, o)));
		expect(verifyChallenge('blink', blink)).toMatchObject({ passed: true, peakIndex: 4, onsetIndex: 4 });
		// Eyes that close and stay closed are not a blink (a photo with closed eyes after an open one).
		const stayClosed = sequence([1, 1, 1, 0.2, 0.1, 0.1].map((o) => eyes(face, o)));
		expect(verifyChallenge('blink', stayClosed)).toMatchObject({ passed: false, reason: 'eyesNotReopened' });
		// A still face never blinks.
		const still = sequence([1, 1, 1, 1, 1].map((o) => eyes(face, o)));
		expect(verifyChallenge('blink', still)).toMatchObject({ passed: false, reason: 'noBlink' });
	});

	it('refuses to judge too few frames, and ignores the order frames arrive in', () => {
		expect(verifyChallenge('blink', sequence([turned(0), turned(0)]))).toMatchObject({ passed: false, reason: 'tooFewFrames' });
		const seq = sequence([0, 0, 0.1, 0.25].map(turned)).reverse();
		expect(verifyChallenge('turnLeft', seq).passed).toBe(true);
	});
});

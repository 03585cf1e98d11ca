// The light challenge's verifier against chance, on measures (no pixels: light-response.spec.ts
// under services/faces runs it on real faces). What an attacker without the screen's light can
// offer is a face whose colour changes for reasons of its own: noise and auto-exposure wander, or
// a scene that jumps once or twice while the colours play (a photo swapped for its mirror image, a
// cut in a replayed video). A jump is a step signal, not noise, and steps are what the sequence is
// made of: these tests bound how often one lines up with it, and check that a genuine response of
// the weakest expected size still passes, so that the bound is not bought with genuine users.
import { describe, expect, it } from 'vitest';
import { hexToRgb, issueLightSequence, LIGHT_SHOWN_AT_LEAST, lightDuration, lightStepAt, lightStepStarts, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import { pageTimes, seeded, toLinear } from '../../../tests/helpers/light-frames.ts';
import { measureLight, verifyLightResponse, type LightFrame } from './light-response.ts';

const STARTED = 1000;
const TRIALS = 2000;

type Scene = 'wander' | 'oneJump' | 'twoJumps' | 'genuine';

/** Face-minus-background log-chromaticity of one frame at `t`, for a scene. */
function trial(rand: () => number, scene: Scene): { sequence: LightSequence; changedAt: number[]; frames: LightFrame[] } {
	const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
	const issued = issueLightSequence((n) => Math.floor(rand() * n));
	// The page shows 6–9 of the nine steps (it stops once the turn is under way) and says so.
	const sequence: LightSequence = { steps: issued.steps.slice(0, LIGHT_SHOWN_AT_LEAST + Math.floor(rand() * (issued.steps.length - LIGHT_SHOWN_AT_LEAST + 1))) };
	const changedAt = lightStepStarts(sequence).map((s, k) => STARTED + s + sequence.steps[k]!.ms);
	const times = pageTimes(sequence, STARTED);
	// The page keeps 8–12 of them (a busy phone's camera gives fewer), at least one in each step.
	const keep = Math.max(8 + Math.floor(rand() * 5), sequence.steps.length);
	const stepOf = (t: number) => lightStepAt(sequence, t - STARTED);
	while (times.length > keep) {
		const i = Math.floor(rand() * times.length);
		if (times.filter((t) => stepOf(t) === stepOf(times[i]!)).length > 1) times.splice(i, 1);
	}
	const duration = lightDuration(sequence);
	const jumps = scene === 'oneJump' ? 1 : scene === 'twoJumps' ? 2 : 0;
	const cuts = Array.from({ length: jumps }, () => ({ at: STARTED + rand() * duration, shift: [(rand() - 0.5) * 0.12, (rand() - 0.5) * 0.12] }));
	const lagMs = rand() * 150;
	// The weakest genuine response the verifier is meant for: an office at arm's length (k ≈ 0.1).
	const k = 0.1;
	const frames = times.map((t): LightFrame => {
		let a = 0.003 * gauss();
		let b = 0.003 * gauss();
		if (scene === 'wander') (a += 0.02 * gauss()), (b += 0.02 * gauss());
		for (const cut of cuts) if (t >= cut.at) (a += cut.shift[0]!), (b += cut.shift[1]!);
		if (scene === 'genuine') {
			const step = lightStepAt(sequence, t - STARTED - lagMs);
			const s = step >= 0 && step < sequence.steps.length ? hexToRgb(sequence.steps[step]!.colour).map(toLinear) : [0.85, 0.85, 0.85];
			// ln(R/G) and ln(B/G) move by about k·(s_R − s_G)/E and k·(s_B − s_G)/E (E ≈ 1 here).
			a += k * (s[0]! - s[1]!);
			b += k * (s[2]! - s[1]!);
		}
		const face: [number, number, number] = [0.3 * Math.exp(a), 0.3, 0.3 * Math.exp(b)];
		return { t, measure: { face, background: [0.2, 0.2, 0.2] } };
	});
	return { sequence: issued, changedAt, frames };
}

function passRate(scene: Scene, seed: number): { passed: number; reasons: Record<string, number> } {
	const rand = seeded(seed);
	const reasons: Record<string, number> = {};
	let passed = 0;
	for (let i = 0; i < TRIALS; i++) {
		const { sequence, changedAt, frames } = trial(rand, scene);
		const result = verifyLightResponse(sequence, STARTED, frames, null, changedAt);
		if (result.passed) passed++;
		const reason = result.reason ?? 'passed';
		reasons[reason] = (reasons[reason] ?? 0) + 1;
	}
	return { passed, reasons };
}

describe('light challenge against chance', () => {
	it.each([
		['wander', 11],
		['oneJump', 12],
		['twoJumps', 13]
	] as const)('a face whose colour changes on its own (%s) passes at most 5 sequences in 2000', (scene, seed) => {
		const { passed, reasons } = passRate(scene, seed);
		// Measured with these seeds: 0, 0 and 1 (mostly `mismatch`; a jump that nothing else moves is
		// also `noResponse`), with 6–9 steps shown (0, 1 and 1 when six were issued and all shown); a
		// threshold of 0.6 instead of 0.8 lets all three through more often than this.
		expect(passed, JSON.stringify(reasons)).toBeLessThanOrEqual(5);
	});

	it('a genuine response of the weakest expected size, 0–150 ms late, passes 99 % of sequences', () => {
		const { passed, reasons } = passRate('genuine', 14);
		// Measured: 2000 of 2000 with 6–9 steps shown and a frame kept in each (1985 when six were
		// issued and frames were dropped at random: the 15 others left a step unseen, `stepsMissed`;
		// the page picks its frames to cover every step).
		expect(passed / TRIALS, JSON.stringify(reasons)).toBeGreaterThanOrEqual(0.99);
	});
});

describe('measureLight', () => {
	it('reads the background around the box it is given, so a jittering face box does not move it over the room', () => {
		// A grey room with a red picture on the wall to the left of the head, and a skin-coloured face.
		const width = 320;
		const height = 200;
		const data = new Uint8ClampedArray(width * height * 4);
		for (let y = 0; y < height; y++)
			for (let x = 0; x < width; x++) {
				const i = 4 * (y * width + x);
				const red = x >= 90 && x < 112 && y < 120;
				const face = x >= 150 && x < 210 && y >= 60 && y < 140;
				[data[i], data[i + 1], data[i + 2], data[i + 3]] = face ? [200, 150, 120, 255] : red ? [200, 40, 40, 255] : [120, 120, 120, 255];
			}
		const image = { width, height, data };
		const steady = { x: 150, y: 60, width: 60, height: 80 };
		// The same head, the detector's box 25 % wider this frame: its widened exclusion reaches over the picture.
		const jittered = { x: 142, y: 58, width: 75, height: 84 };
		const own = measureLight(image, jittered)!;
		const fixed = measureLight(image, jittered, steady)!;
		const reference = measureLight(image, steady)!;
		expect(fixed.background).toEqual(reference.background);
		expect(own.background![0] / own.background![1]).not.toBeCloseTo(reference.background![0] / reference.background![1], 2);
		// The skin is still the frame's own box.
		expect(fixed.face).toEqual(own.face);
	});
});

import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueLightSequence, LIGHT_ISSUED_STEPS, LIGHT_MAX_STEP_MS, LIGHT_MIN_STEP_MS, LIGHT_PALETTE, lightDuration, lightSequenceSchema } from './light-challenge.ts';

describe('issueLightSequence', () => {
	it('issues six steps of 350–550 ms, no colour twice in a row, long enough for a slow reactor (≥ 2.1 s)', () => {
		for (let k = 0; k < 200; k++) {
			const sequence = issueLightSequence(randomInt);
			expect(sequence.steps).toHaveLength(LIGHT_ISSUED_STEPS);
			expect(lightSequenceSchema.safeParse(sequence).success).toBe(true);
			for (const [i, step] of sequence.steps.entries()) {
				expect(step.ms).toBeGreaterThanOrEqual(LIGHT_MIN_STEP_MS);
				expect(step.ms).toBeLessThanOrEqual(LIGHT_MAX_STEP_MS);
				expect(LIGHT_PALETTE).toContain(step.colour);
				if (i > 0) expect(step.colour).not.toBe(sequence.steps[i - 1].colour);
			}
			expect(lightDuration(sequence)).toBeGreaterThanOrEqual(2100);
		}
	});

	it('still reads a four-step sequence stored before six were issued', () => {
		const four = { steps: ['#4f7ff0', '#3fbf7f', '#e0c040', '#b070e0'].map((colour) => ({ colour, ms: 400 })) };
		expect(lightSequenceSchema.safeParse(four).success).toBe(true);
	});
});

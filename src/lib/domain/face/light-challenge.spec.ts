import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueLightSequence, LIGHT_ISSUED_STEPS, LIGHT_MAX_STEP_MS, LIGHT_MIN_STEP_MS, LIGHT_PALETTE, LIGHT_SHOWN_AT_LEAST, lightDuration, lightSequenceSchema, shownLightSequence } from './light-challenge.ts';

describe('issueLightSequence', () => {
	it('issues nine steps of 350–550 ms, no colour twice in a row, the six every page shows long enough for a slow reactor (≥ 2.1 s)', () => {
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
			expect(lightDuration({ steps: sequence.steps.slice(0, LIGHT_SHOWN_AT_LEAST) })).toBeGreaterThanOrEqual(2100);
		}
	});

	it('still reads a four-step sequence stored before six were issued', () => {
		const four = { steps: ['#4f7ff0', '#3fbf7f', '#e0c040', '#b070e0'].map((colour) => ({ colour, ms: 400 })) };
		expect(lightSequenceSchema.safeParse(four).success).toBe(true);
	});
});

describe('shownLightSequence', () => {
	const nine = issueLightSequence((n) => 2 % n);
	const changes = (n: number) => Array.from({ length: n }, (_, k) => 1000 + 400 * (k + 1));

	it('is the part the page says it showed, six steps or more', () => {
		for (const n of [LIGHT_SHOWN_AT_LEAST, 7, 8]) expect(shownLightSequence(nine, changes(n)).steps).toEqual(nine.steps.slice(0, n));
		expect(shownLightSequence(nine, changes(9))).toEqual(nine);
	});

	it('is the whole plan without a report, with fewer than six steps, or with more steps than issued', () => {
		for (const changedAt of [null, [], changes(LIGHT_SHOWN_AT_LEAST - 1), changes(10)]) expect(shownLightSequence(nine, changedAt)).toEqual(nine);
		// A stored sequence shorter than six is shown whole: its prefix rule never applies.
		const four = { steps: nine.steps.slice(0, 4) };
		expect(shownLightSequence(four, changes(3))).toEqual(four);
		expect(shownLightSequence(four, changes(4))).toEqual(four);
	});
});

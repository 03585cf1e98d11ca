import { describe, expect, it } from 'vitest';
import { LIGHT_PALETTE, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import { pageTimes, screenAt } from '../../../tests/helpers/light-frames.ts';
import { verifyLightResponse, type LightFrame } from './light-response.ts';

const [blue, green, yellow, violet, cyan, orange] = LIGHT_PALETTE;
const issued: LightSequence = { steps: [blue, yellow, violet, green, orange, cyan].map((colour) => ({ colour, ms: 450 })) };

/** Measures of a face lit by `shown` (no noise: what the rules decide, not what noise does). */
function reflecting(shown: LightSequence): LightFrame[] {
	return pageTimes(shown, 200).map((t) => {
		const screen = screenAt(shown, t - 200, 60);
		return { t, measure: { face: [0.4, 0.25, 0.18].map((v, c) => v * (1 + 0.1 * screen[c])) as [number, number, number], background: [0.3, 0.3, 0.3] } };
	});
}

describe('light response, step by step', () => {
	it('passes the colours issued', () => {
		expect(verifyLightResponse(issued, 200, reflecting(issued))).toMatchObject({ passed: true, frames: 12 });
	});

	it('refuses a response that follows the sequence as a whole but answers one step with another colour', () => {
		// Another session's sequence that shares five of six colours: the whole still correlates.
		const oneStepOff = { steps: issued.steps.map((s, i) => (i === 3 ? { ...s, colour: cyan } : s)) };
		const result = verifyLightResponse(issued, 200, reflecting(oneStepOff));
		expect(result.score).toBeGreaterThanOrEqual(0.8);
		expect(result).toMatchObject({ passed: false, reason: 'mismatch' });
	});
});

// The active light challenge: when a liveness node opens, the server picks a random sequence of screen
// colours and timings; the page shows it full-screen while it captures, and the server checks that the
// light reflected on the face followed it. The sequence, its schema and how to read it at a given time
// live here because the server (issue, verify) and the page (show) both need them.
import { z } from 'zod';

/**
 * Moderate, clearly different hues of similar brightness. No saturated red (the red flash of WCAG
 * 2.3.1), no black or white (a luminance flash): the changes are of hue, which the skin reflects and
 * the eye finds gentle. Each is far from the others in chromaticity, so one step's reflection cannot
 * be mistaken for another's.
 */
export const LIGHT_PALETTE = ['#4f7ff0', '#3fbf7f', '#e0c040', '#b070e0', '#40c0d0', '#e09050'] as const;

/** Shortest step: fewer than 3 changes a second (WCAG 2.3.1's three-flash limit). */
export const LIGHT_MIN_STEP_MS = 350;
export const LIGHT_MAX_STEP_MS = 550;
export const LIGHT_MIN_STEPS = 4;
export const LIGHT_MAX_STEPS = 9;
/**
 * Steps the server issues (LIGHT_MIN_STEPS is what a stored sequence may hold): nine, of which the page
 * shows at least LIGHT_SHOWN_AT_LEAST and goes on only while the challenge's movement is not yet under
 * way. Four to six (1.4–3.3 s) were too short for a slow reactor on a slow phone, who began the turn
 * after the colours had ended (`turnOutside`); six for everyone (2.1–3.3 s) still left one turning
 * 1.2 s after the prompt with 3 passes in 8 tries; eight for everyone would have cost every user about
 * a second. The page stops at the first step boundary after it has seen the turn under way.
 */
export const LIGHT_ISSUED_STEPS = 9;
/** Steps the page shows at least (all of a shorter stored sequence): what a response is judged on. */
export const LIGHT_SHOWN_AT_LEAST = 6;
/** The page fades from one colour to the next over this long (gentle, and part of the latency allowed). */
export const LIGHT_FADE_MS = 100;
/** Frames this long after the last colour still count (a camera's latency); the page keeps capturing till then. */
export const LIGHT_TAIL_MS = 300;

const hex = z.string().regex(/^#[0-9a-f]{6}$/, 'must be a #rrggbb colour');

export const lightStepSchema = z.strictObject({ colour: hex, ms: z.int().min(LIGHT_MIN_STEP_MS).max(LIGHT_MAX_STEP_MS) });
export const lightSequenceSchema = z.strictObject({ steps: z.array(lightStepSchema).min(LIGHT_MIN_STEPS).max(LIGHT_MAX_STEPS) });
export type LightStep = z.infer<typeof lightStepSchema>;
export type LightSequence = z.infer<typeof lightSequenceSchema>;

/**
 * A random sequence: LIGHT_ISSUED_STEPS steps of 350–550 ms, each colour other than the one before.
 * `randomInt(n)` returns 0…n-1 (node:crypto's on the server; a seeded one in tests); `palette` for evaluations.
 */
export function issueLightSequence(randomInt: (n: number) => number, palette: readonly string[] = LIGHT_PALETTE): LightSequence {
	const count = LIGHT_ISSUED_STEPS;
	const steps: LightStep[] = [];
	let previous = -1;
	for (let i = 0; i < count; i++) {
		// Any colour but the previous one: pick among the others.
		let k = randomInt(palette.length - (previous < 0 ? 0 : 1));
		if (previous >= 0 && k >= previous) k++;
		previous = k;
		// 50 ms granularity: the page's timers are not finer than that anyway.
		const ms = LIGHT_MIN_STEP_MS + 50 * randomInt((LIGHT_MAX_STEP_MS - LIGHT_MIN_STEP_MS) / 50 + 1);
		steps.push({ colour: palette[k]!, ms });
	}
	return { steps };
}

export const lightDuration = (sequence: LightSequence): number => sequence.steps.reduce((sum, s) => sum + s.ms, 0);

/** The fewest steps of `sequence` the page must show before it may stop. */
export const lightStepsRequired = (sequence: LightSequence): number => Math.min(LIGHT_SHOWN_AT_LEAST, sequence.steps.length);

/**
 * The part of `sequence` the page showed, from the changes it reports (`changedAt`: when each later
 * colour, then none, came on; one entry a step shown). At least lightStepsRequired steps; otherwise,
 * or without a report, the whole sequence (the plan). Each prefix of a random sequence is as random as
 * a sequence of its length, so stopping early gives an attacker nothing to aim at.
 */
export function shownLightSequence(sequence: LightSequence, changedAt: readonly number[] | null): LightSequence {
	const shown = changedAt?.length ?? 0;
	if (shown < lightStepsRequired(sequence) || shown >= sequence.steps.length) return sequence;
	return { steps: sequence.steps.slice(0, shown) };
}

/** Index of the step shown `ms` after the sequence started (-1 before it, steps.length after it). */
export function lightStepAt(sequence: LightSequence, ms: number): number {
	if (ms < 0) return -1;
	let end = 0;
	for (let i = 0; i < sequence.steps.length; i++) {
		end += sequence.steps[i].ms;
		if (ms < end) return i;
	}
	return sequence.steps.length;
}

/** Start time (ms after the sequence started) of each step. */
export function lightStepStarts(sequence: LightSequence): number[] {
	const starts: number[] = [];
	let t = 0;
	for (const s of sequence.steps) {
		starts.push(t);
		t += s.ms;
	}
	return starts;
}

/** #rrggbb → [r, g, b] in 0–255. */
export function hexToRgb(colour: string): [number, number, number] {
	const n = Number.parseInt(colour.slice(1), 16);
	return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** The testMode values a sandbox flow may set to have a check decide (it is only recorded otherwise). */
export const ENFORCE = 'enforce';

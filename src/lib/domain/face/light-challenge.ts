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
export const LIGHT_MAX_STEPS = 6;
/**
 * Steps the server issues (LIGHT_MIN_STEPS is what a stored sequence may hold). Six, 2.1–3.3 s: with
 * 4–6 (1.4–3.3 s) a slow reactor on a slow phone began the turn after a short sequence had ended
 * (`turnOutside`), or the page took too few frames under its colours (`tooFewFrames`).
 */
export const LIGHT_ISSUED_STEPS = 6;
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

// Glyphs of an MRZ line the recogniser saw nothing at. Pure (scores in, a count out).
import type { MrzLineScores } from './mrz-decode.ts';

/**
 * More glyphs of one line unseen than this put the line in doubt (every field on it: which glyphs the
 * decoder filled is its guess) and no retake confirms the reading. Measured (2026-12-07): 88 of 91
 * real readings (52 specimens and the fixtures) at 0–2 a line (2: a Czech passport photographed
 * with its MRZ in iridescent tints, exact), 3–4 only on an annotated ICAO diagram, a German visa
 * (both misread) and a fixture card (refused); 3–13 on a line of 42 of 59 readings under a thumb
 * (seed 4141 `--as thumb`), over 2 on 2 of 130 generated whole pages (seed 7575, both refused).
 */
export const MAX_UNSEEN_GLYPHS = 2;

/** The lines (indices) with more glyphs unseen than MAX_UNSEEN_GLYPHS. */
export const linesNotSeen = (unseen: readonly number[]): number[] => unseen.flatMap((u, l) => (u > MAX_UNSEEN_GLYPHS ? [l] : []));

/**
 * How many of a line's `length` glyphs the recogniser emitted nothing for. An MRZ line has no
 * spaces: each of its 30–44 places holds a glyph, fillers included, one pitch apart, and the CTC
 * recogniser emits each one (equal neighbours too, with a blank between). Where it emits fewer,
 * something hid glyphs from it: a thumb over the line, glare that washed its ink out, a box that
 * ended where a thumb began. The decoder, held to the layout's length, fills the places it lacks
 * from the grammar alone, and those read as surely as seen ones (seed 7272 `--as thumb`,
 * 2026-12-06: a given name `SKKIWIZE` under a thumb read `SKKIIS` at 0.98). Two glyphs run
 * together under one emission (a blurred `<<`) count as seen by the frames they span.
 */
export function unseenGlyphs(scores: MrzLineScores, length: number): number {
	const classes = scores.probs.length / scores.steps;
	// The greedy path's runs of one non-blank class: one glyph each, or more when a run spans them.
	const runs: { start: number; end: number }[] = [];
	let prev = 0;
	for (let t = 0; t < scores.steps; t++) {
		let best = 0;
		for (let c = 1; c < classes; c++) if (scores.probs[t * classes + c] > scores.probs[t * classes + best]) best = c;
		if (best !== 0 && best === prev) runs[runs.length - 1].end = t;
		else if (best !== 0) runs.push({ start: t, end: t });
		prev = best;
	}
	if (runs.length < 2) return Math.max(0, length - runs.length);
	const pitch = glyphPitch(runs.map((r) => r.start));
	const seen = runs.reduce((n, r) => n + 1 + Math.floor((r.end - r.start) / pitch), 0);
	return Math.max(0, length - seen);
}

/** The frames between glyphs: the mean of the gaps between emissions near their median (gaps over a lost glyph left out). */
function glyphPitch(starts: readonly number[]): number {
	const gaps = starts.slice(1).map((t, i) => t - starts[i]);
	const median = gaps.slice().sort((a, b) => a - b)[gaps.length >> 1];
	const near = gaps.filter((g) => g >= 0.6 * median && g <= 1.4 * median);
	return near.reduce((a, b) => a + b, 0) / near.length;
}

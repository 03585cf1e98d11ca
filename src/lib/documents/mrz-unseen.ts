// Glyphs of an MRZ line the photo did not show: those the recogniser saw nothing at, and those its
// page holds room for beyond the line read. Pure (scores or boxes in, counts out).
import type { MrzFormat } from './document-type.ts';
import type { MrzLineScores } from './mrz-decode.ts';
import type { Quad } from './raster.ts';

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

/**
 * How many glyph pitches the widest page a layout is printed on spans along its MRZ lines (ICAO 9303:
 * 2.54 mm a glyph; a TD1 card 85.6 mm wide, a TD2 card 105, a TD3 passport page 125). A visa is a
 * sticker on a passport page (MRV-A 120 mm wide, MRV-B 105: a Schengen visa's 36-glyph lines), and
 * the outline found may well be the page's: its layout gets the page's 125. A whole line fills all
 * but 1.5–3.5 of them, its margins: measured on the rectified pages of 16 real documents whose
 * outline was found, their page 2.2 pitches short to 0.7 over their layout's, and of 118 generated
 * whole pages of the three card and passport layouts (seed 6161, 2026-12-07) 4.9 to 0.1 short.
 */
const PAGE_PITCHES: Partial<Record<MrzFormat, number>> = { TD1: 85.6 / 2.54, TD2: 105 / 2.54, TD3: 125 / 2.54, 'MRV-A': 125 / 2.54, 'MRV-B': 125 / 2.54 };

/**
 * A line anchored at a whole line's place: one of its ends at most this many pitches from the page's
 * edge (an MRZ's margin is 1–2.5 of them, 4.3 on one real page read turned level). A line whose
 * both ends lie further in is not measured: the outline found is then likely not its page's (a card
 * lying on a larger sheet), not a page whose line was cut short.
 */
const ANCHOR_PITCHES = 4.5;

/**
 * Per line of a reading in `format`, how many glyphs its page holds room for beyond the line read:
 * the page's width along the line, in the line's own glyph pitches, less its layout's page. A thumb
 * over the start or the end of the lines hides their glyphs from the text detector as well, so the
 * boxes end at it: what the recogniser saw of the line then emits glyph for glyph and nothing counts
 * as unseen, and a passport's 44-glyph lines held so (36–38 glyphs left in view) were read as a
 * 36-glyph layout (`--as thumb`, 2026-12-07: 8 of seed 4141's 59 readings, 10 of seed 2626's 55;
 * an MRV-B read as a TD1), 2 of the 10 then marked, 7 with this count.
 * The page says otherwise: its 49 pitches hold a TD3, not a TD2's 41. `lines`: the reading's line
 * boxes in the rectified page's coordinates (`page` its size), along the text; `lengths`: glyphs
 * read on each. Zero for a layout of no known page, and for a line anchored nowhere (ANCHOR_PITCHES).
 */
export function glyphsPastLines(lines: readonly Quad[], lengths: readonly number[], format: MrzFormat, page: { width: number; height: number }): number[] {
	const pitches = PAGE_PITCHES[format];
	return lines.map((q, l) => {
		if (!pitches || !lengths[l]) return 0;
		// Along the page's axis the text runs closer to (a page read turned a quarter runs along its height).
		const axis = Math.abs(q[1][0] - q[0][0]) >= Math.abs(q[1][1] - q[0][1]) ? 0 : 1;
		const extent = axis === 0 ? page.width : page.height;
		const at = q.map((p) => p[axis]);
		const [from, to] = [Math.max(0, Math.min(...at)), Math.min(extent, Math.max(...at))];
		const pitch = (to - from) / lengths[l];
		if (pitch <= 0 || Math.min(from, extent - to) / pitch > ANCHOR_PITCHES) return 0;
		return Math.max(0, Math.floor(extent / pitch - pitches));
	});
}

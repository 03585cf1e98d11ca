// Whether the photo's edge cut the MRZ: judged on the MRZ lines' boxes mapped into the photo as
// uploaded, and on the photo's own edge pixels. Pure (rasters and boxes in, a yes or no out).
import type { Point, Quad, Raster } from './raster.ts';

/** The axis (0: x, 1: y) the text of `quads` runs along, taken from the first line. */
function alongAxis(quads: readonly Quad[]): 0 | 1 {
	const [dx, dy] = [quads[0][1][0] - quads[0][0][0], quads[0][1][1] - quads[0][0][1]];
	return Math.abs(dx) >= Math.abs(dy) ? 0 : 1;
}

const lineHeight = (q: Quad) => Math.hypot(q[3][0] - q[0][0], q[3][1] - q[0][1]);

/**
 * The MRZ lines read run off the image: every line's box ends within a quarter of its height (2 px at
 * least) of the image's edge at the same end of the text (a photo's edge cuts all the lines at once),
 * or a line's box reaches the edge above or below the text, or past it (the photo cut through the
 * outer line's glyphs, whose box the reader sizes like its fellows'). A whole page, rectified or
 * photographed with a margin, keeps its MRZ a glyph or more from every edge (ICAO 9303 prints it
 * inside the page's margins). `quads`: the reading's own lines (a line read below them, seated one
 * pitch under the MRZ to look for it, may lie past the page), top to bottom, along the text, in the
 * image's coordinates; the text may run up or down the image (a photo stored sideways).
 * Generated pages cut 2–15 % along the lines or through the last line's glyphs (`--as cutEdge`,
 * 2026-12-06) were all refused, and the user was asked to come closer, which cuts more.
 */
export function mrzReachesEdge(quads: readonly Quad[], image: { width: number; height: number }): boolean {
	return linesReachingEdge(quads, image).length > 0;
}

/** `mrzReachesEdge`'s lines: every line when the cut runs across their ends, else those whose box reaches the edge above or below. */
function linesReachingEdge(quads: readonly Quad[], image: { width: number; height: number }): number[] {
	if (quads.length === 0) return [];
	const margin = (q: Quad) => Math.max(2, lineHeight(q) / 4);
	const along = alongAxis(quads);
	const across = 1 - along;
	const size = [image.width, image.height];
	const at = (q: Quad, axis: number) => q.map((p) => p[axis]);
	const every = quads.map((_, i) => i);
	if (quads.every((q) => Math.min(...at(q, along)) < margin(q))) return every;
	if (quads.every((q) => Math.max(...at(q, along)) > size[along] - margin(q))) return every;
	return every.filter((i) => Math.max(...at(quads[i], across)) >= size[across] - 2 || Math.min(...at(quads[i], across)) <= 2);
}

/**
 * The photo's edge above or below the MRZ cuts through glyphs: along its outermost two pixel rows,
 * under the span of the MRZ line nearest that edge (within a line height of it), dark strokes stand
 * apart as a line of glyphs' do — at least a quarter as many as the line has glyphs. The reader's box
 * of a line cut through its glyphs does not always reach the edge (sized from the glyphs' tops:
 * seed 8383's cut pages, 2026-12-06, boxes ending up to 0.3 line heights short of it), while a whole
 * page's edge there shows its margin and what it lies on, not a row of strokes. `quads`: every line
 * the reader placed, those it seated below the reading to look for a lost line included (a TD1 whose
 * cut last line was lost: its seated box lies on the cut). Two real specimens show strokes at the
 * edge 1.3 and 1.7 line heights below their MRZ (the tops of the next print, a guilloche's hatching).
 */
export function glyphsCutAtEdge(quads: readonly Quad[], image: Raster): boolean {
	return lineCutAtEdge(quads, image) >= 0;
}

/** `glyphsCutAtEdge`'s line: the index in `quads` of the outer line the edge cuts, or −1. */
function lineCutAtEdge(quads: readonly Quad[], image: Raster): number {
	if (quads.length === 0) return -1;
	const along = alongAxis(quads);
	const across = 1 - along;
	const size = [image.width, image.height];
	for (const index of [0, quads.length - 1]) {
		const q = quads[index];
		const h = lineHeight(q);
		const lo = Math.min(...q.map((p) => p[across]));
		const hi = Math.max(...q.map((p) => p[across]));
		const from = Math.max(0, Math.floor(Math.min(...q.map((p) => p[along]))));
		const to = Math.min(size[along] - 1, Math.ceil(Math.max(...q.map((p) => p[along]))));
		if (to - from < 8 * h) continue;
		const glyphs = Math.max(8, Math.round((to - from) / (0.8 * h)) / 4);
		for (const [gap, edge] of [
			[lo, 0],
			[size[across] - 1 - hi, size[across] - 1]
		] as const) {
			if (gap > h) continue;
			for (const k of [0, 1]) {
				const row = edge === 0 ? k : edge - k;
				if (strokesAlong(image, along, row, from, to, h) >= glyphs) return index;
			}
		}
	}
	return -1;
}

/** Dark runs, each narrower than a line height, along one pixel row (`along` 0) or column (1). */
function strokesAlong(image: Raster, along: 0 | 1, at: number, from: number, to: number, lineHeight: number): number {
	const luma: number[] = [];
	for (let t = from; t <= to; t++) {
		const p: Point = along === 0 ? [t, at] : [at, t];
		const i = (p[1] * image.width + p[0]) * image.channels;
		const d = image.data;
		luma.push(image.channels === 1 ? d[i] : (d[i] * 77 + d[i + 1] * 150 + d[i + 2] * 29) >> 8);
	}
	// Dark against the row's own paper: its bright end, so a dim photo or a tinted page is judged alike.
	const sorted = [...luma].sort((a, b) => a - b);
	const paper = sorted[Math.floor(sorted.length * 0.9)];
	const ink = sorted[Math.floor(sorted.length * 0.05)];
	if (paper - ink < 40) return 0;
	const dark = (ink + paper) / 2;
	let runs = 0;
	let run = 0;
	for (const v of luma) {
		if (v < dark) run++;
		else {
			if (run > 0 && run < lineHeight) runs++;
			run = 0;
		}
	}
	return runs;
}

/**
 * The lines of a reading whose glyphs the photo's edge cut, as indices into its own lines (the first
 * `read` of `quads`; the rest are lines the reader seated below them to look for a lost one). What
 * the decoder put at a cut was never seen: it fills a line's lost glyphs from the grammar, and where
 * along the line it fills them is its guess, so the whole line is in question, not only its cut end.
 * A cut found only on a seated line (a TD1 whose last line was lost at the cut) leaves every line of
 * the reading in question: which boxes it read is then itself a guess.
 */
export function mrzCutLines(quads: readonly Quad[], read: number, image: Raster): number[] {
	const own = quads.slice(0, read);
	const reaching = linesReachingEdge(own, image);
	if (reaching.length > 0) return reaching;
	const cut = lineCutAtEdge(quads, image);
	if (cut < 0) return [];
	return cut < own.length ? [cut] : own.map((_, i) => i);
}

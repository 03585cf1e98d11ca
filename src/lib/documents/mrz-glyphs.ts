/**
 * A second look at the glyphs the recogniser confuses in OCR-B — O/0, D/0, I/1, B/8, S/5, Z/2,
 * G/6 — by their pixels. OCR-B draws these pairs nearly alike (its digits stand a little taller than
 * its capitals, the 0 narrower than the O at the waist), and the recogniser, trained on other print,
 * is often sure of the wrong one. Check digits catch some of it; a document number's optional part,
 * TD1 optional data and a check digit that two swaps fool are left to the recogniser's word.
 *
 * Every MRZ carries its own answer key: a date's glyphs are digits, a name's and a state code's are
 * letters, whatever the recogniser thinks. So each doubtful glyph is compared with glyphs of the same
 * MRZ whose character the grammar fixes — same printer, same camera, same blur and resolution —
 * and the closer set says which it is. Nothing here knows the font: it is calibrated on the
 * document in hand, and says nothing when the document does not teach it (no example of one of
 * the two characters, or examples that do not tell themselves apart). Where a page teaches no O,
 * its heights may still say a glyph read 0 is none: its sure digits standing clearly taller than
 * its sure letters, and the glyph no taller than the letters (`shortVote`).
 *
 * Cells: the CTC alignment puts each position's glyph at an expected time step
 * (ctc-marginals.ts `entrySteps`); MRZ glyphs are evenly spaced, so a straight line through those
 * gives the pitch, and the columns with least ink between glyphs give the phase.
 */
import type { Raster } from './raster.ts';

export interface GlyphLine {
	/** The line as the recogniser saw it (rectified, any channels). */
	strip: Raster;
	/** CTC time steps the recogniser gave for the strip. */
	steps: number;
	/** Expected time step of each position (the decoded layout's length). */
	entrySteps: Float64Array;
}

/** A position whose character is in doubt between look-alikes, and what the glyphs said. */
export interface GlyphVote {
	line: number;
	position: number;
	/** The characters compared, and each one's best normalised cross-correlation with its examples. */
	scores: Record<string, number>;
	/** The character the pixels favour, or null when they do not decide. */
	verdict: string | null;
	/** How far the favoured character's score stands above the other's, in the document's own units (see `glyphVotes`). */
	margin: number;
	/** `pair[0]` was compared through stand-ins (DoubtfulGlyph `standIn`): its verdict means only "not `pair[1]`". */
	standIn?: boolean;
	/**
	 * How much less the glyph resembles the character it is closer to than the least typical of that
	 * character's examples resembles the others (the other character's, when it has one example; 0
	 * when it is as typical; undefined through stand-ins). Over MAX_SHORTFALL there is no verdict.
	 */
	shortfall?: number;
	/** Chosen among every character the document teaches (`taughtVotes`), not between a look-alike pair. */
	taught?: true;
	/**
	 * The document teaches only `pair[1]`, and the glyph is unlike its examples (UNLIKE_SHORTFALL):
	 * the verdict `pair[0]` means "not `pair[1]`", from one kind's examples alone (`margin` 0).
	 */
	unlike?: true;
	/** An `unlike` vote from heights (`shortVote`): the glyph's, and the page's sure digits' and letters' medians. */
	height?: { glyph: number } & PageHeights;
}

/**
 * A glyph is "not a 0" when the document's 0's, alike among themselves (UNLIKE_FLOOR), are all
 * less like it than this short of how they look like one another. Many documents have no O to
 * learn from (names without one) and many 0's (their dates), and under a stamp the recogniser reads
 * a number's O's as 0's, two of them passing the check digit together. On seed 3737's stamped and
 * combined pages (2026-12-06), compared with the 0's alone: stamped O's fell short of them by
 * 0.19–0.30, blurred ones (combined damage) by only 0.03–0.08, true 0's by 0.00–0.09. A 0 under a
 * stamp's ink falls short too: the vote moves a reading only where the check digits allow, and a
 * reading it moved is doubted (mrz-decode.ts `weakenUnlike`).
 */
export const UNLIKE_SHORTFALL = 0.15;
export const UNLIKE_FLOOR = 0.9;
/**
 * ...and the glyph is still something like them: a cell with no glyph in it (an alignment off by a
 * place: seed 3737 #271's cell met the 0's at -0.03) says nothing of what the place holds.
 */
export const UNLIKE_MIN = 0.5;

/**
 * A glyph closer to one character's examples than to the other's is that character only if it looks
 * like those examples about as much as they look like one another. A stamp's ink over a 0, or a cell
 * cut across two glyphs, can look like neither and still be less unlike the O's: the first
 * wrong-but-accepted reading of seed 2611 (2026-11-27) was such a number, `CPC0GNI0L` read
 * `CPCOGNIOL`, both O's voted for at 0.76 and 0.80 where the O examples met each other at 0.96
 * and better. The two swaps are weighted 7 and 3, so the check digits pass either way, and the vote
 * had also lifted the double-swap doubt (mrz-decode.ts `hiddenLookalikeSwap`). Measured on votes of
 * seeds 1 and 7 (310 documents, 3 438 counted votes): of the 3 412 right votes 99 % fall short by
 * 0.134 or less, and 53 by more than 0.12 (44 against their own kind, 9 of 651 whose kind had one
 * example against the other's); every wrong O/0/D vote fell short by 0.134–0.46 (the few wrong
 * K/chevron and I/1 votes by 0.03–0.10: other checks stand behind those). A K against a chevron
 * came out even on all 504 of seeds 7 and 2611: one stamped name lost its right vote (refused, as
 * it then read `<K` for `<<`), one number's K its wrong one (read exactly, refused before).
 */
export const MAX_SHORTFALL = 0.12;

/** Look-alike pairs: the recogniser's confusions in OCR-B (letter, digit). */
export const GLYPH_PAIRS: readonly (readonly [string, string])[] = [
	['O', '0'],
	['D', '0'],
	['Q', '0'],
	['I', '1'],
	['B', '8'],
	['S', '5'],
	['Z', '2'],
	['G', '6'],
	['T', '7']
];

interface Cells {
	width: number;
	height: number;
	/** Per position, the cell's ink (0 paper … 1 darkest), row-major width × height. */
	ink: Float32Array[];
}

/** A strip's ink map with its column and row sums. */
interface StripInk {
	/** 0 at the paper's brightness, 1 at the ink's, row-major. */
	ink: Float32Array;
	column: Float32Array;
	row: Float32Array;
}

/**
 * Ink maps by strip: a reading decodes the same lines several times (two- and three-line windows,
 * each layout), and the map depends on the pixels only.
 */
const inkCache = new WeakMap<Raster, StripInk>();

/**
 * Ink map of a strip: 0 at the paper's brightness (90th percentile of grey), 1 at the ink's (3rd).
 * Grey is an integer numerator over 256, so the percentiles come from a histogram of numerators
 * (the same values a sort gives, without sorting ~50 000 floats per line).
 */
function inkOf(strip: Raster): StripInk {
	const cached = inkCache.get(strip);
	if (cached) return cached;
	const { width, height, channels, data } = strip;
	const n = width * height;
	const grey = new Uint16Array(n);
	const counts = new Uint32Array(256 * 256);
	for (let i = 0; i < n; i++) {
		const o = i * channels;
		const g = channels === 1 ? data[o] * 256 : data[o] * 77 + data[o + 1] * 150 + data[o + 2] * 29;
		grey[i] = g;
		counts[g]++;
	}
	const rank = (k: number) => {
		let seen = 0;
		for (let g = 0; g < counts.length; g++) if ((seen += counts[g]) > k) return g;
		return counts.length - 1;
	};
	const paper = rank(Math.floor(n * 0.9)) / 256;
	const inkLevel = rank(Math.floor(n * 0.03)) / 256;
	const span = Math.max(1, paper - inkLevel);
	const ink = new Float32Array(n);
	const column = new Float32Array(width);
	const row = new Float32Array(height);
	for (let y = 0, i = 0; y < height; y++)
		for (let x = 0; x < width; x++, i++) {
			ink[i] = Math.min(1, Math.max(0, (paper - grey[i] / 256) / span));
			// The stored (float32) value, as the cells will sample it.
			const v = ink[i];
			column[x] += v;
			row[y] += v;
		}
	const out = { ink, column, row };
	inkCache.set(strip, out);
	return out;
}

/** Straight line x = a + b·j through the points, refitted without those far from the first fit. */
function fitPitch(xs: Float64Array): { a: number; b: number } | null {
	const fit = (keep: (j: number) => boolean) => {
		let n = 0, sj = 0, sx = 0, sjj = 0, sjx = 0;
		for (let j = 0; j < xs.length; j++) {
			if (!keep(j)) continue;
			n++;
			sj += j;
			sx += xs[j];
			sjj += j * j;
			sjx += j * xs[j];
		}
		const d = n * sjj - sj * sj;
		if (n < 4 || d === 0) return null;
		const b = (n * sjx - sj * sx) / d;
		return { a: (sx - b * sj) / n, b };
	};
	const first = fit(() => true);
	if (!first || first.b <= 0) return null;
	return fit((j) => Math.abs(xs[j] - (first.a + first.b * j)) < 0.35 * first.b) ?? first;
}

interface LineGeometry {
	ink: Float32Array;
	width: number;
	height: number;
	/** Centre of position j's cell: x = a + b·j (strip pixels). */
	a: number;
	b: number;
	/** The row the glyphs stand on, and the height of the text above it (strip pixels). */
	baseline: number;
	textHeight: number;
}

/** Where a line's glyphs are: null when the alignment does not look like even spacing. */
function geometryOf(line: GlyphLine): LineGeometry | null {
	const { strip, steps, entrySteps } = line;
	const L = entrySteps.length;
	const perStep = strip.width / steps;
	const pitch = fitPitch(entrySteps.map((t) => (t + 0.5) * perStep));
	if (!pitch || pitch.b < 6 || Math.abs(pitch.b * L - strip.width) > 0.5 * strip.width) return null;
	const { ink, column, row } = inkOf(strip);
	const { width: W, height: H } = strip;
	// The phase: cell borders where the gaps between glyphs are.
	let bestPhase = 0, bestInk = Infinity;
	for (let phase = -pitch.b / 2; phase <= pitch.b / 2; phase += 0.5) {
		let sum = 0, n = 0;
		for (let j = 0; j <= L; j++) {
			const x = Math.round(pitch.a + phase + pitch.b * (j - 0.5));
			if (x < 0 || x >= W) continue;
			sum += column[x];
			n++;
		}
		if (n > L / 2 && sum / n < bestInk) (bestInk = sum / n), (bestPhase = phase);
	}
	// The text band: rows with at least a third of the inkiest row's ink.
	const peak = Math.max(...row);
	if (!(peak > 0)) return null;
	let top = 0, bottom = H - 1;
	while (top < H && row[top] < peak / 3) top++;
	while (bottom > top && row[bottom] < peak / 3) bottom--;
	if (bottom - top < 4) return null;
	return { ink, width: W, height: H, a: pitch.a + bestPhase, b: pitch.b, baseline: bottom + 1, textHeight: bottom + 1 - top };
}

/** Cell width every line is scaled to: the same glyph spacing, so cells of different lines compare. */
const CELL = 20;

/**
 * Cuts each line into one cell per position, every line scaled to the same glyph pitch (all lines
 * of an MRZ share it) and set on the same baseline (OCR-B has no descenders; its digits stand
 * taller than its capitals above it, which is part of what tells them apart).
 */
function cellsOf(lines: readonly GlyphLine[]): (Cells | null)[] {
	const geometry = lines.map(geometryOf);
	const heights = geometry.filter((g) => g !== null).map((g) => (g.textHeight * CELL) / g.b).sort((x, y) => x - y);
	if (heights.length === 0) return geometry.map(() => null);
	const text = heights[heights.length >> 1];
	const height = Math.round(text * 1.5);
	const baseline = Math.round(text * 1.25);
	return geometry.map((g, l) => {
		if (!g) return null;
		const scale = g.b / CELL;
		const L = lines[l].entrySteps.length;
		const ink: Float32Array[] = [];
		for (let j = 0; j < L; j++) {
			const cell = new Float32Array(CELL * height);
			const x0 = g.a + g.b * (j - 0.5);
			for (let v = 0; v < height; v++) {
				const sy = g.baseline + (v - baseline) * scale;
				for (let u = 0; u < CELL; u++) cell[v * CELL + u] = sampleInk(g, x0 + u * scale, sy);
			}
			ink.push(cell);
		}
		return { width: CELL, height, ink };
	});
}

/** The lines' cells, each position's ink, and a key that says which cells share a size (and so compare). */
function cellIndex(lines: readonly GlyphLine[]) {
	const cells = cellsOf(lines);
	return {
		cells,
		cellAt: (line: number, position: number) => cells[line]?.ink[position] ?? null,
		sizeOf: (line: number) => (cells[line] ? `${cells[line]!.width}x${cells[line]!.height}` : '')
	};
}

function sampleInk(g: LineGeometry, x: number, y: number): number {
	const x0 = Math.floor(x), y0 = Math.floor(y);
	if (x0 < 0 || y0 < 0 || x0 + 1 >= g.width || y0 + 1 >= g.height) return 0;
	const fx = x - x0, fy = y - y0, i = y0 * g.width + x0;
	const top = g.ink[i] * (1 - fx) + g.ink[i + 1] * fx;
	const bottom = g.ink[i + g.width] * (1 - fx) + g.ink[i + g.width + 1] * fx;
	return top * (1 - fy) + bottom * fy;
}

/**
 * How tall a cell's glyph stands, in cell rows: from the row where its ink first reaches half its
 * peak to the row where it last does, each edge placed between rows by the crossing. A row's ink is
 * the mean of its three inkiest columns (a stroke, not the cell's paper). NaN when the cell is empty.
 */
export function glyphHeight(cell: Float32Array, width: number, height: number): number {
	const rows = new Float64Array(height);
	for (let v = 0; v < height; v++) {
		let a = 0, b = 0, c = 0;
		for (let u = 1; u < width - 1; u++) {
			const x = cell[v * width + u];
			if (x > a) (c = b), (b = a), (a = x);
			else if (x > b) (c = b), (b = x);
			else if (x > c) c = x;
		}
		rows[v] = (a + b + c) / 3;
	}
	let peak = 0;
	for (const r of rows) peak = Math.max(peak, r);
	if (!(peak > 0.2)) return NaN;
	const half = peak / 2;
	let top = NaN, bottom = NaN;
	for (let v = 1; v < height; v++)
		if (rows[v] >= half) {
			top = v - (rows[v] - half) / (rows[v] - rows[v - 1]);
			break;
		}
	for (let v = height - 2; v >= 0; v--)
		if (rows[v] >= half) {
			bottom = v + (rows[v] - half) / (rows[v] - rows[v + 1]);
			break;
		}
	return bottom - top;
}

/** Shifts tried when comparing two cells (the pitch fit is good to a pixel or two). */
const SHIFT = 2;

/** Best normalised cross-correlation of two cells over small shifts (1: the same picture). */
function similarity(a: Float32Array, b: Float32Array, w: number, h: number): number {
	let best = -1;
	for (let dy = -SHIFT; dy <= SHIFT; dy++)
		for (let dx = -SHIFT; dx <= SHIFT; dx++) {
			let n = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
			for (let y = SHIFT; y < h - SHIFT; y++)
				for (let x = SHIFT; x < w - SHIFT; x++) {
					const va = a[y * w + x];
					const vb = b[(y + dy) * w + x + dx];
					n++;
					sa += va;
					sb += vb;
					saa += va * va;
					sbb += vb * vb;
					sab += va * vb;
				}
			const cov = sab - (sa * sb) / n;
			const den = Math.sqrt((saa - (sa * sa) / n) * (sbb - (sb * sb) / n));
			if (den > 0 && cov / den > best) best = cov / den;
		}
	return best;
}

/** Examples of a character compared at most (a TD3 has up to 30 fillers; a dozen teach as much). */
const MAX_EXAMPLES = 12;

export interface GlyphExample {
	line: number;
	position: number;
	char: string;
}

/** A position in doubt between the two characters of `pair`. */
export interface DoubtfulGlyph {
	line: number;
	position: number;
	pair: readonly [string, string];
	/**
	 * When the document has no example of `pair[0]`: the characters whose examples stand in for it.
	 * A name's K against a chevron: few names carry a sure K elsewhere, but every name carries letters,
	 * and a chevron is told from letters by the chevrons the same MRZ prints in its fillers. The vote
	 * then says "a letter, not a filler" or "a filler", and it is taught by the chevrons alone (each
	 * closer to the other chevrons than to any letter).
	 */
	standIn?: (char: string) => boolean;
}

/** Stand-in examples compared at most, every character before any character's second. */
const MAX_STAND_INS = 16;

function standInExamples(examples: readonly GlyphExample[], keep: (e: GlyphExample) => boolean): GlyphExample[] {
	const rounds = new Map<string, GlyphExample[]>();
	for (const e of examples) if (keep(e)) rounds.set(e.char, [...(rounds.get(e.char) ?? []), e]);
	const out: GlyphExample[] = [];
	for (let k = 0; out.length < MAX_STAND_INS && [...rounds.values()].some((list) => list.length > k); k++)
		for (const list of rounds.values()) if (list.length > k && out.length < MAX_STAND_INS) out.push(list[k]);
	return out;
}

/**
 * Compares each doubtful position with the examples of its two candidate characters. `doubtful`:
 * positions and the pair in question; `examples`: positions whose character the grammar fixed and
 * the recogniser was sure of. A vote is given only when the examples teach the difference: each
 * example (when a character has two or more) is closer to its own kind than to the other, and the
 * doubtful glyph's preference stands clear of the examples' own spread (`margin` ≥ 1 means as clear
 * as the least clear example was; the caller decides what to do with that), and the glyph looks like
 * the kind it prefers about as much as that kind's examples look like one another (MAX_SHORTFALL).
 */
export function glyphVotes(lines: readonly GlyphLine[], doubtful: readonly DoubtfulGlyph[], examples: readonly GlyphExample[]): GlyphVote[] {
	if (doubtful.length === 0) return [];
	const { cells, cellAt, sizeOf } = cellIndex(lines);
	const votes: GlyphVote[] = [];
	const cache = new Map<string, number>();
	const sim = (l1: number, p1: number, l2: number, p2: number) => {
		const key = l1 < l2 || (l1 === l2 && p1 < p2) ? `${l1}:${p1}:${l2}:${p2}` : `${l2}:${p2}:${l1}:${p1}`;
		let v = cache.get(key);
		if (v === undefined) {
			const c = cells[l1]!;
			v = similarity(cellAt(l1, p1)!, cellAt(l2, p2)!, c.width, c.height);
			cache.set(key, v);
		}
		return v;
	};
	const heightOf = (l: number, p: number) => glyphHeight(cellAt(l, p)!, cells[l]!.width, cells[l]!.height);
	const pageHeights = new Map<string, PageHeights | null>();
	const heightsOf = (size: string) => {
		if (!pageHeights.has(size)) pageHeights.set(size, heightsOnPage(examples.filter((e) => sizeOf(e.line) === size), heightOf));
		return pageHeights.get(size)!;
	};
	// A glyph's best likeness to a list of examples (never to itself).
	const best = (l: number, p: number, list: readonly GlyphExample[]) => Math.max(-1, ...list.filter((e) => !(e.line === l && e.position === p)).map((e) => sim(l, p, e.line, e.position)));
	for (const d of doubtful) {
		if (!cellAt(d.line, d.position)) continue;
		const size = sizeOf(d.line);
		const usable = (e: GlyphExample) => sizeOf(e.line) === size && !(e.line === d.line && e.position === d.position);
		const byChar = d.pair.map((ch) => examples.filter((e) => e.char === ch && usable(e)).slice(0, MAX_EXAMPLES));
		const standIn = byChar[0].length === 0 && d.standIn !== undefined;
		if (standIn) byChar[0] = standInExamples(examples, (e) => d.standIn!(e.char) && e.char !== d.pair[1] && usable(e));
		if (byChar[0].length === 0 && !standIn && d.pair[1] === '0') {
			const unlike = (byChar[1].length >= 2 ? unlikeVote(d, byChar[1], best) : null) ?? shortVote(d, heightsOf(size), heightOf(d.line, d.position));
			if (unlike) votes.push(unlike);
			continue;
		}
		if (byChar.some((list) => list.length === 0)) continue;
		// The examples' own lesson: each closer to its kind than to the other kind, by how much. Stand-ins
		// are of many kinds (an A is not closer to an R than to a chevron): only the real kind teaches.
		let lesson = Infinity;
		for (const [k, list] of byChar.entries()) {
			if (list.length < 2 || (standIn && k === 0)) continue;
			for (const e of list) lesson = Math.min(lesson, best(e.line, e.position, list) - best(e.line, e.position, byChar[1 - k]));
		}
		const scores = Object.fromEntries(d.pair.map((ch, k) => [ch, best(d.line, d.position, byChar[k])]));
		const gap = scores[d.pair[0]] - scores[d.pair[1]];
		const unit = Number.isFinite(lesson) ? lesson : NaN;
		const margin = unit > 0 ? Math.abs(gap) / unit : 0;
		// The closer kind's own floor: its least typical example's likeness to the rest. A kind of one
		// example has none, and the other kind's floor says as well how alike this document prints one
		// character twice. Stand-ins are of many kinds: a vote through them is left as it was.
		const closer = gap > 0 ? 0 : 1;
		const floorOf = (k: number) => (byChar[k].length >= 2 ? Math.min(...byChar[k].map((e) => best(e.line, e.position, byChar[k]))) : NaN);
		const floor = standIn ? NaN : Number.isFinite(floorOf(closer)) ? floorOf(closer) : floorOf(1 - closer);
		const shortfall = Number.isFinite(floor) ? Math.max(0, floor - scores[d.pair[closer]]) : undefined;
		const decided = unit > 0 && gap !== 0 && !(shortfall !== undefined && shortfall > MAX_SHORTFALL);
		votes.push({ line: d.line, position: d.position, scores, verdict: decided ? d.pair[closer] : null, margin, ...(standIn ? { standIn } : {}), ...(shortfall !== undefined ? { shortfall } : {}) });
	}
	return votes;
}

/** "Not `pair[1]`" (GlyphVote `unlike`), from that character's examples alone; null when they do not say so. */
function unlikeVote(d: DoubtfulGlyph, kind: readonly GlyphExample[], best: (line: number, position: number, list: readonly GlyphExample[]) => number): GlyphVote | null {
	const floor = Math.min(...kind.map((e) => best(e.line, e.position, kind)));
	const score = best(d.line, d.position, kind);
	if (floor < UNLIKE_FLOOR || floor - score <= UNLIKE_SHORTFALL || score < UNLIKE_MIN) return null;
	return { line: d.line, position: d.position, scores: { [d.pair[1]]: score }, verdict: d.pair[0], margin: 0, shortfall: floor - score, unlike: true };
}

/**
 * OCR-B's digits stand taller than its capitals (in Debian's OCR-B 124–126 units against 112–118;
 * printed, the Finnish and Czech specimen passports of the fixtures: digits 12.6 and 13.0 px, capitals
 * 11.3 and 11.9 px), and the O is a capital: a glyph read 0 that stands no taller than the page's
 * letters is no 0, however alike the two look once a stamp or blur has been over them. The page
 * teaches it only where its sure digits and sure letters part clearly: their medians at least this
 * many spreads apart (a spread: the larger of the two kinds' median absolute deviations, as a standard
 * deviation, and at least 1 % of a digit's height). Under heavy blur they do not (seed 7373 #24,
 * combined damage: digits 15.6 and letters 14.6 cells tall, each kind spread over 1.5 cells), and
 * the page says nothing.
 */
export const HEIGHT_SEPARATION = 2.5;
/** Sure digits and sure letters a page needs before its heights teach anything. */
const MIN_HEIGHT_EXAMPLES = 4;

interface PageHeights {
	digit: number;
	letter: number;
	spread: number;
}

/** The page's sure digits' and letters' median heights, or null when they do not part (HEIGHT_SEPARATION). */
function heightsOnPage(examples: readonly GlyphExample[], heightOf: (line: number, position: number) => number): PageHeights | null {
	const of = (kind: RegExp) => examples.filter((e) => kind.test(e.char)).map((e) => heightOf(e.line, e.position)).filter(Number.isFinite);
	const digits = of(/[0-9]/), letters = of(/[A-Z]/);
	if (digits.length < MIN_HEIGHT_EXAMPLES || letters.length < MIN_HEIGHT_EXAMPLES) return null;
	const median = (xs: readonly number[]) => {
		const s = [...xs].sort((a, b) => a - b);
		return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
	};
	const digit = median(digits), letter = median(letters);
	const mad = (xs: readonly number[], m: number) => median(xs.map((x) => Math.abs(x - m)));
	const spread = Math.max(1.4826 * Math.max(mad(digits, digit), mad(letters, letter)), 0.01 * digit);
	return digit - letter >= HEIGHT_SEPARATION * spread ? { digit, letter, spread } : null;
}

/**
 * "Not a 0" (GlyphVote `unlike`) from the glyph's height alone: nearer the page's letters than its
 * digits (OCR-B's O stands a little above its flat capitals, so halfway is on the 0's side of the O),
 * and no shorter than a letter (a cell holding a filler or half a glyph says nothing). Seed 7373 #328
 * (2026-12-06), a stamp across `1O1OX5Z5<`, read `1010X5Z5<` with O's at places weighted 3 and 7:
 * the page's letters 13.5 cells tall, its digits 14.6, the two O's 13.9; no O anywhere else on the page.
 */
function shortVote(d: DoubtfulGlyph, page: PageHeights | null, height: number): GlyphVote | null {
	if (!page || !Number.isFinite(height)) return null;
	if (height > (page.digit + page.letter) / 2 || height < page.letter - 3 * page.spread) return null;
	return { line: d.line, position: d.position, scores: {}, verdict: d.pair[0], margin: 0, unlike: true, height: { glyph: height, ...page } };
}

/**
 * A glyph the recogniser was unsure of (below EXAMPLE_CONFIDENCE in mrz-decode.ts) is voted another
 * character only when that character's examples look alike at least this much: the document
 * teaches it consistently (examples under glare or a stamp fall to 0.2–0.8 and teach nothing).
 */
export const TAUGHT_FLOOR = 0.9;
/** ...and the glyph looks like those examples within this of how much they look like each other. */
export const TAUGHT_SHORTFALL = 0.02;
/** ...and, when the character read has examples too, more like the other character's by this much. */
export const TAUGHT_LEAD = 0.05;

/** Examples per character when a glyph is compared with the whole alphabet the document teaches. */
const MAX_TAUGHT_EXAMPLES = 4;

/** A glyph read as `char`, which any character of `alphabet` may be (a name's letter: any letter or a filler). */
export interface UnsureGlyph {
	line: number;
	position: number;
	char: string;
	alphabet: (char: string) => boolean;
}

/**
 * `glyphVotes` asks "which of these two"; this asks "which of all": a name has no check digit, and
 * the recogniser, unsure, may read a letter the pixels do not show (seed 6007 #267, 2026-11-28: the
 * I of `PEWI<<` read H at 0.86 and accepted; the glyph met the document's own I's at 0.99, and they
 * met each other at 0.96). A vote is given for the character whose examples the glyph resembles
 * most, when that is not the one read, the document teaches it consistently (TAUGHT_FLOOR), the
 * glyph looks like it as its examples look like each other (TAUGHT_SHORTFALL), and, when the
 * character read has examples too, less like those (TAUGHT_LEAD). Its `margin` is 1: the vote is
 * as clear as the document can make it, and a name it contradicts stays in doubt anyway.
 */
export function taughtVotes(lines: readonly GlyphLine[], unsure: readonly UnsureGlyph[], examples: readonly GlyphExample[]): GlyphVote[] {
	if (unsure.length === 0) return [];
	const { cells, cellAt, sizeOf } = cellIndex(lines);
	const floors = new Map<string, number>();
	const votes: GlyphVote[] = [];
	for (const u of unsure) {
		const cell = cellAt(u.line, u.position);
		if (!cell) continue;
		const { width, height } = cells[u.line]!;
		const size = sizeOf(u.line);
		const byChar = new Map<string, GlyphExample[]>();
		for (const e of examples) {
			if (!u.alphabet(e.char) || sizeOf(e.line) !== size || (e.line === u.line && e.position === u.position)) continue;
			const list = byChar.get(e.char) ?? [];
			if (list.length < MAX_TAUGHT_EXAMPLES) byChar.set(e.char, [...list, e]);
		}
		const like = (e: GlyphExample) => similarity(cell, cellAt(e.line, e.position)!, width, height);
		let best = '', bestScore = -Infinity;
		const scores: Record<string, number> = {};
		for (const [ch, list] of byChar) {
			scores[ch] = Math.max(...list.map(like));
			if (ch !== u.char && scores[ch] > bestScore) (bestScore = scores[ch]), (best = ch);
		}
		const list = byChar.get(best);
		if (!list || list.length < 2) continue;
		const key = `${size}:${best}`;
		let floor = floors.get(key);
		if (floor === undefined) {
			const cellOf = (e: GlyphExample) => cellAt(e.line, e.position)!;
			floor = Math.min(...list.map((e) => Math.max(...list.filter((o) => o !== e).map((o) => similarity(cellOf(e), cellOf(o), width, height)))));
			floors.set(key, floor);
		}
		const read = scores[u.char];
		if (floor < TAUGHT_FLOOR || bestScore < floor - TAUGHT_SHORTFALL || (read !== undefined && bestScore < read + TAUGHT_LEAD)) continue;
		votes.push({ line: u.line, position: u.position, scores: { [u.char]: read ?? -1, [best]: bestScore }, verdict: best, margin: 1, shortfall: Math.max(0, floor - bestScore), taught: true });
	}
	return votes;
}

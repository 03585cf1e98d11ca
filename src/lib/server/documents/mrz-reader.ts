import { MRZ_ALPHABET } from '#lib/documents/ctc-decode.ts';
import type { Matrix3 } from '#lib/documents/homography.ts';
import { decodeMrz, fillersReadAsK, type DecodedMrz, type MrzLineScores } from '#lib/documents/mrz-decode.ts';
import { isMrzLayout } from '#lib/documents/mrz-lines.ts';
import { parseMrzLines, readMrzFromText, type MrzReading, type ParseMrzOptions } from '#lib/documents/mrz-parse.ts';
import { colouredInkShare, crop, type Quad, type Raster } from '#lib/documents/raster.ts';
import { boxesAlong, skewHypotheses } from '#lib/documents/skew.ts';
import { rotateRaster } from '#lib/documents/warp.ts';
import type { TextBox } from '#lib/documents/text-detection.ts';
import { alignBlock, fillLineGaps, flipQuad, groupTextLines, lineInBoxBelow, lineOfQuad, linesAround, oneLinePerRow, startTogether, type TextLine } from '#lib/documents/text-lines.ts';
import { MIN_FIELD_CONFIDENCE } from '#lib/documents/field-confidence.ts';
import type { OcrEngine } from './ocr-engine.ts';

export interface MrzStageTimings {
	det: number;
	rec: number;
	parse: number;
}

export interface MrzReadResult {
	reading: MrzReading | null;
	/** Text baseline angle found (degrees, positive = running down to the right). */
	skew: number;
	/** Whether the document was read upside down. */
	flipped: boolean;
	/** OCR text of the lines tried, top to bottom (for diagnostics). */
	ocrLines: string[];
	/** Text boxes the detector found (all of them: the visual zone is read from them too). */
	boxes: TextBox[];
	/** The lines read as the MRZ (image coordinates, along the text), when one was read. */
	mrzQuads: Quad[];
	/** The reading came from the look at the lines' black ink only (a coloured mark across them). */
	inkOnly: boolean;
	/** The recogniser's scores of the reading's lines, top to bottom (as `reading.lines`; empty without a reading). */
	lineScores: MrzLineScores[];
	/**
	 * The page turned level by `skew`, when the reading was made on it rather than on the image given
	 * (see LEVEL_FIRST_DEGREES): `boxes` and `mrzQuads` are then in its coordinates, and its text
	 * still runs `skew` degrees off (what is left after the turn: a fraction of a degree); `matrix`
	 * maps the image given onto it.
	 */
	levelled?: { image: Raster; skew: number; matrix: Matrix3 };
	timings: MrzStageTimings;
}

/**
 * MRZ lines are long and thin: 30–44 glyphs about 2.5 mm apart, glyphs about 2.5–3 mm tall. A line
 * right above or below such a line, starting where it starts, with glyphs as tall, is one too even
 * when short: the detector can miss a long filler run (a TD3 name line `POKIRDIYETHYE` was found
 * without its 31 fillers, 470 px against the next line's 1132) and alignBlock gives it back its length.
 */
export function mrzLikeLines(lines: readonly TextLine[]): TextLine[] {
	const widest = Math.max(0, ...lines.map((l) => l.width));
	const long = (l: TextLine) => l.width >= 0.45 * widest && l.width >= 10 * l.height && l.height > 4;
	// One line pitch away (1.3–2.5 heights: a stamp's word between two MRZ lines is closer), the left
	// edges within a glyph height, glyphs as tall.
	const besideLong = (l: TextLine, n: TextLine | undefined) => {
		if (!n || !long(n)) return false;
		const h = Math.max(n.height, l.height);
		const gap = Math.abs(n.y - l.y);
		return gap >= 1.3 * h && gap <= 2.5 * h && Math.abs(l.x0 - n.x0) <= n.height && l.height >= 0.7 * n.height && l.height <= 1.4 * n.height && l.width >= 3 * l.height;
	};
	// The next line up and down that could be of its block: an overprint merged with the line beside it
	// into one tall box (a `SPECIMEN` across a TD1 card's last two lines, 54 px high among 23-px lines,
	// standing between them in page order) is no neighbour, and must not hide the line behind it.
	const next = (i: number, step: -1 | 1) => {
		for (let j = i + step; j >= 0 && j < lines.length; j += step) if (lines[j].height <= 1.5 * lines[i].height) return lines[j];
		return undefined;
	};
	return lines.filter((l, i) => long(l) || besideLong(l, next(i, -1)) || besideLong(l, next(i, 1)));
}

const MAX_CANDIDATES = 5;
/**
 * Horizontal stretches tried in turn: ×1.5 suits crisp OCR-B (narrow glyphs get more time steps);
 * unstretched reads chevrons better on soft, low-resolution scans.
 */
const STRETCHES = [1.5, 1] as const;
/**
 * Then, when neither gave a reading whose check digits pass, unstretched in three windows cut
 * between glyphs: the recogniser loses the letters of a line that is mostly fillers (a surname alone
 * on a TD3 name line) when it sees the whole line, and reads them in a window (line-windows.ts).
 */
const READS: readonly { stretch: number; windows?: number }[] = [...STRETCHES.map((stretch) => ({ stretch })), { stretch: 1, windows: 3 }];

const score = (r: MrzReading) => r.checks.filter((c) => c.valid).length / Math.max(1, r.checks.length);
/**
 * Settled: every check passes as read. A reading whose optional data was mended to meet the
 * composite passes too, but another read setting may read it clean (a stamped TD1, seed 1 #42:
 * the first setting's reading mended, the search stopped there, and the second looks at it doubted
 * the number; the next setting read every field surely), so the search goes on and prefers that.
 */
const settled = (r: MrzReading | undefined) => !!r?.checkDigitsValid && !r.mended;
/**
 * `a` is a better decoded reading than `b`: more check digits pass; as many, and `b` was mended and
 * `a` not; else alike, and the layout fits `a`'s lines better.
 */
function outranks(a: Constrained, b: Constrained): boolean {
	if (score(a.reading) !== score(b.reading)) return score(a.reading) > score(b.reading);
	if (!a.reading.mended !== !b.reading.mended) return !a.reading.mended;
	return a.logLikelihood > b.logLikelihood;
}

/** A line shorter than this (as read greedily) is not worth a constrained decode as MRZ (the shortest is 30). */
const MIN_MRZ_TEXT = 24;

interface Constrained {
	reading: MrzReading;
	logLikelihood: number;
	/** The lines' recogniser scores it was decoded from, top to bottom. */
	scores: MrzLineScores[];
}

/**
 * Constrained decoding of the MRZ windows that start at the newest (topmost) line read: two lines
 * (TD2/TD3/MRV) and three (TD1). The layout comes from the probabilities, not from the greedy text.
 * `textChecked`: the greedy text of these lines parsed as an MRZ whose every check digit passes.
 */
function decodeTopWindows(scores: readonly (MrzLineScores | undefined)[], texts: readonly string[], options: ParseMrzOptions, textChecked = false): Constrained | null {
	let best: Constrained | null = null;
	for (const count of [2, 3]) {
		// Nearly every MRZ has a filler run somewhere; header text above a card's MRZ has none. One whose
		// fields are all full has none either, and its greedy text passing every check digit says it is
		// an MRZ: seed 6262 #291 (2026-12-06), a TD1 with a 9-glyph number, full optional data and a
		// 30-glyph name, `NEQUNESU<SUGUHOBIJO<MASKSAIOSK`, was left to the text reading alone, which
		// takes a name's last K for a filler read as K (`MASKSAIOS<`): refused as uncertain, and
		// passed wrong when a second photo read the same.
		if (scores.length < count || texts.slice(0, count).some((t) => t.length < MIN_MRZ_TEXT) || !(textChecked || texts.slice(0, count).some((t) => t.includes('<<')))) continue;
		const window = scores.slice(0, count).filter((s) => s !== undefined);
		if (window.length < count) continue;
		const decoded = decodeMrz(window, { readLengths: texts.slice(0, count).map((t) => t.length) });
		const reading = decoded && readingOf(decoded, options);
		if (!reading) continue;
		const candidate = { reading, logLikelihood: decoded.logLikelihood / count, scores: window };
		if (!best || outranks(candidate, best)) best = candidate;
	}
	return best;
}

/**
 * Reads the MRZ of a (perspective-corrected where possible) document image: detects text, takes
 * the text direction of the page's longest line (the MRZ band), merges the boxes that run along it
 * into lines, recognises the long thin lines with the MRZ alphabet (crop stretched ×1.5), then
 * finds and parses the MRZ group. Tries the page upside down when the first pass finds none, and
 * the next text direction when the first gave no reading whose check digits pass. A page held a few
 * degrees off level is read turned level first (LEVEL_FIRST_DEGREES).
 */
export async function readMrz(engine: OcrEngine, image: Raster, options: MrzReadOptions = {}): Promise<MrzReadResult> {
	const t = performance.now();
	const boxes: TextBox[] = await engine.detect(image);
	const det = performance.now() - t;
	const skew = skewHypotheses(boxes)[0] ?? 0;
	if (Math.abs(skew) < LEVEL_FIRST_DEGREES || Math.abs(skew) > LEVEL_AT_MOST_DEGREES) return readAsGiven(engine, image, options, boxes, det);
	// Turned level, the page's lines are read from upright crops, boxed by a detector that sees them
	// level. A reading in doubt there is read along the slant as well, and the surer one kept; a field
	// the two read differently where the other was sure of it is in doubt, as with the ink look.
	const { raster, matrix } = rotateRaster(image, skew, { expand: true, fill: [255, 255, 255] });
	const level = await readAsGiven(engine, raster, { ...options, rectified: false }, undefined, 0);
	level.timings.det += det;
	const levelled = (r: MrzReadResult): MrzReadResult => ({ ...r, skew: skew + r.skew, levelled: { image: raster, skew: r.skew, matrix } });
	if (level.reading?.checkDigitsValid && !isInDoubt(level.reading)) return levelled(level);
	const slanted = await readAsGiven(engine, image, options, boxes, 0);
	for (const k of ['det', 'rec', 'parse'] as const) slanted.timings[k] += level.timings[k];
	if (!level.reading) return slanted;
	level.timings = slanted.timings;
	if (!slanted.reading) return levelled(level);
	if (readsSurer(level.reading, slanted.reading)) {
		level.reading.fieldConfidence = crossedConfidence(level.reading, slanted.reading);
		return levelled(level);
	}
	slanted.reading.fieldConfidence = crossedConfidence(slanted.reading, level.reading);
	return slanted;
}

/**
 * A page whose text runs at least this many degrees off level is read turned level. Read along
 * their slant, the lines' crops follow boxes merged from the detector's pieces: at −10° a passport's
 * name line lost its fillers at the right end to the line below (`SARAH<SS<S<I<S<S<SSIII…`), and
 * read level it was exact. Below a few degrees a crop holds the line's glyphs whole.
 */
const LEVEL_FIRST_DEGREES = 3;
/**
 * A hand's slant, not a quarter turn: text running further off is read along its direction as
 * before. It may be a facing page's columns, found first, where the MRZ is the next direction
 * (readAsGiven); turning the page to them would stand the MRZ on end.
 */
const LEVEL_AT_MOST_DEGREES = 30;

/** Some row of the page's text along `skew` holds print far apart (text-lines.ts ROW_GAP_HEIGHTS). */
function rowsSplit(boxes: readonly TextBox[], skew: number): boolean {
	const along = boxesAlong(boxes, skew);
	return groupTextLines(along, skew, { splitRows: true }).length !== groupTextLines(along, skew).length;
}

/** The reading's errors other than failing check digits: fields that hold no valid value. */
export const invalidFields = (r: MrzReading) => r.errors.filter((e) => !e.includes('check digit')).length;

/** readMrz on the image as it is, from the text boxes found on it (detected here when not given). */
async function readAsGiven(engine: OcrEngine, image: Raster, options: MrzReadOptions, found: TextBox[] | undefined, det: number): Promise<MrzReadResult> {
	const timings: MrzStageTimings = { det, rec: 0, parse: 0 };
	const t = performance.now();
	const boxes: TextBox[] = found ?? (await engine.detect(image));
	timings.det += performance.now() - t;
	const directions = skewHypotheses(boxes);
	let result: MrzReadResult | null = null;
	for (const skew of directions.length ? directions.slice(0, MAX_DIRECTIONS) : [0]) {
		let attempt = await readAlong(engine, image, boxes, skew, options, timings);
		// Nothing that checks out (a check digit fails, or a field is no valid value): the rows read
		// again split where far apart (text-lines.ts ROW_GAP_HEIGHTS), a card's front side by side with
		// its back; kept when more check digits pass, or as many with fewer invalid fields.
		// Only where a row does split: a page with nothing far apart (most, and every barcode-only one)
		// is not read twice.
		if ((!attempt.reading?.checkDigitsValid || invalidFields(attempt.reading) > 0) && rowsSplit(boxes, skew)) {
			const split = await readAlong(engine, image, boxes, skew, options, timings, { splitRows: true });
			if (split.reading && (!attempt.reading || score(split.reading) > score(attempt.reading) || (score(split.reading) === score(attempt.reading) && invalidFields(split.reading) < invalidFields(attempt.reading)))) attempt = split;
		}
		// A reading whose check digits pass ends the search. Otherwise the next direction is read too
		// and the reading with more passing check digits kept (the first on a tie): a facing page's
		// columns of text, boxed whole while the MRZ came in pieces, are tried first, and once they
		// were decoded into a TD1 of which three check digits of four passed by chance, which stood.
		if (!result || (attempt.reading && (!result.reading || score(attempt.reading) > score(result.reading)))) result = attempt;
		if (attempt.reading?.checkDigitsValid) break;
	}
	return result!;
}

/**
 * The line an MRZ block can be seated on when one read as an MRZ line: of those that read at least
 * 30 MRZ characters (what else a page prints reads far shorter in that alphabet), the lowest whose
 * box is not much taller than the thinnest of them (a line merged with an overprint stands twice as
 * tall).
 * A phone photo of a passport turned 20° read its number line whole (`PA09404097AUS…P<<<<08`) while
 * the name line above was not found; the page's thinner printed lines above would have been taken by
 * their height.
 */
function mrzReadLine(candidates: readonly TextLine[], readAs: ReadonlyMap<TextLine, string>): TextLine | null {
	// As long as the shortest MRZ line; no filler needed (a TD3 number line with a full personal number has none).
	return lowestNotTall(candidates.filter((l) => (readAs.get(l)?.length ?? 0) >= 30));
}

/** The lowest of `lines` no taller than the thinnest of them by more than a third (null: none). */
function lowestNotTall(lines: readonly TextLine[]): TextLine | null {
	if (lines.length === 0) return null;
	const thinnest = Math.min(...lines.map((l) => l.height));
	return lines.filter((l) => l.height <= 1.35 * thinnest).at(-1) ?? null;
}

/**
 * Else the line an MRZ block can be seated on: the lowest candidate no taller than its thinnest fellow
 * by more than a third (a line merged with an overprint stands twice as tall), long enough to be
 * one. Null when there is no candidate.
 */
function cleanLine(candidates: readonly TextLine[]): TextLine | null {
	if (candidates.length === 0) return null;
	const thinnest = Math.min(...candidates.map((l) => l.height));
	const clean = candidates.filter((l) => l.height <= 1.35 * thinnest && l.width >= 10 * l.height);
	return clean.at(-1) ?? null;
}

/** Line pitches (in line heights) tried when seating an MRZ block on one line: MRZ lines stand 1.7–2.2 glyph heights apart. */
const SEAT_PITCHES = [1.9, 1.5, 1.2] as const;

/** Directions tried at most: the MRZ band's, then one other (a facing page, a photo turned 90°). */
const MAX_DIRECTIONS = 2;

async function readAlong(engine: OcrEngine, image: Raster, boxes: TextBox[], skew: number, options: MrzReadOptions, timings: MrzStageTimings, grouping: { splitRows?: boolean } = {}): Promise<MrzReadResult> {
	let t = performance.now();
	// Only text running along the MRZ band: a facing page's vertical text would bend the lines.
	const lines = groupTextLines(boxesAlong(boxes, skew), skew, grouping);
	// The MRZ sits at the bottom: try the lowest long lines first, keep page order for grouping.
	const rows = oneLinePerRow(mrzLikeLines(lines));
	const own = lineInBoxBelow(fillLineGaps(rows.slice(-MAX_CANDIDATES)), lines);
	const candidates = alignBlock(own);
	// Upside down, the MRZ is at the top of the image: the highest long lines. The lowest missed it on a
	// passport page held upside down (its visual zone's five lines filled them: nothing read), where
	// a card, with fewer lines, read.
	const upsideDown = alignBlock(fillLineGaps(rows.slice(0, MAX_CANDIDATES)));
	timings.parse += performance.now() - t;
	const result: MrzReadResult = { reading: null, skew, flipped: false, ocrLines: [], boxes, mrzQuads: [], inkOnly: false, lineScores: [], timings };
	type Pass = { flipped: boolean; texts: string[]; quads: Quad[]; read: (typeof READS)[number]; inkOnly?: boolean };
	// Kept in one object: the readings are found inside readLines (a closure), where narrowing cannot follow them.
	const found: { best: ({ reading: MrzReading } & Pass) | null; constrained: (Constrained & Pass) | null } = { best: null, constrained: null };
	let lastTexts: string[] = [];
	let sawFiller = false;
	// What each line read the first time (upright), to find the block's one MRZ line if a pass fails.
	const readAs = new Map<TextLine, string>();
	/** Reads `ordered` (page order) upwards from its bottom line, one read setting, keeping the best readings. */
	const readLines = async (ordered: readonly TextLine[], flipped: boolean, { stretch, windows }: (typeof READS)[number]) => {
		const texts: string[] = [];
		const quads: Quad[] = [];
		const scores: (MrzLineScores | undefined)[] = [];
		// Lines read that the detector found: a line put where one must be (`fillLineGaps`,
		// `lineInBoxBelow`: boxes 0) is a guess, not print seen, and does not count towards giving up.
		let seen = 0;
		// The MRZ is at the bottom of the page: read upwards and stop as soon as a group checks out.
		for (let i = ordered.length - 1; i >= 0; i--) {
			const quad = flipped ? flipQuad(ordered[i].quad) : ordered[i].quad;
			t = performance.now();
			const { text, mrzScores } = await engine.recognize(image, quad, { alphabet: MRZ_ALPHABET, stretch, windows });
			timings.rec += performance.now() - t;
			if (!flipped && !readAs.has(ordered[i])) readAs.set(ordered[i], text);
			texts.unshift(text);
			quads.unshift(quad);
			scores.unshift(mrzScores);
			if (text.includes('<<')) sawFiller = true;
			if (ordered[i].boxes > 0) seen++;
			// Every MRZ has filler runs; three lines without one mean this is not the MRZ end of the page.
			// Three found lines: a visa's two lines of print below its MRZ, 19 px apart, made the line
			// put between them and the MRZ (1.84 of that spacing) the third (fixture visa_mrvb_pol_1).
			if (seen >= 3 && !texts.some((x) => x.includes('<<'))) break;
			if (texts.length < 2) continue;
			t = performance.now();
			const reading = readMrzFromText(texts, options);
			const constrained = options.constrained === false ? null : decodeTopWindows(scores, texts, options, !!reading?.checkDigitsValid);
			timings.parse += performance.now() - t;
			if (reading && (!found.best || score(reading) > score(found.best.reading))) found.best = { reading, flipped, texts: texts.slice(), quads: quads.slice(), read: { stretch, windows } };
			if (constrained && (!found.constrained || outranks(constrained, found.constrained))) {
				found.constrained = { ...constrained, flipped, texts: texts.slice(), quads: quads.slice(), read: { stretch, windows } };
			}
			if (constrained?.reading.checkDigitsValid || reading?.checkDigitsValid) break;
		}
		lastTexts = texts;
	};
	const checked = () => !!(found.constrained?.reading.checkDigitsValid || found.best?.reading.checkDigitsValid);
	for (const flipped of [false, true]) {
		// Upside down only when nothing read the right way up even looked like an MRZ.
		if (flipped && sawFiller) break;
		// Page order top to bottom; upside down, the image's top line is the page's bottom line.
		const ordered = flipped ? upsideDown.slice().reverse() : candidates;
		// Upside-down pages are rare: one stretch is enough to notice one.
		for (const read of flipped ? READS.slice(0, 1) : READS) {
			await readLines(ordered, flipped, read);
			if (settled(found.constrained?.reading)) break;
		}
		if (found.best || found.constrained) break;
	}
	// Nothing read as an MRZ at all: the block seated on its one clean line, where the detector lost
	// or merged the others (an overprint across a line), read the usual two ways. Not when a reading
	// only failed its check digits: seated crops then traded a failing number for a passing misread
	// elsewhere (seed 909 #42, a stamped TD1), which a retake would have confirmed.
	const mrzLine = found.best || found.constrained ? null : mrzReadLine(candidates, readAs);
	const anchor = found.best || found.constrained ? null : (mrzLine ?? cleanLine(candidates));
	if (anchor) {
		// A line read as MRZ is worth more tries: its box can be taller than its glyphs (a page turned
		// 20°: a box 48 px across for glyphs 30 high), which puts one pitch too far.
		const pitches = mrzLine ? SEAT_PITCHES : SEAT_PITCHES.slice(0, 1);
		seating: for (const pitch of pitches) {
			const seated = linesAround(anchor, 2, 2, { pitch }).filter((l) => l === anchor || (l.y > 0 && l.y < image.height));
			for (const read of READS.slice(0, 2)) {
				await readLines(seated, false, read);
				if (checked()) break seating;
			}
		}
	}
	// Two lines decoded 36 long on a page they leave a wide margin of: a passport's or visa's 44-long
	// lines boxed short of their trailing fillers (seed 1 #91, a clean visa read as MRV-B). Read again
	// to near the page's edge; kept when that decodes 44 long with as many check digits passing.
	if (options.rectified && found.constrained && isShortOfPage(found.constrained, image)) {
		const longer = await readToPageEdge(engine, image, found.constrained, options, timings);
		if (longer && score(longer.reading) >= score(found.constrained.reading)) found.constrained = longer;
	}
	// Lines decoded longer than they were read: their boxes stop short of the MRZ's end, and the
	// decoder stretched what it saw to the layout's length. Read again, carried on along the line.
	if (found.constrained && cutShort(found.constrained)) {
		// Only a better reading: a line read short for other reasons (fillers over a guilloche read as
		// letters, run together) is no shorter on the page, and read again it merely reads otherwise.
		const longer = await readBeyond(engine, image, found.constrained, options, timings);
		if (longer && outranks(longer, found.constrained)) found.constrained = longer;
	}
	// Lines that start apart: print beside the MRZ in its row was read into the lines that start
	// further left (a card's front scanned beside its back: the UK residence permit's `S Sample`
	// signature, the Serbian card's `Test`). Read again from where the last of them starts. Clean
	// readings too: a name has no check digit, and the glyphs beside it are decoded into it.
	if (found.constrained && !found.constrained.flipped) {
		const together = await readStartingTogether(engine, image, found.constrained, own, options, timings);
		// Kept on as many passing check digits and valid fields, whatever the likelihoods: the glyphs
		// beside a line make its decoding likelier, not worse (a generated card with five glyphs pasted
		// before its name line: ROROLE<<U… at −2.8 a line against the exact OLYE<<UN… at −5.1). A cut
		// through a line's own first glyphs fails their check digits and is not kept.
		if (together && score(together.reading) >= score(found.constrained.reading) && invalidFields(together.reading) <= invalidFields(found.constrained.reading)) found.constrained = together;
	}
	// A decoded reading in doubt (a field below MIN_FIELD_CONFIDENCE, or a failing check digit): its
	// lines are read again the other ways and the looks decoded together (mrz-decode.ts fuseViews).
	if (found.constrained && (!found.constrained.reading.checkDigitsValid || isInDoubt(found.constrained.reading))) {
		const again = await secondLooks(engine, image, found.constrained, options, timings);
		if (again && score(again.reading) >= score(found.constrained.reading)) {
			keepLookalikeDoubt(again.reading, found.constrained.reading);
			found.constrained = { ...found.constrained, ...again };
		}
	}
	// Still in doubt: the same lines read in their black ink only, where a coloured stamp or overprint
	// across them fades (raster.ts inkOnly), decoded on their own; kept when they read surer. Still in
	// doubt after that: read in luma, kept when surer where it reads otherwise (unliftedConfidence: a
	// field read alike is no surer for it, the same pixels with their colour dropped). A tint in the
	// glyphs themselves (a Czech passport photographed with its MRZ in iridescent greens and browns)
	// made its name line's fillers K, S and C in colour, and fillers again in luma; black ink only
	// lifted the tinted glyphs away with the tint.
	const inDoubt = (f: Found) => !f.reading.checkDigitsValid || isInDoubt(f.reading);
	if (found.constrained && inDoubt(found.constrained)) {
		found.constrained = await surerLook(engine, image, found.constrained, { inkOnly: true }, crossedConfidence, options, timings);
		if (inDoubt(found.constrained)) found.constrained = await surerLook(engine, image, found.constrained, { grey: true }, unliftedConfidence, options, timings);
	}
	// Sure, but under coloured ink (a stamp, an overprint): the stroke across a glyph can make it another
	// one the recogniser is sure of, where no check digit looks (seed 5503 #367: a stamp's stroke gave
	// an O in a surname the tail of a Q, read at 0.83 and passed). Read in black ink only, that glyph
	// is itself again, and a field the two looks read surely and differently is in doubt. One read
	// setting: on 232 stamped and overprinted documents of two seeds all of them vetoed the same
	// fields, at twice the time.
	else if (found.constrained && colouredShare(image, found.constrained.quads.slice(0, found.constrained.scores.length)) >= MARKED_SHARE) {
		const ink = await looksIn(engine, image, found.constrained, { inkOnly: true }, options, timings, READS.slice(0, 1));
		if (ink) {
			found.constrained.reading.fieldConfidence = contradictedConfidence(found.constrained.reading, ink.reading);
			keepLookalikeDoubt(found.constrained.reading, ink.reading);
		}
	}
	result.ocrLines = lastTexts;
	// The probability-decoded reading when it checks out (it carries field confidences; on the
	// generated set, which neither reader was tuned on, it read 74 % exactly against 68 % for the text
	// reading). A text reading whose check digits also pass vouches for it field by field: a field
	// the two checked readings disagree on gets confidence 0, so a misread that the check digits
	// cannot see is not passed silently. The text reading alone when only it checks out (then
	// vouched for the same way by the constrained decoding, where there is one); neither: the one
	// with more matching check digits (the constrained one on a tie).
	const vouch = (target: MrzReading, other: MrzReading | undefined) => {
		const conf = target.fieldConfidence ?? other?.fieldConfidence;
		if (conf && other && !differsOnlyWhereSeen(target, other)) target.fieldConfidence = vouchedConfidence(conf, target, other);
	};
	let chosen: typeof found.best;
	if (found.constrained?.reading.checkDigitsValid) {
		chosen = found.constrained;
		if (found.best?.reading.checkDigitsValid) vouch(found.constrained.reading, found.best.reading);
	} else if (found.best?.reading.checkDigitsValid) {
		chosen = found.best;
		if (found.constrained) vouch(found.best.reading, found.constrained.reading);
	} else {
		chosen = found.constrained && (!found.best || score(found.constrained.reading) >= score(found.best.reading)) ? found.constrained : found.best;
	}
	if (chosen) {
		result.reading = chosen.reading;
		result.flipped = chosen.flipped;
		result.ocrLines = chosen.texts;
		result.mrzQuads = chosen.quads;
		result.inkOnly = !!chosen.inkOnly;
		result.lineScores = 'scores' in chosen ? (chosen.scores as MrzLineScores[]) : [];
	}
	return result;
}

export interface MrzReadOptions extends ParseMrzOptions {
	/** false: the greedy text reader only (evaluation of the reader before constrained decoding). */
	constrained?: boolean;
	/** The image is the document itself, rectified from its outline (its edges are the page's). */
	rectified?: boolean;
}

type Found = Constrained & { flipped: boolean; texts: string[]; quads: Quad[]; read: (typeof READS)[number]; inkOnly?: boolean };

/**
 * A TD2/MRV-B line (36) ends 6–8 % of its card's width from the edge; a TD3/MRV-A line (44) boxed
 * 36 long ends a fifth of the page's width or more from it.
 */
const SHORT_OF_PAGE = 0.15;
/** How far from the page's edge the longer crop ends (a card's margin is wider than this). */
const PAGE_MARGIN = 0.02;

function isShortOfPage(found: Found, image: Raster): boolean {
	if (found.scores.length !== 2 || found.reading.lines[0]?.length !== 36) return false;
	return found.quads.slice(0, 2).every((q) => distanceToEdge(q, image) > SHORT_OF_PAGE * image.width);
}

/** The unit vector of the line's text direction (top-left to top-right corner, whichever way up it was read). */
function textDirection([a, b]: Quad): [number, number] {
	const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
	return [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
}

/** How far the line's end is from the image's edge, along its text direction. */
function distanceToEdge(quad: Quad, image: Raster): number {
	const b = quad[1];
	const [dx, dy] = textDirection(quad);
	// Along (dx, dy) from the end corner to the first image edge.
	const tx = dx > 1e-6 ? (image.width - b[0]) / dx : dx < -1e-6 ? -b[0] / dx : Infinity;
	const ty = dy > 1e-6 ? (image.height - b[1]) / dy : dy < -1e-6 ? -b[1] / dy : Infinity;
	return Math.max(0, Math.min(tx, ty));
}

/** The quad carried on along its text direction to PAGE_MARGIN of the image's edge. */
function toPageEdge(quad: Quad, image: Raster): Quad {
	const [a, b, c, d] = quad;
	const [dx, dy] = textDirection(quad);
	const by = Math.max(0, distanceToEdge(quad, image) - PAGE_MARGIN * image.width);
	return [a, [b[0] + dx * by, b[1] + dy * by], [c[0] + dx * by, c[1] + dy * by], d];
}

async function readToPageEdge(engine: OcrEngine, image: Raster, found: Found, options: ParseMrzOptions, timings: MrzStageTimings): Promise<Found | null> {
	const quads = found.quads.slice(0, 2).map((q) => toPageEdge(q, image));
	const read = READS[0];
	const looked = await readQuads(engine, image, quads, read, timings);
	if (!looked) return null;
	const { scores, texts } = looked;
	const t = performance.now();
	try {
		const decoded = decodeMrz(scores, { readLengths: texts.map((x) => x.length) });
		if (decoded?.lines[0].length !== 44) return null;
		const reading = readingOf(decoded, options);
		return reading && { reading, logLikelihood: decoded.logLikelihood / 2, scores, flipped: found.flipped, texts, quads, read };
	} finally {
		timings.parse += performance.now() - t;
	}
}

/**
 * Glyphs the decoder may give a line beyond what the recogniser read greedily before the line counts
 * as cut short. A photographed Czech specimen (DoubangoTelecom/ultimateMRZ-SDK's sample, 2026-12-01)
 * prints its MRZ's right end in a green and brown tint the detector does not box: both lines were
 * found 34 and 36 glyphs long, and a passport's P made them a TD3, decoded 44 long from 36 glyphs'
 * worth of steps — `F11100906641111552222111` for `F16090641152291111<<<<24`, with 4 of 5 check
 * digits passing. Lost or doubled glyphs of a line boxed whole differ by one or two.
 */
const CUT_SHORT_GLYPHS = 4;

/** The decoded lines are longer than they were read by CUT_SHORT_GLYPHS or more. */
function cutShort(found: Found): boolean {
	return found.reading.lines.some((line, i) => line.length - (found.texts[i]?.length ?? line.length) >= CUT_SHORT_GLYPHS);
}

/** The quad carried on along its text direction by `by` pixels, within the image. */
function carriedOn(quad: Quad, image: Raster, by: number): Quad {
	const [a, b, c, d] = quad;
	const [dx, dy] = textDirection(quad);
	const on = Math.min(by, distanceToEdge(quad, image));
	return [a, [b[0] + dx * on, b[1] + dy * on], [c[0] + dx * on, c[1] + dy * on], d];
}

/**
 * The lines of a reading that was cut short (cutShort) read again carried on past their ends by the
 * glyphs they lack and two more, at the glyph pitch they were read at. Not back before their starts:
 * carried a glyph back into the margin, the Czech name line was decoded with an L put before its P.
 * Kept only when the lines now read within CUT_SHORT_GLYPHS of the decoded length: a line that still
 * reads short was not cut off but is another line.
 */
async function readBeyond(engine: OcrEngine, image: Raster, found: Found, options: ParseMrzOptions, timings: MrzStageTimings): Promise<Found | null> {
	const count = found.scores.length;
	const quads = found.quads.slice(0, count).map((q, i) => {
		const read = Math.max(1, found.texts[i].length);
		const pitch = Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]) / read;
		return carriedOn(q, image, (found.reading.lines[i].length - read + 2) * pitch);
	});
	let best: Found | null = null;
	// Both stretches: the tint that hid the glyphs from the detector reads differently in each.
	for (const read of READS.slice(0, 2)) {
		const looked = await readQuads(engine, image, quads, read, timings);
		if (!looked) continue;
		const { scores, texts } = looked;
		const t = performance.now();
		const decoded = decodeMrz(scores, { readLengths: texts.map((x) => x.length) });
		const reading = decoded && readingOf(decoded, options);
		timings.parse += performance.now() - t;
		if (!decoded || !reading || decoded.lines.some((line, i) => line.length - texts[i].length >= CUT_SHORT_GLYPHS)) continue;
		const candidate = { reading, logLikelihood: decoded.logLikelihood / count, scores, flipped: found.flipped, texts, quads, read };
		if (!best || outranks(candidate, best)) best = candidate;
		if (settled(reading) && !isInDoubt(reading)) break;
	}
	return best;
}

/**
 * The lines read for a reading (its window and the lines below it: a TD1 decoded as the TD2 of its
 * top two lines) read again from where the last of them starts as found (text-lines.ts
 * startTogether; `found` are the page's lines as the detector gave them, before alignBlock carried
 * them to their neighbours' reach), when they start apart, and decoded in every window of two and
 * three. Null when the lines start together or nothing decodes.
 */
async function readStartingTogether(engine: OcrEngine, image: Raster, reading: Found, found: readonly TextLine[], options: ParseMrzOptions, timings: MrzStageTimings): Promise<Found | null> {
	// Only the rows read as MRZ lines set the start: not a line of other print read below the block.
	const cut = startTogether(
		reading.quads.map(lineOfQuad),
		found,
		reading.texts.map((t) => t.length >= MIN_MRZ_TEXT)
	);
	if (!cut) return null;
	const quads = cut.map((l) => l.quad);
	let best: Found | null = null;
	for (const read of READS.slice(0, 2)) {
		const looked = await readQuads(engine, image, quads, read, timings);
		if (!looked) continue;
		const t = performance.now();
		for (let start = 0; start < quads.length - 1; start++) {
			const window = { scores: looked.scores.slice(start), texts: looked.texts.slice(start) };
			const decoded = decodeTopWindows(window.scores, window.texts, options);
			if (decoded && (!best || outranks(decoded, best))) best = { ...decoded, flipped: reading.flipped, texts: window.texts, quads: quads.slice(start), read };
		}
		timings.parse += performance.now() - t;
		if (best && settled(best.reading) && !isInDoubt(best.reading)) break;
	}
	return best;
}

/** The lines recognised with one read setting (MRZ alphabet); null when one gave no scores. */
async function readQuads(engine: OcrEngine, image: Raster, quads: readonly Quad[], read: (typeof READS)[number] & { inkOnly?: boolean; grey?: boolean }, timings: MrzStageTimings): Promise<{ scores: MrzLineScores[]; texts: string[] } | null> {
	const t = performance.now();
	const scores: MrzLineScores[] = [];
	const texts: string[] = [];
	try {
		for (const quad of quads) {
			const { text, mrzScores } = await engine.recognize(image, quad, { alphabet: MRZ_ALPHABET, ...read });
			if (!mrzScores) return null;
			scores.push(mrzScores);
			texts.push(text);
		}
		return { scores, texts };
	} finally {
		timings.rec += performance.now() - t;
	}
}

/** The decoded lines parsed, with the decoder's confidences; null when they do not parse. */
function readingOf(decoded: DecodedMrz, options: ParseMrzOptions): MrzReading | null {
	try {
		return Object.assign(parseMrzLines(decoded.lines, options), { fieldConfidence: decoded.fieldConfidence, lookalikeDoubt: decoded.lookalikeDoubt, seen: decoded.seen }, decoded.mended ? { mended: true } : {});
	} catch {
		return null;
	}
}

/**
 * The share of coloured ink around the MRZ's lines from which a mark crosses them: inkOnly's own
 * floor for fitting a lift. On the generated set the box around the lines held none on clean,
 * guilloche, glare, noisy and front-text pages, 0.1–3.4 % with a stamp placed near them, 9–22 % under
 * a SPECIMEN overprint.
 */
const MARKED_SHARE = 0.01;

/** The share of coloured ink (raster.ts colouredInkShare) in the box around the MRZ's lines. */
function colouredShare(image: Raster, quads: readonly Quad[]): number {
	const xs = quads.flatMap((q) => q.map(([px]) => px));
	const ys = quads.flatMap((q) => q.map(([, py]) => py));
	const x = Math.min(...xs), y = Math.min(...ys);
	return colouredInkShare(crop(image, x, y, Math.max(...xs) - x, Math.max(...ys) - y));
}

/** Some field of the reading is less sure than a reading may pass with (its check digits aside). */
export function isInDoubt(reading: MrzReading): boolean {
	return Object.values(reading.fieldConfidence ?? {}).some((p) => p < MIN_FIELD_CONFIDENCE);
}

/**
 * The reading's lines read with every other read setting, decoded together with the first look.
 * Null when the looks fit no layout or the result does not parse.
 */
async function secondLooks(engine: OcrEngine, image: Raster, first: Found, options: ParseMrzOptions, timings: MrzStageTimings): Promise<Constrained | null> {
	// The decoded window is the top lines of those read (two of three read when a TD3 sat above a line of print).
	const quads = first.quads.slice(0, first.scores.length);
	const views: MrzLineScores[][] = [];
	for (const read of READS) {
		if (read.stretch === first.read.stretch && read.windows === first.read.windows) continue;
		const looked = await readQuads(engine, image, quads, read, timings);
		if (looked) views.push(looked.scores);
	}
	if (views.length === 0) return null;
	return decodeLooks(first, views, options, timings);
}

/** One look's lines decoded with the other looks as its views (mrz-decode.ts fuseViews); null when nothing decodes or parses. */
function decodeLooks(main: { scores: MrzLineScores[]; texts: string[] }, views: MrzLineScores[][], options: ParseMrzOptions, timings: MrzStageTimings): Constrained | null {
	const lines = main.scores.length;
	const t = performance.now();
	try {
		const decoded = decodeMrz(main.scores, { readLengths: main.texts.slice(0, lines).map((x) => x.length), views });
		if (!decoded) return null;
		const reading = readingOf(decoded, options);
		return reading && { reading, logLikelihood: decoded.logLikelihood / lines, scores: main.scores };
	} finally {
		timings.parse += performance.now() - t;
	}
}

/**
 * The reading's lines read in black ink only (`look` inkOnly) or in luma (`look` grey) with each of
 * `reads` (every read setting unless told), the first decoded with the others as its views (as
 * secondLooks). Null when a look gave no scores or nothing decodes.
 */
async function looksIn(engine: OcrEngine, image: Raster, first: Found, look: { inkOnly: true } | { grey: true }, options: ParseMrzOptions, timings: MrzStageTimings, reads: readonly (typeof READS)[number][] = READS): Promise<Constrained & { texts: string[] } | null> {
	const quads = first.quads.slice(0, first.scores.length);
	const looks: { scores: MrzLineScores[]; texts: string[] }[] = [];
	for (const read of reads) {
		const looked = await readQuads(engine, image, quads, { ...read, ...look }, timings);
		if (looked) looks.push(looked);
	}
	if (looks.length === 0) return null;
	const [main, ...views] = looks;
	const decoded = decodeLooks(main, views.map((v) => v.scores), options, timings);
	return decoded && { ...decoded, texts: main.texts };
}

/**
 * `found`, or its lines read again in `look` (looksIn) when that reads surer (readsSurer,
 * asSureButLikelier), with `confidence` of the look against `found` and found's look-alike doubts kept.
 */
async function surerLook(
	engine: OcrEngine,
	image: Raster,
	found: Found,
	look: { inkOnly: true } | { grey: true },
	confidence: (look: MrzReading, earlier: MrzReading) => MrzReading['fieldConfidence'],
	options: ParseMrzOptions,
	timings: MrzStageTimings
): Promise<Found> {
	const again = await looksIn(engine, image, found, look, options, timings);
	if (!again) return found;
	again.reading.fieldConfidence = confidence(again.reading, found.reading);
	if (!readsSurer(again.reading, found.reading) && !asSureButLikelier(again.reading, found.reading)) return found;
	keepLookalikeDoubt(again.reading, found.reading);
	return { ...found, ...again, inkOnly: 'inkOnly' in look };
}

/**
 * `a` is surer than `b`: as many check digits pass and fewer fields are in doubt, or more pass and
 * no field is in doubt. A search over a line's probabilities can make check digits pass on text that
 * is no MRZ at all: a facing page's columns, read first, decoded with three of four passing; their
 * ink look decoded with four, which ended the search there (seed 4242 #12), unsure of 9 fields of 10.
 */
export function readsSurer(a: MrzReading, b: MrzReading): boolean {
	if (score(a) !== score(b)) return score(a) > score(b) && doubtedFields(a) === 0;
	return doubtedFields(a) < doubtedFields(b);
}

/**
 * The black-ink look `ink` is as sure as the `first` look at the same crops (as many check digits
 * passing, as many fields in doubt, some) and more likely right as a whole: the product of its field
 * confidences. Under a SPECIMEN overprint the ink look read a given name right at 0.49 where the first
 * look, its letters crossed by the red ones, had read `KSENIAA<ALLE` at 0.19 (seed 2026 #236); both
 * were refused, but a retake read the same and would have passed the wrong one. Not for the level
 * and slanted readings of a turned page: those come from different crops, and their confidences
 * carry the vetoes (0) of text readings that disagreed, so a product says which was vetoed, not
 * which is likelier; there it turned two right readings of the 31 photographed specimens turned 5°
 * into wrong ones (refused either way).
 */
function asSureButLikelier(ink: MrzReading, first: MrzReading): boolean {
	const doubts = doubtedFields(ink);
	return score(ink) === score(first) && doubts > 0 && doubts === doubtedFields(first) && wholeConfidence(ink) > wholeConfidence(first);
}

/**
 * Keeps in `kept` the look-alike doubt (mrz-decode.ts `hiddenLookalikeSwap`) another look raised on
 * a field both read alike. Only the pixels' votes settle such a doubt; a look that read the field the
 * same way without them (fused looks are decoded from the recogniser's scores, and their votes can
 * be missing altogether) did not settle it. Seed 1212 #223 (2026-11-29): `WIVU21OO0` under `SPECIMEN`
 * read `WIVU21000`, doubted by the first look and the black-ink look, both of whose votes found the
 * two 0's unlike the page's others; the fused second look, with no votes, was sure, replaced the
 * first, and the number was accepted wrong.
 */
export function keepLookalikeDoubt(kept: MrzReading, other: MrzReading): void {
	if (!kept.fieldConfidence || !other.lookalikeDoubt?.length) return;
	const conf = { ...kept.fieldConfidence };
	const mine = kept.fields as Record<string, unknown>;
	const theirs = other.fields as Record<string, unknown>;
	const theirConf: Record<string, number | undefined> = other.fieldConfidence ?? {};
	for (const f of other.lookalikeDoubt) {
		if (conf[f] === undefined || mine[f] !== theirs[f]) continue;
		conf[f] = Math.min(conf[f]!, theirConf[f] ?? conf[f]!);
		if (!kept.lookalikeDoubt?.includes(f)) kept.lookalikeDoubt = [...(kept.lookalikeDoubt ?? []), f];
	}
	kept.fieldConfidence = conf;
}

const doubtedFields = (r: MrzReading) => Object.values(r.fieldConfidence ?? {}).filter((p) => p < MIN_FIELD_CONFIDENCE).length;
const wholeConfidence = (r: MrzReading) => Object.values(r.fieldConfidence ?? {}).reduce((p, c) => p * c, 1);

/**
 * `ink`'s confidences against the `earlier` reading of the same lines. Read alike, each field is as
 * sure as the surer look at it: a stamp across the number left the first look unsure of it and the
 * ink look sure, and the ink look unsure of the name the stamp's colour no longer hid from the first
 * (seed 4409 #159: both looks read every line alike, each doubting another field). Read otherwise,
 * 0 for each field that `earlier` read surely and differently (two sure readings that disagree cannot
 * both be right); a field `earlier` doubted keeps the ink's confidence (that doubt is why it looked).
 */
export function crossedConfidence(ink: MrzReading, earlier: MrzReading): MrzReading['fieldConfidence'] {
	const conf = ink.fieldConfidence;
	if (!conf) return conf;
	const sure: Record<string, number | undefined> = earlier.fieldConfidence ?? {};
	if (ink.lines.join('\n') === earlier.lines.join('\n')) return Object.fromEntries(Object.entries(conf).map(([f, p]) => [f, Math.max(p, sure[f] ?? 0)]));
	const mine = ink.fields as Record<string, unknown>;
	const theirs = earlier.fields as Record<string, unknown>;
	return Object.fromEntries(Object.entries(conf).map(([f, p]) => [f, (sure[f] ?? 0) >= MIN_FIELD_CONFIDENCE && mine[f] !== theirs[f] ? 0 : p]));
}

/**
 * `look`'s confidences against the `earlier` reading of the same lines, for a look that is no new
 * sight of them (the lines in luma: the same pixels, their colour dropped). A field read alike is as
 * sure as the less sure look: the luma look lifts no doubt another look raised (a stamp's K mended
 * to a filler, which no check digit tells apart, read in luma as a filler at 0.72, stayed at 0.5).
 * A field read otherwise is as in crossedConfidence.
 */
export function unliftedConfidence(look: MrzReading, earlier: MrzReading): MrzReading['fieldConfidence'] {
	const conf = look.fieldConfidence;
	if (!conf) return conf;
	const sure: Record<string, number | undefined> = earlier.fieldConfidence ?? {};
	const mine = look.fields as Record<string, unknown>;
	const theirs = earlier.fields as Record<string, unknown>;
	const otherwise = (f: string, p: number) => ((sure[f] ?? 0) >= MIN_FIELD_CONFIDENCE ? 0 : p);
	return Object.fromEntries(Object.entries(conf).map(([f, p]) => [f, mine[f] === theirs[f] ? Math.min(p, sure[f] ?? p) : otherwise(f, p)]));
}

/**
 * `sure`'s confidences against `ink`, the same lines read in black ink only: 0 for each field both
 * read surely and differently (two sure readings that disagree cannot both be right). A field the ink
 * look reads otherwise but doubts keeps its confidence where that is INK_DISPUTED_SURE or more (a
 * look that lost a glyph to the lift is weak evidence), else takes the ink look's. Read alike,
 * nothing changes.
 */
export function contradictedConfidence(sure: MrzReading, ink: MrzReading): MrzReading['fieldConfidence'] {
	const conf = sure.fieldConfidence;
	if (!conf || sure.lines.join('\n') === ink.lines.join('\n')) return conf;
	const mine = sure.fields as Record<string, unknown>;
	const theirs = ink.fields as Record<string, unknown>;
	const inkConf: Record<string, number | undefined> = ink.fieldConfidence ?? {};
	const disputed = (f: string, p: number) => {
		const other = inkConf[f] ?? 0;
		// Both sure and different: neither stands. The ink unsure: only a reading sure enough stands.
		return other >= MIN_FIELD_CONFIDENCE ? 0 : p < INK_DISPUTED_SURE ? Math.min(p, other) : p;
	};
	return Object.fromEntries(Object.entries(conf).map(([f, p]) => [f, mine[f] !== theirs[f] ? disputed(f, p) : p]));
}

/**
 * A field the black-ink look read otherwise, unsure of its own reading, keeps its confidence only
 * this sure. Seed 5757 #172 (2026-11-29): a stamp's stroke under a TD1 surname's F made it an E, read
 * at 0.78; the ink look read the F, at 0.5, and the E was accepted.
 */
const INK_DISPUTED_SURE = 0.9;

/**
 * `other` (the recogniser's plain text reading) differs from `target` (the decoded one) only at
 * glyphs the pixels clearly told from their look-alike and decoded as they saw them: there the text
 * reading is the recogniser's pick that the pixels overruled, so it is no second opinion against the
 * decoding. The same evidence already lifts the unseen double-swap doubt (mrz-decode.ts
 * `clearlySeen`); without this, a number with O's and 0's that the pixels settled and every check
 * digit passes was still zeroed by the very misread they corrected (seed 6502: 10 of 504 exact
 * readings sent to a retake by that alone).
 */
export function differsOnlyWhereSeen(target: MrzReading, other: MrzReading): boolean {
	if (!target.seen?.length || target.lines.length !== other.lines.length || target.lines.some((l, i) => l.length !== other.lines[i].length)) return false;
	const seen = new Set(target.seen);
	let differs = false;
	for (const [l, line] of target.lines.entries())
		for (let i = 0; i < line.length; i++) {
			if (line[i] === other.lines[l][i]) continue;
			if (!seen.has(`${l}:${i}`)) return false;
			differs = true;
		}
	return differs;
}

/**
 * `conf` with 0 for each field that `other` reads differently from `target`. A field neither reading
 * has agrees: empty optional data is left out of both readings' fields, and was zeroed whenever the
 * two differed anywhere else (seed 505: a name read two ways also sent the visa's empty optional
 * data to a retake). Nor does a field that `other` differs on only by K's in `target`'s trailing
 * fillers (mrz-decode.ts fillersReadAsK): the greedy reading's way with a blurred run of fillers.
 */
export function vouchedConfidence(conf: NonNullable<MrzReading['fieldConfidence']>, target: MrzReading, other: MrzReading): NonNullable<MrzReading['fieldConfidence']> {
	const same = other.lines.join('\n') === target.lines.join('\n');
	const mine = target.fields as Record<string, unknown>;
	const theirs = other.fields as Record<string, unknown>;
	const fillers: string[] = isMrzLayout(target.format) ? fillersReadAsK(target.format, target.lines, other.lines) : [];
	return Object.fromEntries(Object.entries(conf).map(([f, p]) => [f, same || mine[f] === theirs[f] || fillers.includes(f) ? p : 0]));
}

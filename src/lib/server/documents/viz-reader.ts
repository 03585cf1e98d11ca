import { compareVizWithMrz, VIZ_FIELDS, type MrzSide, type VizCheck, type VizField, type VizText } from '#lib/documents/viz-compare.ts';
import { captionOf, findLabelledValues, type PlacedText } from '#lib/documents/viz-fields.ts';
import type { MrzReading } from '#lib/documents/mrz-parse.ts';
import type { Point, Quad, Raster } from '#lib/documents/raster.ts';
import type { TextBox } from '#lib/documents/text-detection.ts';
import { flipQuad } from '#lib/documents/text-lines.ts';
import type { CtcResult } from '#lib/documents/ctc-decode.ts';
import type { OcrEngine } from './ocr-engine.ts';

export interface VizReadResult {
	check: VizCheck;
	/** What was read: the values found under their captions, and the other texts (to compare again with a changed MRZ reading). */
	printed: { labelled: Partial<Record<VizField, VizText>>; others: VizText[] };
	/** Printed texts read (captions and values). */
	texts: number;
	ms: number;
}

/**
 * Width of the VIZ strips against their natural width (height 48): the recognition cost is linear
 * in it. On the bench passport, at 0.5 the values read as at full width but a narrow `1` of a date
 * fell to probability 0.6 and small captions lost letters; at 0.6 dates read sure, and the caption
 * match forgives a lost letter (viz-fields.ts).
 */
const VIZ_SQUEEZE = 0.6;

/** Strips per recognition run (one batch, then a check whether the page has vouched for every field). */
const VIZ_BATCH = 4;

/**
 * Width of a printed glyph against its box's height (detector boxes are padded): about 0.7 on the
 * bench passport (0.66–0.8 for names, number and dates) and the generated pages. A box within a
 * factor WIDTH_FIT of the width a missing value's glyphs would take is read first.
 */
const GLYPH_ASPECT = 0.7;
const WIDTH_FIT = Math.log(1.6);
/** Glyphs of a printed date (`12.01.1990`, `12 JAN 1990`). */
const DATE_LENGTH = 10;

/** Text boxes read at most: a data page has about 10 captions and 10 values above its MRZ. */
const MAX_VIZ_BOXES = 32;

/**
 * The page frame of a box corner: x along the text, y down the page (turned back by the skew, and
 * by 180° when the page was read upside down).
 */
function toPage(p: Point, skew: number, flipped: boolean): Point {
	const r = (skew * Math.PI) / 180;
	const x = p[0] * Math.cos(r) + p[1] * Math.sin(r);
	const y = -p[0] * Math.sin(r) + p[1] * Math.cos(r);
	return flipped ? [-x, -y] : [x, y];
}

/** The MRZ side of the comparison, from a reading. */
export function mrzSideOf(mrz: MrzReading): MrzSide {
	// The name line: TD1's third, every other format's first; no filler at its end, names may be cut.
	const nameLine = mrz.format === 'TD1' ? mrz.lines[2] : mrz.lines[0];
	const f = mrz.fields;
	return {
		lastName: f.lastName,
		firstName: f.firstName,
		documentNumber: f.documentNumber,
		dateOfBirth: f.dateOfBirth,
		expiryDate: f.expiryDate,
		namesTruncated: nameLine !== undefined && !nameLine.endsWith('<')
	};
}

/**
 * Fields the reading still has to look for. `notChecked`: the print may yet contradict the MRZ
 * (a tampered page), so look. `unsure`: its value was read under its caption without vouching for
 * it or contradicting it; more texts can only make it `agree` (an unlabelled text never
 * contradicts), and that matters only where the MRZ itself needs vouching for (`vouchFor`).
 * Reading the rest of a page for a doubtful surname the MRZ read surely cost 0.7–1.2 s of a read
 * behind the page (docs/performance.md, Document scan). `all`: a reading without confidences, every field.
 */
export function stillOpen(check: VizCheck, side: MrzSide, vouchFor: readonly string[]): VizField[] {
	return VIZ_FIELDS.filter((f) => side[f] !== undefined && side[f] !== '' && (check.fields[f] === 'notChecked' || (check.fields[f] === 'unsure' && (vouchFor.includes(f) || vouchFor.includes('all')))));
}

/**
 * Reads the visual zone above the MRZ (the text boxes the MRZ pass already detected, so no second
 * detection) with the general recogniser, finds the surname, given names, document number and
 * dates under their captions, and compares them with the MRZ. `vouchFor`: the MRZ fields the
 * recogniser was unsure of (document-reader.service.ts `uncertainFields`), which an exact print
 * may vouch for.
 */
export async function readViz(
	engine: Pick<OcrEngine, 'recognizeMany'>,
	image: Raster,
	boxes: readonly TextBox[],
	mrz: MrzReading,
	at: { skew: number; flipped: boolean; mrzQuads: readonly Quad[] },
	vouchFor: readonly string[] = []
): Promise<VizReadResult> {
	const start = performance.now();
	const page = (q: Quad) => q.map((p) => toPage(p, at.skew, at.flipped));
	const mrzTop = Math.min(...at.mrzQuads.flatMap((q) => page(q).map((p) => p[1])));
	// The smallest line box: an overprint across the MRZ merges into a line's box and makes it two or
	// three lines tall (a SPECIMEN: 110 px for glyphs 40 high, seed 1031 #249), which filtered out the
	// page's captions as specks, and with them every labelled value.
	const mrzHeight = at.mrzQuads.length ? Math.min(...at.mrzQuads.map((q) => extent(page(q)).h)) : 0;
	const placed = boxes
		.map((b) => ({ box: b, ...extent(page(b.quad)) }))
		// Above the MRZ, running along it (a facing page's vertical text is not this page's VIZ), not specks.
		.filter((b) => b.y1 <= mrzTop + 0.25 * mrzHeight && b.w >= b.h && b.h >= 0.25 * mrzHeight && b.h <= 3 * mrzHeight)
		// The nearest the MRZ kept: on a data page the holder's data sits just above it.
		.sort((a, b) => b.y1 - a.y1)
		.slice(0, MAX_VIZ_BOXES);
	const side = mrzSideOf(mrz);
	const quads = placed.map((p) => (at.flipped ? flipQuad(p.box.quad) : p.box.quad));
	const place = (k: number, r: CtcResult): PlacedText => ({ text: r.text.trim(), charConfidences: trimmedConfidences(r.text, r.charConfidences), x0: placed[k].x0, x1: placed[k].x1, y0: placed[k].y0, y1: placed[k].y1 });
	// Read texts by their index in `placed` (read out of order: the likeliest values first).
	const byIndex = new Map<number, PlacedText>();
	const texts = () => [...byIndex.values()];
	const compare = () => compareVizWithMrz(findLabelledValues(texts()), texts().filter((t) => !captionOf(t.text)), side);
	const open = (c: VizCheck) => stillOpen(c, side, vouchFor);
	let check = compareVizWithMrz({}, [], side);
	// Every field settled ends the reading: the rest of the page cannot contradict what the values
	// under their captions already said (a value is under one caption only).
	while (byIndex.size < placed.length && open(check).length > 0) {
		const lengths = open(check).map((f) => (f === 'dateOfBirth' || f === 'expiryDate' ? DATE_LENGTH : String(side[f]).length));
		const next = placed
			.map((p, k) => ({ k, fit: Math.min(...lengths.map((n) => Math.abs(Math.log(p.w / (GLYPH_ASPECT * p.h * n))))), h: p.h }))
			.filter((c) => !byIndex.has(c.k))
			// Boxes as wide as a missing value would print first, each group largest print first
			// (values are printed larger than their captions).
			.sort((a, b) => Number(a.fit > WIDTH_FIT) - Number(b.fit > WIDTH_FIT) || b.h - a.h)
			.slice(0, VIZ_BATCH)
			.map((c) => c.k);
		const read = await engine.recognizeMany(image, next.map((k) => quads[k]), { squeeze: VIZ_SQUEEZE });
		next.forEach((k, j) => byIndex.set(k, place(k, read[j])));
		check = compare();
	}
	if (open(check).length > 0) {
		// Something is missing or in doubt: read again, unsqueezed, what was neither a caption nor the
		// value of one. Squeezed, small captions lose letters ("Dateofitateenas"); unsqueezed they read.
		const labelled = new Set(Object.values(findLabelledValues(texts())));
		const again = [...byIndex.entries()].filter(([, t]) => !captionOf(t.text) && !labelled.has(t)).map(([k]) => k);
		for (let i = 0; i < again.length; i += VIZ_BATCH) {
			const ks = again.slice(i, i + VIZ_BATCH);
			const read = await engine.recognizeMany(image, ks.map((k) => quads[k]), { squeeze: 1 });
			ks.forEach((k, j) => byIndex.set(k, place(k, read[j])));
		}
		if (again.length) check = compare();
	}
	return { check, printed: { labelled: findLabelledValues(texts()), others: texts().filter((t) => !captionOf(t.text)) }, texts: byIndex.size, ms: performance.now() - start };
}

function extent(pts: readonly Point[]): { x0: number; x1: number; y0: number; y1: number; w: number; h: number } {
	const xs = pts.map((p) => p[0]);
	const ys = pts.map((p) => p[1]);
	const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
	return { x0, x1, y0, y1, w: x1 - x0, h: y1 - y0 };
}

/** The confidences of `text.trim()`'s characters. */
function trimmedConfidences(text: string, confidences: readonly number[]): number[] {
	const chars = [...text];
	let a = 0, b = chars.length;
	while (a < b && /\s/.test(chars[a])) a++;
	while (b > a && /\s/.test(chars[b - 1])) b--;
	return confidences.slice(a, b);
}

import { parseAamva, type AamvaReading } from '#lib/documents/aamva-parse.ts';
import { assessCapture, type CaptureQuality } from '#lib/documents/capture-quality.ts';
import { findDocumentQuad } from '#lib/documents/document-quad.ts';
import { checkAllowedDocumentType, type DocumentTypeDecision, type MrtdType } from '#lib/documents/document-type.ts';
import type { ExtractedData } from '#lib/documents/extracted-data.ts';
import { applyHomography, invertMatrix3, quadSize } from '#lib/documents/homography.ts';
import type { MrzLineScores } from '#lib/documents/mrz-decode.ts';
import { mrzCutLines } from '#lib/documents/mrz-edge.ts';
import { glyphsPastLines, linesNotSeen, unseenGlyphs } from '#lib/documents/mrz-unseen.ts';
import { isMrzLayout } from '#lib/documents/mrz-lines.ts';
import { parseMrzLines, type MrzReading, type ParseMrzOptions } from '#lib/documents/mrz-parse.ts';
import { breakInDoubt, printedNames } from '#lib/documents/printed-names.ts';
import { quarterTurn, unturnedPoint, type Point, type Quad, type Raster } from '#lib/documents/raster.ts';
import { skewHypotheses } from '#lib/documents/skew.ts';
import { compareVizWithMrz, transliterateName, type VizCheck, type VizField } from '#lib/documents/viz-compare.ts';
import { quadHomography, rotateRaster, warpQuad } from '#lib/documents/warp.ts';
import { yieldToRequests } from '../event-loop.ts';
import { readDocumentBarcodes, type BarcodeRead } from './barcode-reader.ts';
import { decodeImage, encodeJpeg } from './image-io.ts';
import { invalidFields, isInDoubt, keepLookalikeDoubt, readMrz, readsSurer } from './mrz-reader.ts';
import { mrzSideOf, readViz, type VizReadResult } from './viz-reader.ts';
import { MIN_FIELD_CONFIDENCE, withLinesDoubted } from '#lib/documents/field-confidence.ts';
import { OcrEngine } from './ocr-engine.ts';
import { PortraitFinder, type FaceBox } from './portrait-finder.ts';

export type ScanningMode = 'SINGLE_SIDE' | 'MULTI_SIDE' | 'BARCODE';

export interface ReadDocumentOptions {
	mode: ScanningMode;
	/** The node's `allowedDocumentTypes`; when given, the result carries the accept/refuse decision. */
	allowedDocumentTypes?: readonly MrtdType[];
	/** Reference day for expiry and century decisions (tests); defaults to now. */
	now?: Date;
	/** Also encode the rectified document image and portrait as JPEG (default true). */
	encodeImages?: boolean;
	/**
	 * `constrained` (default): the MRZ decoded from the recogniser's probabilities, with field
	 * confidences. `text`: the greedy text reading repaired afterwards, as before — kept so the
	 * benchmark and the evaluation can measure both in one run.
	 */
	mrzDecode?: 'constrained' | 'text';
	/**
	 * Read the visual zone and compare it with the MRZ (default true). Off: the reader as it was
	 * before the cross-check, kept so the benchmark can measure its cost in the same run.
	 */
	crossCheckViz?: boolean;
}

export interface StageTimings {
	decode: number;
	locate: number;
	det: number;
	rec: number;
	parse: number;
	/** Reading the visual zone and comparing it with the MRZ. */
	viz: number;
	barcode: number;
	portrait: number;
	total: number;
}

export interface DocumentSide {
	width: number;
	height: number;
	/** The document's corners in the decoded image, when its edges were found. */
	quad: Quad | null;
	/** Text baseline angle corrected (degrees, positive = text ran down to the right). */
	deskewAngle: number;
	flipped: boolean;
	/** Rectified, deskewed document image (JPEG). */
	documentImage: Buffer | null;
	mrzFound: boolean;
	/** The MRZ was read in its black ink only, a coloured stamp or overprint across it (mrz-reader.ts). */
	mrzInkOnly: boolean;
	/**
	 * The MRZ lines read reach the edge of the photo, or the photo's edge next to them runs through
	 * glyphs: part of them lies outside it (mrz-edge.ts, judged in the photo as uploaded). A refused
	 * reading then asks the user to fit the whole document in the frame, not to come closer, and no
	 * retake confirms it (document-verdict.ts).
	 */
	mrzAtEdge: boolean;
	/**
	 * Per MRZ line read, how many of its glyphs the photo did not show (mrz-unseen.ts): those the
	 * recogniser emitted nothing for (a thumb over them, glare), or, on a page whose outline was found,
	 * those the page holds room for beyond the line read (a thumb that cut the line's box short),
	 * whichever is more; empty without a reading. Over MAX_UNSEEN_GLYPHS, the line's fields are in
	 * doubt and no retake confirms the reading (document-verdict.ts).
	 */
	mrzUnseen: number[];
	barcodes: number;
	/** Blur and glare of the page as located: rectified from its outline, else the photo; before any turn. */
	quality: CaptureQuality | null;
}

export interface BarcodeReading extends BarcodeRead {
	aamva: AamvaReading | null;
}

export interface PortraitResult {
	/** Index of the side (image) the portrait is on. */
	side: number;
	/** Box in the side's rectified document image. */
	box: FaceBox;
	jpeg: Buffer | null;
}

export const DOCUMENT_PROBLEMS = {
	noDocumentEdges: 'NO_DOCUMENT_EDGES',
	noMrz: 'NO_MRZ',
	noBarcode: 'NO_BARCODE',
	checkDigitMismatch: 'CHECK_DIGIT_MISMATCH',
	invalidField: 'INVALID_FIELD',
	expired: 'DOCUMENT_EXPIRED',
	noPortrait: 'NO_PORTRAIT',
	blurry: 'BLURRY',
	glare: 'GLARE',
	lowConfidence: 'LOW_CONFIDENCE',
	vizMismatch: 'MRZ_VIZ_MISMATCH'
} as const;
export type DocumentProblem = (typeof DOCUMENT_PROBLEMS)[keyof typeof DOCUMENT_PROBLEMS];

export { MIN_FIELD_CONFIDENCE };

/**
 * A field the printed page contradicts (MRZ_VIZ_MISMATCH) stands on the MRZ's word only when the
 * recogniser was this sure of it. The print disagreeing means a misprint, a tampered page, or a
 * misread on one side; no check digit covers a name, so a name the MRZ read at 0.9 against a print
 * that says otherwise is a coin the reader has no business tossing: the page asks for another
 * capture, and two captures reading the same MRZ pass it, flagged (document-verdict.ts). Seen on a
 * generated set first used for this (seed 7, 504 documents): a glared TD3 whose given name `ID` was
 * read `HD` at 0.90 — the page's (tampered) `IK` disagreeing — passed. Over seeds 1 and 7 the other
 * contradicted names the MRZ read surely and right (29, on tampered pages) scored 0.82–0.994, and the
 * one genuine page whose print was misread, 0.996: a tampered name read at 0.994 still passes at once.
 */
export const MIN_CONTRADICTED_CONFIDENCE = 0.99;

/**
 * Fields read with less confidence than MIN_FIELD_CONFIDENCE, or than MIN_CONTRADICTED_CONFIDENCE
 * where the visual zone contradicts them; all of them when the reading has no confidences. A field
 * the visual zone vouches for exactly (`viz.confirmed`: every printed glyph read with confidence and
 * spelling the MRZ's value) is not uncertain: two independent prints read the same.
 */
export function uncertainFields(mrz: MrzReading, viz?: (Pick<VizCheck, 'confirmed' | 'mismatched'> & Partial<Pick<VizCheck, 'fields' | 'read'>>) | null): string[] {
	if (!mrz.fieldConfidence) return ['all'];
	// Not a field whose check digit fails: the MRZ then is known to be wrong there (or misprinted),
	// and the print agreeing says only that both were read alike; the visual zone goes through the
	// same recogniser, which reads OCR-B's O as 0 in both (seen on the generated set: a document
	// number misread in both places passed with CHECK_DIGIT_MISMATCH).
	// Nor one in doubt only over O and 0: the print's O and 0 are read by the same recogniser.
	const failing = new Set<string>([...mrz.checks.filter((c) => !c.valid).map((c) => CHECKED_FIELD[c.field] ?? c.field), ...(mrz.lookalikeDoubt ?? [])]);
	const vouched = new Set<string>((viz?.confirmed ?? []).filter((f) => !failing.has(f)));
	const contradicted = new Set<string>(viz?.mismatched ?? []);
	const printDoubts = (field: string) => (field === 'lastName' || field === 'firstName') && viz?.fields?.[field] === 'unsure' && printedOtherwise(viz.read?.[field], mrz.fields[field]);
	return Object.entries(mrz.fieldConfidence)
		.filter(([field, p]) => (p < MIN_FIELD_CONFIDENCE && !vouched.has(field)) || (contradicted.has(field) && p < MIN_CONTRADICTED_CONFIDENCE) || (printDoubts(field) && p < MIN_PRINTED_OTHERWISE_CONFIDENCE))
		.map(([field]) => field);
}

/**
 * A name the printed page spells with other letters (spaces, hyphens and accents aside) while
 * comparing it leaves only doubt (`unsure`: a glyph of the print read weakly, or words run
 * together, which the print's recogniser does) stands on the MRZ's word only this sure. No check
 * digit covers a name, and a stamp's stroke turns one letter into another the recogniser is fairly
 * sure of: seed 3579 #484 (2026-11-30), a stamped TD2 whose given name `MARIE VAOLGUVA XA` read
 * `MARIE NAOLGUVA XA` at 0.757, the print read `MARIEVAOLGUVAXA` (the V right, weakly, the spaces
 * lost) and so only `unsure`: accepted wrong. The stamp's pale green was too faint to count as
 * coloured ink across the MRZ, so it is the print's letters, not the ink, that say so.
 */
export const MIN_PRINTED_OTHERWISE_CONFIDENCE = 0.9;

/**
 * The printed name's letters are not the MRZ's: the print transliterated as 9303 recommends
 * (viz-compare.ts), spaces, hyphens and apostrophes aside on both sides, and an E after A, O or U
 * dropped on both (9303 lets a state write Ü as UE or U, Ø as OE or O).
 */
function printedOtherwise(printed: string | undefined, mrzName: string | undefined): boolean {
	if (!printed || !mrzName) return false;
	const letters = (s: string) => s.replace(/[^A-Z]/g, '').replace(/([AOU])E/g, '$1');
	return letters(transliterateName(printed)) !== letters(mrzName);
}

/**
 * The reading with the names it doubted spelled as the page prints them, where the MRZ line's own
 * scores allow that spelling (printed-names.ts), and the page compared again with it: the names
 * then agree with the print, which vouches for them, and `check.fromPrint` says so in the report.
 * Doubted: uncertain (`uncertainFields`), or read below MIN_CONTRADICTED_CONFIDENCE where the print
 * neither agrees nor contradicts — seed 8080 #358 (2026-11-29): glare took the T of LOTH, the MRZ
 * read LOH at 0.79 and the print's LOTH, a glyph more, was only doubt; accepted wrong. Null when no
 * doubted name was taken from the print.
 */
export function withPrintedNames(reading: MrzReading, lineScores: readonly MrzLineScores[], viz: VizReadResult, options: ParseMrzOptions): { reading: MrzReading; check: VizCheck } | null {
	const uncertain = uncertainFields(reading, viz.check);
	const doubted = (['lastName', 'firstName'] as const).filter((f) => uncertain.includes(f) || (viz.check.fields[f] === 'unsure' && (reading.fieldConfidence?.[f] ?? 1) < MIN_CONTRADICTED_CONFIDENCE));
	if (doubted.length === 0 || !isMrzLayout(reading.format)) return null;
	const named = printedNames(reading.format, reading.lines, lineScores, viz.printed.labelled, doubted);
	if (!named) return null;
	const { fieldConfidence, lookalikeDoubt, seen, mended } = reading;
	const renamed: MrzReading = Object.assign(parseMrzLines(named.lines, options, reading.corrections), { fieldConfidence, lookalikeDoubt, seen }, mended ? { mended } : {});
	const check = compareVizWithMrz(viz.printed.labelled, viz.printed.others, mrzSideOf(renamed));
	return { reading: renamed, check: { ...check, fromPrint: named.fields } };
}

/**
 * The check with the names it vouched for while the MRZ, read in doubt, leaves room for a word
 * break the print reading could not show (printed-names.ts `breakInDoubt`) no longer vouched for:
 * compared `unsure`, so the name stays in doubt and the page asks for another capture. The check
 * as it was when there is none.
 */
export function withBreaksWeighed(reading: MrzReading, lineScores: readonly MrzLineScores[], check: VizCheck): VizCheck {
	if (!isMrzLayout(reading.format)) return check;
	const layout = reading.format;
	const doubted: VizField[] = (['lastName', 'firstName'] as const).filter((f) => check.confirmed.includes(f) && (reading.fieldConfidence?.[f] ?? 1) < MIN_FIELD_CONFIDENCE && breakInDoubt(layout, reading.lines, lineScores, f));
	if (doubted.length === 0) return check;
	const fields = { ...check.fields };
	for (const f of doubted) fields[f] = 'unsure';
	return { ...check, fields, confirmed: check.confirmed.filter((f) => !doubted.includes(f)) };
}

/** The check names of mrz-parse.ts (the mrz package's) as extractedData / fieldConfidence names. */
const CHECKED_FIELD: Record<string, string> = { birthDate: 'dateOfBirth', expirationDate: 'expiryDate' };

export interface ReadDocumentResult {
	status: 'read' | 'unreadable';
	/** What the fields came from. */
	source: 'mrz' | 'barcode' | null;
	documentType: MrtdType | null;
	fields: ExtractedData;
	mrz: MrzReading | null;
	/** The visual zone compared with the MRZ (null: not compared — no MRZ, or the cross-check off). */
	viz: VizCheck | null;
	barcode: BarcodeReading | null;
	portrait: PortraitResult | null;
	sides: DocumentSide[];
	decision: DocumentTypeDecision | null;
	problems: DocumentProblem[];
	timings: StageTimings;
}

export type DocumentImageInput = Buffer | Uint8Array;

interface SideWork {
	side: DocumentSide;
	image: Raster;
	document: Raster;
	/** How far `document` is to be turned upright (the side's deskewAngle, unless the MRZ reader turned it level already). */
	turn?: number;
	/** Where a point of `document` lies in the photo as uploaded (through the page's rectification and any turn). */
	toPhoto: (p: Point) => Point;
	/**
	 * The side as first located, before any reading turned it: the page rectified from its outline,
	 * else the photo. Blur and glare are judged on it. Not on the photo the MRZ may be read on
	 * instead (a blurred page read so lost its `BLURRY`, the desk's edges sharp enough to lift the
	 * measure over the limit), nor on an image turned upright (its corners, filled white, counted as
	 * a reflection: seed 2727's 38 combined pages reported `GLARE` on 14 judged so, on 6 judged here).
	 */
	page: Raster;
}

/** The page's text runs within 30° of up or down the photo, in one of its two main directions. */
function runsSideways(boxes: Parameters<typeof skewHypotheses>[0]): boolean {
	return skewHypotheses(boxes)
		.slice(0, 2)
		.some((a) => Math.abs(Math.abs(a) - 90) < 30);
}

/** The side is read on the photo as uploaded, not on a page rectified from an outline found in it. */
function onThePhoto(w: SideWork): void {
	w.document = w.image;
	w.toPhoto = (p) => p;
	w.side.quad = null;
}

/** `q`'s corners, each mapped by `f`. */
const mapQuad = (q: Quad, f: (p: Point) => Point): Quad => [f(q[0]), f(q[1]), f(q[2]), f(q[3])];

/**
 * Per MRZ line of `reading`, the glyphs it was not seen to hold: those the recogniser emitted nothing
 * for, or, where the page's outline was found (`quad`, in the photo), those its page holds room for
 * beyond the line read (a thumb that cut the line's box short), whichever is more. `inPhoto`: the
 * reading's line boxes in the photo as uploaded.
 */
function unseenOnLines(reading: MrzReading, scores: readonly MrzLineScores[], inPhoto: readonly Quad[], quad: Quad | null): number[] {
	const lengths = reading.lines.map((l) => l.length);
	let past: number[] = [];
	if (quad) {
		const page = quadSize(quad);
		const toPage = quadHomography(quad, page.width, page.height);
		if (toPage) past = glyphsPastLines(inPhoto.slice(0, lengths.length).map((q) => mapQuad(q, (p) => applyHomography(toPage, p))), lengths, reading.format, page);
	}
	return scores.map((s, l) => Math.max(unseenGlyphs(s, lengths[l] ?? 0), past[l] ?? 0));
}

/** Reads identity documents: MRZ by OCR, barcodes by zxing, portrait by face detection. */
export class DocumentReader {
	private constructor(
		private readonly ocr: OcrEngine,
		private readonly faces: PortraitFinder
	) {}

	/** The reader's OCR engine, shared with what else reads text (a watermark across a reference face). */
	get text(): OcrEngine {
		return this.ocr;
	}

	static async load(options: { mrzScoreTemperature?: number } = {}): Promise<DocumentReader> {
		// In turn, not in parallel: session creation holds the event loop either way (event-loop.ts).
		const ocr = await OcrEngine.load(options);
		await yieldToRequests();
		const faces = await PortraitFinder.load();
		return new DocumentReader(ocr, faces);
	}

	/**
	 * Reads one side (`SINGLE_SIDE`, `BARCODE`) or the front and back (`MULTI_SIDE`) of a document.
	 * SINGLE/MULTI read the MRZ and fall back to a barcode; BARCODE reads barcodes only.
	 */
	async read(input: DocumentImageInput | readonly DocumentImageInput[], options: ReadDocumentOptions): Promise<ReadDocumentResult> {
		const start = performance.now();
		const now = options.now ?? new Date();
		const encode = options.encodeImages ?? true;
		const images = isList(input) ? input : [input];
		if (images.length === 0) throw new Error('no image given');
		const timings: StageTimings = { decode: 0, locate: 0, det: 0, rec: 0, parse: 0, viz: 0, barcode: 0, portrait: 0, total: 0 };
		const problems = new Set<DocumentProblem>();
		const work: SideWork[] = [];
		for (const bytes of images) {
			let t = performance.now();
			const image = await decodeImage(bytes);
			timings.decode += performance.now() - t;
			t = performance.now();
			const found = findDocumentQuad(image);
			let document = image;
			let toPhoto = (p: Point): Point => p;
			if (found) {
				const size = quadSize(found.quad);
				document = warpQuad(image, found.quad, size.width, size.height);
				const back = invertMatrix3(quadHomography(found.quad, size.width, size.height)!);
				if (back) toPhoto = (p) => applyHomography(back, p);
			} else problems.add(DOCUMENT_PROBLEMS.noDocumentEdges);
			timings.locate += performance.now() - t;
			work.push({ image, document, page: document, toPhoto, side: { width: image.width, height: image.height, quad: found?.quad ?? null, deskewAngle: 0, flipped: false, documentImage: null, mrzFound: false, mrzInkOnly: false, mrzAtEdge: false, mrzUnseen: [], barcodes: 0, quality: null } });
		}

		let mrz: MrzReading | null = null;
		let viz: VizCheck | null = null;
		if (options.mode !== 'BARCODE') {
			// The MRZ is on the back of TD1 cards: with two sides, read the back first.
			const order = options.mode === 'MULTI_SIDE' ? [...work.keys()].reverse() : [...work.keys()];
			for (const i of order) {
				const w = work[i];
				const mrzOptions = { now, constrained: options.mrzDecode !== 'text' };
				let r = await readMrz(this.ocr, w.document, { ...mrzOptions, rectified: w.side.quad !== null });
				// A wrong outline (a photo edge, a fold) can spoil the rectified page: retry on the photo itself.
				if (!r.reading && w.side.quad) {
					const retry = await readMrz(this.ocr, w.image, mrzOptions);
					for (const k of ['det', 'rec', 'parse'] as const) retry.timings[k] += r.timings[k];
					r = retry;
					if (r.reading) onThePhoto(w);
				} else if (r.reading && w.side.quad && (!r.reading.checkDigitsValid || invalidFields(r.reading) > 0 || isInDoubt(r.reading))) {
					// …or spoil it so that it still reads, wrongly or in doubt: a hard shadow across the page (the
					// phone's), its dark side taken for the desk, made the outline a trapezoid, and the rectified
					// lines read with glyphs doubled (`SKKKABOOOOLL` for `SKKABO<OL`, failing; generated shadow
					// pages, seed 5656). An outline with one corner pulled 8 % along its edge (a finger over it, a
					// shadow) stretched the lines' starts: the decoder made the check digits pass on lines begun a
					// glyph late (`KUUMIKKABOO…` for `P<UMISKKABO…`, an unlisted country), or left a name in doubt;
					// refused on 6 of 6 generated pages, where the photo read each exactly at once
					// (wrong-outline.spec.ts, 2026-12-07). So a reading that fails its check digits, holds an
					// invalid field or is in doubt is read on the photo too, and the photo's reading kept only surer
					// (readsSurer). A right outline's page in doubt (an overprint, a stamp, blur) pays that read
					// too: the photo is a second view of the same print, resampled otherwise, and on seed 8181's
					// 116 stamped, SPECIMEN and combined pages it read 3 misread ones exactly and passed 4 more at
					// once, none wrong (docs/accuracy.md, "A wrong outline, and a second view of the page").
					const photo = await readMrz(this.ocr, w.image, mrzOptions);
					for (const k of ['det', 'rec', 'parse'] as const) photo.timings[k] += r.timings[k];
					// A look-alike doubt the page's own glyphs raised on a field the photo reads alike stays:
					// the photo's recogniser is as blind to O and 0 as the page's (seed 1212 #223: `WIVU21OO0`
					// read `WIVU21000` on both, sure on the photo, was accepted wrong without this).
					if (photo.reading) keepLookalikeDoubt(photo.reading, r.reading);
					if (photo.reading && readsSurer(photo.reading, r.reading)) {
						r = photo;
						onThePhoto(w);
					} else r.timings = photo.timings;
				}
				// Nothing read, and the text runs up or down the photo: a page photographed or stored sideways
				// with no EXIF orientation to say so (a scan, a screenshot, a phone that dropped the tag).
				// Turned a quarter each way (specimens read so, 2026-11-29: 18 and 11 of 31 at 90° and 270°,
				// against 29 upright). Only such photos pay for the extra reads. The rectified page first,
				// then the photo itself (a sideways Dutch specimen's outline was wrong: turned, the photo
				// read exactly and the page did not).
				// A reading in doubt along lines that run up or down the photo is read again on the photo turned
				// that way up: 3 of 22 webcam and phone photos of real cards, stored sideways (2026-12-02), took
				// the address and CUIL lines above the MRZ into a TD1 (in two, its check digits made to pass
				// by the decoder) and refused it, where the photo turned upright read exactly at once. One turn, the
				// one that stands the reading's own text upright; kept only when surer (mrz-reader.ts
				// readsSurer). Not for a facing page's columns: its reading runs along the MRZ, not sideways.
				let quarter = 0;
				// The reading's text direction in the photo, upside down included (rotateRaster's sense: positive is anticlockwise).
				const along = ((r.skew + (r.flipped ? 180 : 0)) * Math.PI) / 180;
				const sideways = r.reading !== null && (!r.reading.checkDigitsValid || isInDoubt(r.reading)) && Math.abs(Math.cos(along)) < 0.5;
				if (!r.reading && runsSideways(r.boxes)) {
					const sources = w.side.quad ? [w.document, w.image] : [w.document];
					turning: for (const source of sources) {
						for (const clockwise of [true, false]) {
							const turned = quarterTurn(source, clockwise);
							const again = await readMrz(this.ocr, turned, { ...mrzOptions, rectified: source === w.document && w.side.quad !== null });
							for (const k of ['det', 'rec', 'parse'] as const) again.timings[k] += r.timings[k];
							r = again;
							if (r.reading) {
								if (source === w.image) w.side.quad = null;
								const sourceToPhoto = source === w.image ? (p: Point) => p : w.toPhoto;
								w.toPhoto = (p) => sourceToPhoto(unturnedPoint(p, source, clockwise));
								w.document = turned;
								// rotateRaster's sense: positive is anticlockwise.
								quarter = clockwise ? -90 : 90;
								break turning;
							}
						}
					}
				} else if (sideways) {
					// Text read at −90° stands upright turned clockwise, at +90° anticlockwise.
					const clockwise = Math.sin(along) < 0;
					const turned = quarterTurn(w.document, clockwise);
					const again = await readMrz(this.ocr, turned, { ...mrzOptions, rectified: w.side.quad !== null });
					for (const k of ['det', 'rec', 'parse'] as const) again.timings[k] += r.timings[k];
					if (again.reading && readsSurer(again.reading, r.reading!)) {
						r = again;
						const [source, sourceToPhoto] = [w.document, w.toPhoto];
						w.toPhoto = (p) => sourceToPhoto(unturnedPoint(p, source, clockwise));
						w.document = turned;
						quarter = clockwise ? -90 : 90;
					} else r.timings = again.timings;
				}
				// Read on the page turned level: the visual zone and the portrait are looked for there too.
				if (r.levelled) {
					const [back, levelToPhoto] = [invertMatrix3(r.levelled.matrix), w.toPhoto];
					if (back) w.toPhoto = (p) => levelToPhoto(applyHomography(back, p));
					w.document = r.levelled.image;
					w.turn = r.levelled.skew;
				} else if (quarter) w.turn = r.skew;
				timings.det += r.timings.det;
				timings.rec += r.timings.rec;
				timings.parse += r.timings.parse;
				w.side.deskewAngle = r.skew + quarter;
				w.side.flipped = r.flipped;
				w.side.mrzInkOnly = r.inkOnly;
				// Judged in the photo as uploaded: a rectified page's outline can run past the photo (its
				// corners guessed from the edges seen), so the photo's edge may lie inside the page read.
				const inPhoto = r.mrzQuads.map((q) => mapQuad(q, w.toPhoto));
				const cut = r.reading ? mrzCutLines(inPhoto, r.reading.lines.length, w.image) : [];
				w.side.mrzAtEdge = cut.length > 0;
				w.side.mrzUnseen = r.reading ? unseenOnLines(r.reading, r.lineScores, inPhoto, w.side.quad) : [];
				// What the decoder put on a cut line, or where a line's glyphs were hidden, was never seen,
				// however surely it reads.
				const notSeen = [...new Set([...cut, ...linesNotSeen(w.side.mrzUnseen)])];
				if (r.reading && notSeen.length > 0) r.reading = withLinesDoubted(r.reading, notSeen);
				if (r.reading) {
					w.side.mrzFound = true;
					mrz = r.reading;
					if (options.crossCheckViz ?? true) {
						const v = await readViz(this.ocr, w.document, r.boxes, r.reading, { skew: w.turn ?? r.skew, flipped: r.flipped, mrzQuads: r.mrzQuads }, uncertainFields(r.reading));
						timings.viz += v.ms;
						viz = v.check;
						const named = withPrintedNames(r.reading, r.lineScores, v, mrzOptions);
						if (named) ({ reading: mrz, check: viz } = named);
						viz = withBreaksWeighed(mrz, r.lineScores, viz);
					}
					break;
				}
			}
			if (!mrz) problems.add(DOCUMENT_PROBLEMS.noMrz);
		}

		let barcode: BarcodeReading | null = null;
		if (!mrz) {
			for (const w of work) {
				const t = performance.now();
				// The rectified page first (flat, upright), then the photo, turned if need be.
				let found = w.side.quad ? await readDocumentBarcodes(w.document, { retryRotations: false }) : [];
				if (found.length === 0) found = await readDocumentBarcodes(w.image);
				timings.barcode += performance.now() - t;
				w.side.barcodes = found.length;
				if (found.length === 0) continue;
				const t2 = performance.now();
				const readings = found.map((b) => ({ ...b, aamva: parseAamva(b.text, { now }) }));
				timings.parse += performance.now() - t2;
				barcode = readings.find((b) => b.aamva) ?? readings[0];
				break;
			}
			if (!barcode) problems.add(DOCUMENT_PROBLEMS.noBarcode);
		}

		// Upright, deskewed document images; the portrait is looked for on them.
		let portrait: PortraitResult | null = null;
		for (const [i, w] of work.entries()) {
			let t = performance.now();
			const angle = (w.turn ?? w.side.deskewAngle) + (w.side.flipped ? 180 : 0);
			const upright = Math.abs(angle) > 0.5 ? rotateRaster(w.document, angle, { expand: true, fill: [255, 255, 255] }).raster : w.document;
			w.side.quality = assessCapture(w.page);
			timings.locate += performance.now() - t;
			if (encode) w.side.documentImage = await encodeJpeg(upright);
			t = performance.now();
			const found = await this.faces.findPortrait(upright);
			timings.portrait += performance.now() - t;
			if (found && (!portrait || found.box.width * found.box.height > portrait.box.width * portrait.box.height)) {
				portrait = { side: i, box: found.box, jpeg: encode ? await encodeJpeg(found.crop) : null };
			}
		}
		if (!portrait) problems.add(DOCUMENT_PROBLEMS.noPortrait);
		if (work.some((w) => w.side.quality?.blurry)) problems.add(DOCUMENT_PROBLEMS.blurry);
		if (work.some((w) => w.side.quality?.glary)) problems.add(DOCUMENT_PROBLEMS.glare);

		const fields: ExtractedData = mrz ? { ...mrz.fields } : barcode?.aamva ? { ...barcode.aamva.fields } : {};
		const documentType: MrtdType | null = mrz?.documentType ?? barcode?.aamva?.documentType ?? (barcode ? 'MRTD_TYPE_UNKNOWN' : null);
		if (mrz && !mrz.checkDigitsValid) problems.add(DOCUMENT_PROBLEMS.checkDigitMismatch);
		if (mrz && options.mrzDecode !== 'text' && uncertainFields(mrz, viz).length > 0) problems.add(DOCUMENT_PROBLEMS.lowConfidence);
		// The printed page says otherwise than the MRZ: a misprint, a misread, or a tampered page.
		if (viz && viz.mismatched.length > 0) problems.add(DOCUMENT_PROBLEMS.vizMismatch);
		if (mrz && mrz.errors.some((e: string) => !e.includes('check digit'))) problems.add(DOCUMENT_PROBLEMS.invalidField);
		if (barcode?.aamva && barcode.aamva.errors.length > 0) problems.add(DOCUMENT_PROBLEMS.invalidField);
		if (fields.expired === 'true') problems.add(DOCUMENT_PROBLEMS.expired);
		timings.total = performance.now() - start;
		return {
			status: mrz || barcode ? 'read' : 'unreadable',
			source: mrz ? 'mrz' : barcode ? 'barcode' : null,
			documentType,
			fields,
			mrz,
			viz,
			barcode,
			portrait,
			sides: work.map((w) => w.side),
			decision: options.allowedDocumentTypes ? checkAllowedDocumentType(documentType, options.allowedDocumentTypes) : null,
			problems: [...problems],
			timings
		};
	}
}

function isList(input: DocumentImageInput | readonly DocumentImageInput[]): input is readonly DocumentImageInput[] {
	return Array.isArray(input);
}

let shared: Promise<DocumentReader> | null = null;

/** The process-wide reader, loading its models on the first call (start-up warms it). */
export function sharedDocumentReader(): Promise<DocumentReader> {
	shared ??= DocumentReader.load().catch((error: unknown) => {
		shared = null;
		throw error;
	});
	return shared;
}

/** Reads a document with a process-wide reader (models loaded once, on first use). */
export async function readDocument(input: DocumentImageInput | readonly DocumentImageInput[], options: ReadDocumentOptions): Promise<ReadDocumentResult> {
	return (await sharedDocumentReader()).read(input, options);
}

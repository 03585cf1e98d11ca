import { describe, expect, it } from 'vitest';
import { parseMrzLines } from '#lib/documents/mrz-parse.ts';
import { lineQuad, type TextLine } from '#lib/documents/text-lines.ts';
import { rectCorners } from '#lib/documents/polygon.ts';
import { createRaster, type Quad, type Raster } from '#lib/documents/raster.ts';
import type { TextBox } from '#lib/documents/text-detection.ts';
import { syntheticDocuments } from '../../../../scripts/eval/synthetic-documents.ts';
import { scores } from '../../../../tests/helpers/mrz-scores.ts';
import { decodeImage } from './image-io.ts';
import { OcrEngine } from './ocr-engine.ts';
import { contradictedConfidence, crossedConfidence, differsOnlyWhereSeen, keepLookalikeDoubt, mrzLikeLines, readMrz, unliftedConfidence, vouchedConfidence } from './mrz-reader.ts';

const now = new Date('2026-11-22T12:00:00Z');
// A TD2 card with no optional data, read two ways that differ in the given names only.
const decoded = parseMrzLines(['IRMWIRIZE<<SK<<<<<<<<<<<<<<<<<<<<<<<', 'IQ20Z8B2T1MMR7009264<3803110<<<<<<<<'], { now });
const text = parseMrzLines(['IRMWIRIZE<<<<<<<<<<<<<<<<<<<<<<<<<<<', 'IQ20Z8B2T1MMR7009264<3803110<<<<<<<<'], { now });
const conf = { lastName: 0.95, firstName: 0.97, documentNumber: 0.99, optionalData: 0.93, dateOfBirth: 0.99 };

describe('vouchedConfidence: the text reading vouches field by field', () => {
	it('zeroes the fields the two readings disagree on, and only those', () => {
		expect(decoded.fields.optionalData).toBeUndefined();
		const out = vouchedConfidence(conf, decoded, text);
		expect(out.firstName).toBe(0);
		// Both have no optional data: they agree on it (it was zeroed with the name before).
		expect(out).toMatchObject({ lastName: 0.95, documentNumber: 0.99, optionalData: 0.93, dateOfBirth: 0.99 });
	});

	it('keeps every confidence when the readings are the same', () => {
		expect(vouchedConfidence(conf, decoded, decoded)).toEqual(conf);
	});

	it('zeroes a number the text reading reads otherwise, even when both pass its check digit', () => {
		const a = parseMrzLines(['VSXCODOCKKI<YEDIPE<<KAROLINA<<<<<<<<', '82PGO0B0V9XCO9701218<2305020<<<<<<<<'], { now });
		const b = parseMrzLines(['VSXCODOCKKI<YEDIPE<<KAROLINA<<<<<<<<', '82PG00BOV9XCO9701218<2305020<<<<<<<<'], { now });
		expect([a.checkDigitsValid, b.checkDigitsValid]).toEqual([true, true]);
		expect(vouchedConfidence({ documentNumber: 0.99, lastName: 0.96 }, a, b)).toEqual({ documentNumber: 0, lastName: 0.96 });
	});

	// Seed 5050 #466 (combined damage): the greedy reading read a K in the card's empty optional data.
	const card = ['IRATG6FRHI07F67<<<<<<<<<<<<<<<', '5002098F2911021ATG9821667<<<<9', 'UNTHOBKIIO<<KA<IOANNIS<QUQUBIN'];
	const cardConf = { optionalData: 0.8, documentNumber: 0.98, lastName: 0.88, firstName: 0.9 };
	const withLine = (lines: string[], l: number, line: string) => lines.map((x, i) => (i === l ? line : x));

	it('keeps optional data that the text reading differs on only by K’s among its trailing fillers', () => {
		const a = parseMrzLines(card, { now });
		const b = parseMrzLines(withLine(card, 0, 'IRATG6FRHI07F67<<<<K<<<<<<<<<<'), { now });
		expect(b.checkDigitsValid).toBe(true);
		expect(vouchedConfidence(cardConf, a, b)).toEqual(cardConf);
		// Every other filler a K, on both optional-data lines of a card with none.
		const c = parseMrzLines(withLine(withLine(card, 0, 'IRATG6FRHI07F67<K<K<K<KKK<K<<<'), 1, '5002098F2911021ATG9821667<KK<9'), { now });
		expect(vouchedConfidence(cardConf, a, c)).toEqual(cardConf);
	});

	it('still zeroes optional data where the K follows the data, or another letter stands among the fillers', () => {
		const a = parseMrzLines(card, { now });
		// Right after the data: the K may be its last character, lost by the decoding.
		const after = parseMrzLines(withLine(card, 1, '5002098F2911021ATG9821667K<<<9'), { now });
		expect(vouchedConfidence(cardConf, a, after).optionalData).toBe(0);
		// Another letter past the data is data (an S weighs 28: here both still differ in the field).
		const other = parseMrzLines(withLine(card, 0, 'IRATG6FRHI07F67<<<<S<<<<<<<<<<'), { now });
		expect(vouchedConfidence(cardConf, a, other).optionalData).toBe(0);
		// A K as the field's first character, right after the number's check digit.
		const first = parseMrzLines(withLine(card, 0, 'IRATG6FRHI07F67K<<<<<<<<<<<<<<'), { now });
		expect(vouchedConfidence(cardConf, a, first).optionalData).toBe(0);
		// And the names' K's are no fillers' doing: a name read otherwise is still zeroed.
		const name = parseMrzLines(withLine(card, 2, 'UNTHOBKIIO<<KA<IOANNIS<QUQUBIK'), { now });
		expect(vouchedConfidence(cardConf, a, name)).toMatchObject({ optionalData: 0.8, lastName: 0.88, firstName: 0 });
	});

	it('keeps a passport personal number read with K’s in its trailing fillers, not one read otherwise', () => {
		const td3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
		const a = parseMrzLines(td3, { now });
		const k = parseMrzLines(withLine(td3, 1, 'L898902C36UTO7408122F1204159ZE184226B<K<K<10'), { now });
		const data = parseMrzLines(withLine(td3, 1, 'L898902C36UTO7408122F1204159ZE184226BK<<<<10'), { now });
		expect(k.checkDigitsValid).toBe(true);
		expect(vouchedConfidence({ personalNumber: 0.9 }, a, k)).toEqual({ personalNumber: 0.9 });
		expect(vouchedConfidence({ personalNumber: 0.9 }, a, data)).toEqual({ personalNumber: 0 });
	});
});

describe('differsOnlyWhereSeen: a text reading that differs only where the pixels overruled it', () => {
	// 82PGO0B0V against 82PG00BOV: both pass the number's check digit (O/0 at places weighted 7 and 3).
	const a = parseMrzLines(['VSXCODOCKKI<YEDIPE<<KAROLINA<<<<<<<<', '82PGO0B0V9XCO9701218<2305020<<<<<<<<'], { now });
	const b = parseMrzLines(['VSXCODOCKKI<YEDIPE<<KAROLINA<<<<<<<<', '82PG00BOV9XCO9701218<2305020<<<<<<<<'], { now });

	it('is no second opinion where every glyph the two differ on was clearly seen as decoded', () => {
		expect(differsOnlyWhereSeen({ ...a, seen: ['1:4', '1:7', '1:5'] }, b)).toBe(true);
	});

	it('is one where any glyph they differ on was not seen, or nothing was', () => {
		expect(differsOnlyWhereSeen({ ...a, seen: ['1:4'] }, b)).toBe(false);
		expect(differsOnlyWhereSeen({ ...a, seen: [] }, b)).toBe(false);
		expect(differsOnlyWhereSeen(a, b)).toBe(false);
	});

	it('does not call two equal readings, or lines of other lengths, overruled', () => {
		expect(differsOnlyWhereSeen({ ...a, seen: ['1:4', '1:7'] }, a)).toBe(false);
		const short = { ...b, lines: [b.lines[0], b.lines[1].slice(0, 35)] };
		expect(differsOnlyWhereSeen({ ...a, seen: ['1:4', '1:7'] }, short)).toBe(false);
	});
});

describe('crossedConfidence: the ink-only look against the reading it may replace', () => {
	it('zeroes a field the earlier reading read surely and otherwise, keeps the ones it doubted', () => {
		const ink = Object.assign(parseMrzLines(['IRMWIRIZE<<SK<<<<<<<<<<<<<<<<<<<<<<<', 'IQ20Z8B2T1MMR7009264<3803110<<<<<<<<'], { now }), { fieldConfidence: { lastName: 0.95, firstName: 0.9, documentNumber: 0.99 } });
		// The earlier reading lost the given names under a stamp and doubted them: the ink's stand.
		const doubted = Object.assign(parseMrzLines(['IRMWIRIZE<<<<<<<<<<<<<<<<<<<<<<<<<<<', 'IQ20Z8B2T1MMR7009264<3803110<<<<<<<<'], { now }), { fieldConfidence: { lastName: 0.95, firstName: 0.3, documentNumber: 0.99 } });
		expect(crossedConfidence(ink, doubted)).toEqual({ lastName: 0.95, firstName: 0.9, documentNumber: 0.99 });
		// The same disagreement, but the earlier reading was sure of its empty given names: neither stands.
		const sure = { ...doubted, fieldConfidence: { lastName: 0.95, firstName: 0.96, documentNumber: 0.99 } };
		expect(crossedConfidence(ink, sure)).toEqual({ lastName: 0.95, firstName: 0, documentNumber: 0.99 });
	});

	it('takes the surer look at each field when both read the lines alike', () => {
		const lines = ['IRMWIRIZE<<SK<<<<<<<<<<<<<<<<<<<<<<<', 'IQ20Z8B2T1MMR7009264<3803110<<<<<<<<'];
		const first = Object.assign(parseMrzLines(lines, { now }), { fieldConfidence: { lastName: 0.95, firstName: 0.98, documentNumber: 0.4 } });
		const ink = Object.assign(parseMrzLines(lines, { now }), { fieldConfidence: { lastName: 0.97, firstName: 0.5, documentNumber: 0.99 } });
		expect(crossedConfidence(ink, first)).toEqual({ lastName: 0.97, firstName: 0.98, documentNumber: 0.99 });
	});
});

describe('unliftedConfidence: the luma look against the reading it may replace', () => {
	const lines = ['IRMWIRIZE<<SK<<<<<<<<<<<<<<<<<<<<<<<', 'IQ20Z8B2T1MMR7009264<3803110<<<<<<<<'];
	it('keeps the less sure look at each field both read alike: the same pixels lift no doubt', () => {
		const first = Object.assign(parseMrzLines(lines, { now }), { fieldConfidence: { lastName: 0.95, firstName: 0.98, optionalData: 0.5 } });
		const grey = Object.assign(parseMrzLines(lines, { now }), { fieldConfidence: { lastName: 0.97, firstName: 0.6, optionalData: 0.72 } });
		expect(unliftedConfidence(grey, first)).toEqual({ lastName: 0.95, firstName: 0.6, optionalData: 0.5 });
	});

	it('takes its own confidence for a field the earlier reading doubted and read otherwise, 0 where that was sure', () => {
		const grey = Object.assign(parseMrzLines(lines, { now }), { fieldConfidence: { lastName: 0.95, firstName: 0.9, documentNumber: 0.99 } });
		const doubted = Object.assign(parseMrzLines(['IRMWIRIZE<<<<<<<<<<<<<<<<<<<<<<<<<<<', lines[1]], { now }), { fieldConfidence: { lastName: 0.95, firstName: 0.3, documentNumber: 0.99 } });
		expect(unliftedConfidence(grey, doubted)).toEqual({ lastName: 0.95, firstName: 0.9, documentNumber: 0.99 });
		const sure = { ...doubted, fieldConfidence: { lastName: 0.95, firstName: 0.96, documentNumber: 0.99 } };
		expect(unliftedConfidence(grey, sure)).toEqual({ lastName: 0.95, firstName: 0, documentNumber: 0.99 });
	});
});

describe('contradictedConfidence: a sure reading against its black-ink look', () => {
	const lines = (given: string) => [`IRMWIRIZE<<${given}`.padEnd(36, '<'), 'IQ20Z8B2T1MMR7009264<3803110<<<<<<<<'];
	const sure = Object.assign(parseMrzLines(lines('SQ'), { now }), { fieldConfidence: { lastName: 0.95, firstName: 0.83, documentNumber: 0.99 } });

	it('zeroes a field both looks read surely and differently, and only that one', () => {
		const ink = Object.assign(parseMrzLines(lines('SO'), { now }), { fieldConfidence: { lastName: 0.97, firstName: 0.9, documentNumber: 0.99 } });
		expect(contradictedConfidence(sure, ink)).toEqual({ lastName: 0.95, firstName: 0, documentNumber: 0.99 });
	});

	it('keeps a field read surely (≥ 0.9) when the ink look doubts its own other reading, or reads the lines alike', () => {
		const unsure = Object.assign(parseMrzLines(lines('SO'), { now }), { fieldConfidence: { lastName: 0.97, firstName: 0.4, documentNumber: 0.99 } });
		const surer = { ...sure, fieldConfidence: { ...sure.fieldConfidence, firstName: 0.93 } };
		expect(contradictedConfidence(surer, unsure)).toEqual(surer.fieldConfidence);
		const alike = Object.assign(parseMrzLines(lines('SQ'), { now }), { fieldConfidence: { lastName: 0.2, firstName: 0.2, documentNumber: 0.2 } });
		expect(contradictedConfidence(sure, alike)).toEqual(sure.fieldConfidence);
	});

	it('doubts a field read barely surely that the ink look reads otherwise, even unsure of it', () => {
		// Seed 5757 #172: a stamp's stroke made a surname's F an E at 0.78; the ink look read F at 0.5.
		const unsure = Object.assign(parseMrzLines(lines('SO'), { now }), { fieldConfidence: { lastName: 0.97, firstName: 0.4, documentNumber: 0.99 } });
		expect(contradictedConfidence(sure, unsure)).toEqual({ lastName: 0.95, firstName: 0.4, documentNumber: 0.99 });
	});
});

describe('keepLookalikeDoubt: a look-alike doubt is not lifted by another look of the same glyphs', () => {
	// WIVU21OO0 read WIVU21000: O/0 at places weighted 7 and 3, the check digit cannot tell.
	const lines = (number: string) => ['P<CMRNEOBNE<<BO'.padEnd(44, '<'), `${number}6TTO1802142M3106095<<<<<<<<<<<<<<<8`];
	const doubting = () => Object.assign(parseMrzLines(lines('WIVU21000'), { now }), { fieldConfidence: { lastName: 0.99, documentNumber: 0.5 }, lookalikeDoubt: ['documentNumber' as const] });

	it('keeps the doubt, and its confidence, where the other look read the field alike', () => {
		const sure = Object.assign(parseMrzLines(lines('WIVU21000'), { now }), { fieldConfidence: { lastName: 0.98, documentNumber: 0.985 } });
		expect(sure.checkDigitsValid).toBe(true);
		keepLookalikeDoubt(sure, doubting());
		expect(sure.fieldConfidence).toEqual({ lastName: 0.98, documentNumber: 0.5 });
		expect(sure.lookalikeDoubt).toEqual(['documentNumber']);
	});

	it('leaves a field the other look read otherwise, and a reading no look doubted, as they were', () => {
		const other = Object.assign(parseMrzLines(lines('WIVU21OO0'), { now }), { fieldConfidence: { lastName: 0.98, documentNumber: 0.97 } });
		keepLookalikeDoubt(other, doubting());
		expect(other.fieldConfidence).toEqual({ lastName: 0.98, documentNumber: 0.97 });
		expect(other.lookalikeDoubt).toBeUndefined();
		const plain = Object.assign(parseMrzLines(lines('WIVU21000'), { now }), { fieldConfidence: { lastName: 0.98, documentNumber: 0.985 } });
		keepLookalikeDoubt(plain, { ...doubting(), lookalikeDoubt: [] });
		expect(plain.fieldConfidence.documentNumber).toBe(0.985);
	});

	it('replaces the confidences rather than writing into an object another reading may share', () => {
		const shared = { lastName: 0.98, documentNumber: 0.985 };
		const sure = Object.assign(parseMrzLines(lines('WIVU21000'), { now }), { fieldConfidence: shared });
		keepLookalikeDoubt(sure, doubting());
		expect(sure.fieldConfidence.documentNumber).toBe(0.5);
		expect(shared.documentNumber).toBe(0.985);
	});
});

describe('mrzLikeLines: which text lines may be the MRZ', () => {
	const line = (x0: number, x1: number, y: number, height = 30): TextLine => {
		const l = { angle: 0, x0, x1, y0: y - height / 2, y1: y + height / 2 };
		return { ...l, quad: lineQuad(l), width: x1 - x0, height, y, boxes: 1 };
	};

	it('keeps long thin lines and drops short ones elsewhere on the page', () => {
		const caption = line(300, 500, 300);
		const name = line(50, 1180, 760);
		const numbers = line(50, 1180, 825);
		expect(mrzLikeLines([caption, name, numbers])).toEqual([name, numbers]);
	});

	it('keeps a short line right above an MRZ line that starts where it starts (its filler run missed by the detector)', () => {
		// `POKIRDIYETHYE` found without its 31 fillers: 470 px against the next line's 1132.
		const name = line(56, 526, 763, 29);
		const numbers = line(52, 1185, 825, 32);
		expect(mrzLikeLines([name, numbers])).toEqual([name, numbers]);
		// Not when it starts elsewhere (a caption, a signature), stands two lines away, or has other glyphs.
		expect(mrzLikeLines([line(400, 870, 763, 29), numbers])).toEqual([numbers]);
		expect(mrzLikeLines([line(56, 526, 700, 29), numbers])).toEqual([numbers]);
		expect(mrzLikeLines([line(56, 526, 780, 14), numbers])).toEqual([numbers]);
		// A stamp's word between two MRZ lines (seed 808 #120): closer than a line pitch.
		const stamped = [line(52, 1188, 763, 36), line(99, 224, 796, 29), line(46, 1191, 825, 45)];
		expect(mrzLikeLines(stamped)).toEqual([stamped[0], stamped[2]]);
	});

	it('finds the line beside an MRZ line past an overprint box that stands between them in page order', () => {
		// Seed 8282 #440 (a generated TD1 under combined damage): `SPECIMEN` across the last two lines
		// came out as one box 54 px high, its middle between theirs; the last line's left part, found
		// short (221 px), was dropped as beside no long line, and the front's print read in its place.
		const second = line(36, 632, 336, 22.8);
		const overprint = line(235, 666, 363, 53.9);
		const last = line(29, 250, 374, 23.2);
		expect(mrzLikeLines([second, overprint, last])).toEqual([second, last]);
		// A line of the overprint's height is still a neighbour, and stands too close to be one.
		const word = line(235, 466, 363, 23);
		expect(mrzLikeLines([second, word, last])).toEqual([second]);
	});
});

describe('readMrz: an MRZ block seated on the one line that read as MRZ', () => {
	// A recogniser that reads by where a line is: the number line at y 800 (a box 48 px across), the
	// name line where it really is, 1.5 box heights above (its box was not found), junk elsewhere.
	const MRZ = ['P<UTOHOLLOWAY<<EVELYN<GRACE<<<<<<<<<<<<<<<<<', 'X4R7K2M913UTO8803148F3407091ZE184226B<<<<<16'];
	const box = (cy: number, width: number, height: number): TextBox => {
		const rect = { cx: 90 + width / 2, cy, width, height, angle: 0 };
		return { quad: rectCorners(rect), rect, score: 0.9 };
	};
	const read: number[] = [];
	const engine = {
		detect: async () => [box(650, 560, 25), box(700, 560, 22), box(800, 1130, 48)],
		recognize: async (_image: unknown, quad: Quad) => {
			const cy = (quad[0][1] + quad[3][1]) / 2;
			read.push(Math.round(cy));
			return { text: Math.abs(cy - 800) < 8 ? MRZ[1] : Math.abs(cy - (800 - 1.5 * 48)) < 8 ? MRZ[0] : 'DDHSI', confidence: 0.9 };
		}
	} as unknown as OcrEngine;

	it('finds the name line no box was found for at the pitch where it stands', async () => {
		const r = await readMrz(engine, createRaster(1300, 1000, 3, 255), { now });
		expect(r.reading?.lines).toEqual(MRZ);
		expect(r.reading?.checkDigitsValid).toBe(true);
		// The printed lines above (thinner than the MRZ line) were not taken for the anchor: every
		// seated line stands a whole pitch from the number line.
		expect(read).toContain(Math.round(800 - 1.9 * 48));
		expect(read).toContain(Math.round(800 - 1.5 * 48));
	});
});

describe('readMrz: print below the MRZ and a line put between', () => {
	// A visa sticker's MRZ with two lines of print below it (the fixture visa_mrvb_pol_1, doubled):
	// the print's lines stand 38 px apart, the MRZ's second line 70 px above the first of them (1.84
	// of that spacing), so a line is put between (`fillLineGaps`). Read upwards, print, print and the
	// line put there made three lines without a filler, and the read gave up before the MRZ.
	const MRZ = ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'];
	const box = (cy: number, height: number): TextBox => {
		const rect = { cx: 628, cy, width: 1040, height, angle: 0 };
		return { quad: rectCorners(rect), rect, score: 0.9 };
	};
	const read: number[] = [];
	const engine = {
		detect: async () => [box(652, 31), box(696, 31), box(766, 24), box(804, 25)],
		recognize: async (_image: unknown, quad: Quad) => {
			const cy = (quad[0][1] + quad[3][1]) / 2;
			read.push(Math.round(cy));
			// Upside down (the corners turned), every line reads as junk.
			if (quad[0][0] > quad[1][0]) return { text: 'DDHSI', confidence: 0.9 };
			return { text: Math.abs(cy - 652) < 8 ? MRZ[0] : Math.abs(cy - 696) < 8 ? MRZ[1] : 'PF2005CP20042005VLA1V', confidence: 0.9 };
		}
	} as unknown as OcrEngine;

	it('counts only lines the detector found towards giving up, and reads on to the MRZ', async () => {
		const r = await readMrz(engine, createRaster(1300, 1000, 3, 255), { now });
		expect(r.reading?.lines).toEqual(MRZ);
		expect(r.reading?.checkDigitsValid).toBe(true);
		// The line put between the MRZ and the print was read: it is what the search went past.
		expect(read).toContain(731);
	});
});

describe('readMrz: the text direction whose reading checks out', () => {
	// An open passport: the facing page's columns of text run down the page, each boxed whole and
	// longer than any piece of the MRZ, so their direction is read first. Read along them, the columns
	// make a TD1 whose document number's check digit fails; the MRZ itself, read along the page, passes.
	const TD3 = ['P<UTOHOLLOWAY<<EVELYN<GRACE<<<<<<<<<<<<<<<<<', 'X4R7K2M913UTO8803148F3407091ZE184226B<<<<<16'];
	const COLUMNS = ['I<UTOD231458908<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
	const box = (cx: number, cy: number, width: number, height: number, angle: number): TextBox => {
		const rect = { cx, cy, width, height, angle };
		return { quad: rectCorners(rect), rect, score: 0.9 };
	};
	const columns = [200, 260, 320];
	const engine = {
		detect: async () => [...columns.map((x) => box(x, 400, 640, 26, 90)), box(260, 900, 420, 30, 0), box(700, 900, 380, 30, 0), box(260, 960, 420, 30, 0), box(700, 960, 380, 30, 0)],
		recognize: async (_image: unknown, quad: Quad) => {
			const across = Math.abs(quad[1][0] - quad[0][0]) > Math.abs(quad[1][1] - quad[0][1]);
			if (across) return { text: TD3[Math.abs((quad[0][1] + quad[3][1]) / 2 - 900) < 10 ? 0 : 1], confidence: 0.9 };
			// A column, in reading order whichever way the page is turned.
			const cx = (quad[0][0] + quad[2][0]) / 2;
			const i = columns.findIndex((x) => Math.abs(x - cx) < 20);
			const order = quad[0][1] > quad[1][1] ? i : 2 - i;
			return { text: COLUMNS[order] ?? 'DDHSI', confidence: 0.9 };
		}
	} as unknown as OcrEngine;

	it('reads the next direction when the first gave no reading whose check digits pass, and keeps the one that does', async () => {
		const r = await readMrz(engine, createRaster(1000, 1100, 3, 255), { now });
		expect(r.reading?.lines).toEqual(TD3);
		expect(r.reading?.checkDigitsValid).toBe(true);
		expect(Math.abs(r.skew)).toBeLessThan(1);
	});
});

describe('readMrz: a card\'s front scanned beside its back', () => {
	// The Serbian card scan (Arg0s1080/mrz): the front's dates print level with the back's MRZ lines,
	// far to their left. Grouped by row, a line began with the front's `24.07.2008.` and failed its
	// check digits; split where the row is empty for ROW_GAP_HEIGHTS, the MRZ reads alone.
	const TD1 = ['IDSRB95555554612902968000000<<', '6802295F1307245SRB<<<<<<<<<<<6', 'TEST<<MILICA<<<<<<<<<<<<<<<<<<'];
	const FRONT = ['24072008', '24072013', 'BEOGRAD'];
	const ys = [150, 170, 190];
	const box = (x0: number, cy: number, width: number): TextBox => {
		const rect = { cx: x0 + width / 2, cy, width, height: 16, angle: 0 };
		return { quad: rectCorners(rect), rect, score: 0.9 };
	};
	const engine = {
		detect: async () => ys.flatMap((y) => [box(40, y, 110), box(365, y, 430)]),
		recognize: async (_image: unknown, quad: Quad) => {
			const i = ys.findIndex((y) => Math.abs((quad[0][1] + quad[3][1]) / 2 - y) < 6);
			if (i < 0) return { text: '', confidence: 0 };
			return { text: quad[0][0] < 300 ? FRONT[i] + TD1[i] : TD1[i], confidence: 0.9 };
		}
	} as unknown as OcrEngine;

	it('reads the MRZ lines without the print beside them', async () => {
		const r = await readMrz(engine, createRaster(820, 230, 3, 255), { now });
		expect(r.reading?.lines).toEqual(TD1);
		expect(r.reading?.checkDigitsValid).toBe(true);
		expect(Math.min(...r.mrzQuads.flatMap((q) => q.map((p) => p[0])))).toBeGreaterThan(300);
	});
});

describe('readMrz: MRZ lines the detector boxed short of their ends', () => {
	// The photographed Czech specimen prints its MRZ's right end in a tint the detector does not box:
	// both lines were found 34 and 36 glyphs long, and a passport's P made them a TD3 decoded 44 long
	// from 36 glyphs' worth of steps (glyphs doubled, 4 of 5 check digits passing). Here a generated
	// passport, the real recogniser, and a detector that loses every box's part beyond 78 % of the page.
	it('reads the lines again carried on past their ends and decodes them whole', async () => {
		const real = await OcrEngine.load();
		const doc = syntheticDocuments(1, 20261201, { damage: 'clean', layout: 'TD3' })[0];
		const image = await decodeImage(await doc.render());
		const cutAt = 0.78 * image.width;
		const shortened = (b: TextBox): TextBox | null => {
			const [x0, x1] = [Math.min(...b.quad.map((p) => p[0])), Math.max(...b.quad.map((p) => p[0]))];
			if (x0 >= cutAt) return null;
			if (x1 <= cutAt || Math.abs(b.rect.angle) > 5) return b;
			const width = b.rect.width - (x1 - cutAt);
			const rect = { ...b.rect, width, cx: b.rect.cx - (x1 - cutAt) / 2 };
			return { ...b, rect, quad: rectCorners(rect) };
		};
		const detect = async (raster: Raster) => (await real.detect(raster)).map(shortened).filter((b): b is TextBox => b !== null);
		// The real engine in every other respect (its methods bound to it: it keeps private state).
		const engine = new Proxy(real, {
			get: (target, key) => {
				const value: unknown = key === 'detect' ? detect : Reflect.get(target, key, target);
				return typeof value === 'function' && key !== 'detect' ? value.bind(target) : value;
			}
		});
		const r = await readMrz(engine, image, { now });
		expect(r.reading?.lines).toEqual(doc.mrz);
		expect(r.reading?.checkDigitsValid).toBe(true);
		// The crops reach past the cut.
		expect(Math.max(...r.mrzQuads.flatMap((q) => q.map((p) => p[0])))).toBeGreaterThan(cutAt + 0.05 * image.width);
	}, 120_000);
});

describe('readMrz: print level with an MRZ line, just beside it', () => {
	// The UK residence permit scan (Arg0s1080/mrz) sets its front beside its back: the front's
	// signature ends two glyphs before the back's MRZ lines start, in their rows, so each row is one
	// line and alignBlock carries the whole block to the signature's start. Here a generated card, the
	// real recogniser, and five glyphs of its own first line pasted just left of its name line. Without
	// the cut the name line took them in (seeds 20261203 and 20261205 both failed). Seed 20261202 is
	// not used: the recogniser loses its name's first glyphs (`OLYE`) on any crop, the clean card's too.
	it('reads the lines from where the MRZ starts, not the print beside it', async () => {
		const real = await OcrEngine.load();
		const doc = syntheticDocuments(1, 20261205, { damage: 'clean', layout: 'TD1' })[0];
		const card = await decodeImage(await doc.render());
		const clean = await readMrz(real, card, { now });
		expect(clean.reading?.lines).toEqual(doc.mrz);
		const [first, , name] = clean.mrzQuads;
		const pitch = (first[1][0] - first[0][0]) / 30;
		const height = first[3][1] - first[0][1];
		// A white margin on the left as wide as the pasted glyphs and the gap.
		const pad = Math.round(8 * pitch);
		const image = createRaster(card.width + pad, card.height, card.channels as 3, 255);
		for (let y = 0; y < card.height; y++) image.data.set(card.data.subarray(y * card.width * card.channels, (y + 1) * card.width * card.channels), (y * image.width + pad) * card.channels);
		const [sx, sy] = [Math.round(first[0][0]) + pad, Math.round(first[0][1])];
		const [tx, ty] = [Math.round(name[0][0] + pad - 7 * pitch), Math.round(name[0][1])];
		const w = Math.round(5 * pitch);
		for (let y = 0; y < Math.round(height); y++) {
			const from = ((sy + y) * image.width + sx) * image.channels;
			image.data.copyWithin(((ty + y) * image.width + tx) * image.channels, from, from + w * image.channels);
		}
		const r = await readMrz(real, image, { now });
		expect(r.reading?.lines).toEqual(doc.mrz);
		expect(r.reading?.checkDigitsValid).toBe(true);
		// The crops start at the MRZ, past the pasted glyphs.
		expect(Math.min(...r.mrzQuads.flatMap((q) => q.map((p) => p[0])))).toBeGreaterThan(tx + w);
	}, 120_000);
});

describe('readMrz: an MRZ whose glyphs are photographed in tints', () => {
	// The Czech passport photo (DoubangoTelecom/ultimateMRZ-SDK) prints its MRZ in iridescent greens
	// and browns: in colour the name line's fillers read as K, S and C, unsurely; in luma they read
	// as fillers; in black ink only the tinted glyphs fade with the tint. A recogniser that sees so.
	const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
	const tinted = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [26 + i, { K: 0.5, '<': 0.3 }]));
	const box = (cy: number): TextBox => {
		const rect = { cx: 650, cy, width: 1130, height: 34, angle: 0 };
		return { quad: rectCorners(rect), rect, score: 0.9 };
	};
	const looks: string[] = [];
	const engine = {
		detect: async () => [box(740), box(800)],
		recognize: async (_image: unknown, quad: Quad, options: { grey?: boolean; inkOnly?: boolean }) => {
			const line = Math.abs((quad[0][1] + quad[3][1]) / 2 - 740) < 10 ? 0 : 1;
			const look = options.grey ? 'grey' : options.inkOnly ? 'ink' : 'colour';
			looks.push(look);
			// Black ink only: the tinted glyphs are lost, and the line reads short.
			if (look === 'ink') return { text: TD3[line].slice(0, 20), confidence: 0.5, mrzScores: scores(TD3[line].slice(0, 20)) };
			const misread = look === 'colour' && line === 0;
			const text = misread ? TD3[0].slice(0, 26) + 'K'.repeat(18) : TD3[line];
			return { text, confidence: 0.9, mrzScores: scores(TD3[line], misread ? tinted : {}) };
		}
	} as unknown as OcrEngine;

	it('reads the lines in luma when colour and black ink leave the name in doubt, and keeps the surer reading', async () => {
		const r = await readMrz(engine, createRaster(1300, 1000, 3, 255), { now });
		expect(looks).toContain('grey');
		expect(r.reading?.lines).toEqual(TD3);
		expect(r.reading?.fieldConfidence?.firstName).toBeGreaterThan(0.9);
		expect(r.inkOnly).toBe(false);
	});
});

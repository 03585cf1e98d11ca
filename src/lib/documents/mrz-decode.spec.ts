import { describe, expect, it } from 'vitest';
import { ctcGreedyDecode, MRZ_ALPHABET } from './ctc-decode.ts';
import { lineMarginals } from './ctc-marginals.ts';
import { buildMrz } from './mrz-build.ts';
import { decodeMrz, type MrzLineScores } from './mrz-decode.ts';
import { scores } from '../../../tests/helpers/mrz-scores.ts';

const K = MRZ_ALPHABET.length;
const LABELS = [...MRZ_ALPHABET];
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

const greedy = (s: MrzLineScores) => ctcGreedyDecode(s.probs, s.steps, 1 + K, LABELS).text;

describe('lineMarginals', () => {
	it('gives each position the probability of each character under an exact length', () => {
		const s = scores('AB<', { 1: { B: 0.6, '8': 0.37 } });
		const all = new Uint8Array(K).fill(1);
		const m = lineMarginals(s.probs, s.steps, K, [all, all, all])!;
		expect(m.posteriors[0][0]).toBeGreaterThan(0.99);
		// Both frames of the glyph must agree: 0.6² against 0.37².
		expect(m.posteriors[1][MRZ_ALPHABET.indexOf('B')]).toBeCloseTo(0.36 / (0.36 + 0.37 ** 2), 2);
		for (const row of m.posteriors) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
	});

	it('finds no path when there are fewer time steps than characters', () => {
		const all = new Uint8Array(K).fill(1);
		expect(lineMarginals(new Float32Array(2 * (K + 1)).fill(0.1), 2, K, [all, all, all])).toBeNull();
	});

	it('prefers the length the frames support', () => {
		const s = scores('ABC');
		const all = new Uint8Array(K).fill(1);
		const three = lineMarginals(s.probs, s.steps, K, [all, all, all])!;
		const four = lineMarginals(s.probs, s.steps, K, [all, all, all, all])!;
		expect(three.logLikelihood).toBeGreaterThan(four.logLikelihood + 1);
	});
});

describe('decodeMrz', () => {
	it('reads a clean TD3 exactly, sure of every field', () => {
		const d = decodeMrz(TD3.map((l) => scores(l)))!;
		expect(d.layout).toBe('TD3');
		expect(d.lines).toEqual(TD3);
		expect(d.checksValid).toBe(true);
		for (const v of Object.values(d.fieldConfidence)) expect(v).toBeGreaterThan(0.9);
	});

	it('picks TD1 for three lines and TD2 for two 36-long lines', () => {
		expect(decodeMrz(TD1.map((l) => scores(l)))!.lines).toEqual(TD1);
		const td2 = ['I<UTOSTEVENSON<<PETER<JOHN<<<<<<<<<<', 'D231458907UTO3407127M95071227<<<<<<2'];
		const d = decodeMrz(td2.map((l) => scores(l)))!;
		expect(d.layout).toBe('TD2');
		expect(d.lines).toEqual(td2);
	});

	it('keeps two equal fillers that greedy decoding merges (a line one short)', () => {
		// Position 13/14 is `<<` between surname and given name; no blank frame between the two glyphs.
		const line1 = scores(TD3[0], {}, { 13: 0.3 });
		expect(greedy(line1)).toHaveLength(43);
		const d = decodeMrz([line1, scores(TD3[1])])!;
		expect(d.lines).toEqual(TD3);
	});

	it('fixes what greedy gets wrong by position class, check digit and name grammar', () => {
		// A birth-date 8 looks more like B; a document-number 0 more like O (the check digit says 0);
		// a trailing filler after the given names more like K.
		const line2 = scores(TD3[1], { 5: { O: 0.55, '0': 0.42 }, 16: { B: 0.6, '8': 0.37 } });
		const line1 = scores(TD3[0], { 30: { K: 0.55, '<': 0.42 } });
		expect(greedy(line2)).toBe('L8989O2C36UTO740B122F1204159ZE184226B<<<<<10');
		expect(greedy(line1)).toBe('P<UTOERIKSSON<<ANNA<MARIA<<<<<K<<<<<<<<<<<<<');
		const d = decodeMrz([line1, line2])!;
		expect(d.lines).toEqual(TD3);
		expect(d.checksValid).toBe(true);
	});

	it('says it is not sure of a name glyph the recogniser could not tell from a filler', () => {
		// ERIKSSON's K might be a filler (ERI<SSON): both are valid names, no check digit covers them.
		const line1 = scores(TD3[0], { 8: { K: 0.5, '<': 0.47 } });
		const d = decodeMrz([line1, scores(TD3[1])])!;
		expect(d.fieldConfidence.lastName).toBeLessThan(0.6);
		expect(d.fieldConfidence.firstName).toBeGreaterThan(0.9);
		expect(d.fieldConfidence.documentNumber).toBeGreaterThan(0.9);
	});

	it('is no surer of an empty given name than of the surname when the field has no `<<`', () => {
		// ICAO 9303 never prints a name field without `<<`: such a reading lost its separator (a line
		// cut by the photo's edge or under a thumb, 2026-12-06), and where the given name starts is
		// then the surname glyphs' call.
		const td1 = [TD1[0], TD1[1], 'ERIKSSON<ANNA<MARIA<BERG<LUNDS'];
		const d = decodeMrz([scores(td1[0]), scores(td1[1]), scores(td1[2], { 1: { R: 0.55, B: 0.42 } })])!;
		expect(d.lines[2]).toBe(td1[2]);
		expect(d.fieldConfidence.lastName).toBeLessThan(0.75);
		expect(d.fieldConfidence.firstName).toBeLessThan(0.75);
		// Read surely, such a field is sure throughout (the parse names it as printed).
		const sure = decodeMrz(td1.map((l) => scores(l)))!;
		expect(sure.fieldConfidence.firstName).toBeGreaterThan(0.9);
	});

	it('is unsure of a document number whose check digit two readings satisfy', () => {
		// An unclear check digit alone is settled by the number it checks…
		const digitOnly = scores(TD3[1], { 9: { '6': 0.34, '3': 0.33, '8': 0.3 } });
		const d = decodeMrz([scores(TD3[0]), digitOnly])!;
		expect(d.lines[1]).toBe(TD3[1]);
		expect(d.fieldConfidence.documentNumber).toBeGreaterThan(0.9);
		// …but L898… with 6 and L8B8… with 9 both pass (B is worth 11, weight 1 there: 3 more).
		const both = scores(TD3[1], { 2: { '8': 0.49, B: 0.48 }, 9: { '6': 0.5, '9': 0.47 } });
		expect(decodeMrz([scores(TD3[0]), both])!.fieldConfidence.documentNumber).toBeLessThan(0.6);
	});
});

describe("decodeMrz on a document code's second character", () => {
	// No check digit covers the document code. An official passport's `PO` under glare read `P0`, the
	// 0 likelier to the recogniser, and was accepted (seed 1414 #241, 2026-12-06).
	it('reads a letter or filler there on a passport or visa, whatever digit the recogniser preferred', () => {
		const official = ['PO' + TD3[0].slice(2), TD3[1]];
		const d = decodeMrz([scores(official[0], { 1: { '0': 0.6, O: 0.38 } }), scores(official[1])])!;
		expect(d.lines).toEqual(official);
		expect(d.fieldConfidence.documentCode).toBeGreaterThan(0.9);
	});

	it("keeps a card's digit there, as US cards print it (`C1`)", () => {
		const card = ['C1' + TD1[0].slice(2), TD1[1], TD1[2]];
		expect(decodeMrz(card.map((l) => scores(l)))!.lines).toEqual(card);
	});
});

describe('decodeMrz on a state code that is on no list', () => {
	// The same document issued by "BDR" (a specimen's code: one glyph from BLR, a real state).
	const BDR = ['P<BDRERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', TD3[1]];

	it('keeps a code printed plainly as printed, and only as sure as a second capture can make it', () => {
		const d = decodeMrz([scores(BDR[0]), scores(BDR[1])])!;
		expect(d.lines[0].slice(2, 5)).toBe('BDR');
		expect(d.fieldConfidence.issuingCountry).toBe(0.5);
		expect(d.fieldConfidence.nationality).toBeGreaterThan(0.9);
		expect(d.fieldConfidence.lastName).toBeGreaterThan(0.9);
	});

	it('takes the nearest listed code, unsure, when a glyph of the code is in doubt', () => {
		const d = decodeMrz([scores(BDR[0], { 3: { D: 0.6, L: 0.38 } }), scores(BDR[1])])!;
		expect(d.lines[0].slice(2, 5)).toBe('BLR');
		expect(d.fieldConfidence.issuingCountry).toBeLessThan(0.75);
	});

	it("takes the issuing state's code, kept as printed, for a nationality read less surely", () => {
		// Nationality at line 2, 10–13: BDR, its D read only 0.6 against L.
		const line2 = BDR[1].slice(0, 10) + 'BDR' + BDR[1].slice(13);
		const d = decodeMrz([scores(BDR[0]), scores(line2, { 11: { D: 0.6, L: 0.38 } })])!;
		expect(d.lines[1].slice(10, 13)).toBe('BDR');
		expect(d.fieldConfidence.nationality).toBe(0.5);
		// Read as plainly as a listed code, a listed code stays.
		const listed = decodeMrz([scores(BDR[0]), scores(BDR[1])])!;
		expect(listed.lines[1].slice(10, 13)).toBe('UTO');
	});

	it('keeps a nationality left empty (`<<<`, as US border-crossing cards print it), unsure; never an empty issuing state', () => {
		const empty = [TD1[0], TD1[1].slice(0, 15) + '<<<' + TD1[1].slice(18), TD1[2]];
		const d = decodeMrz(empty.map((l) => scores(l)))!;
		expect(d.lines).toEqual(empty);
		expect(d.fieldConfidence.nationality).toBe(0.5);
		const noState = ['I<<<<' + TD1[0].slice(5), TD1[1], TD1[2]];
		expect(decodeMrz(noState.map((l) => scores(l)))!.lines[0].slice(2, 5)).not.toBe('<<<');
	});

	it('still reads a listed code it is sure of, with its own confidence', () => {
		const d = decodeMrz([scores(TD3[0]), scores(TD3[1])])!;
		expect(d.lines[0].slice(2, 5)).toBe('UTO');
		expect(d.fieldConfidence.issuingCountry).toBeGreaterThan(0.9);
	});
});

describe('decodeMrz on a document with a wrong check digit', () => {
	it('reads the digit as printed when the recogniser is sure of it, and says the check fails', () => {
		const wrong = TD3[1].slice(0, 9) + '7' + TD3[1].slice(10);
		const d = decodeMrz([scores(TD3[0]), scores(wrong)])!;
		expect(d.lines[1]).toBe(wrong);
		expect(d.checksValid).toBe(false);
	});
});

describe('decodeMrz on a check digit a look-alike would fix', () => {
	const source = { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', nationality: 'UTO', birthDate: '740812', sex: 'F' as const, expiryDate: '320415' };
	/** The lines with the letter O at `at` of the document number read, with certainty, as the digit 0. */
	const zeroForO = (lines: string[], numberLine: number, numberStart: number, at: number) =>
		lines.map((l, k) => (k === numberLine ? l.slice(0, numberStart + at) + '0' + l.slice(numberStart + at + 1) : l));

	it("reads OCR-B's O the recogniser took for 0 when that one swap, and no other look-alike, makes every check pass", () => {
		// X4O9K2M1P read X409K2M1P on every photo: the check digit fails, and of every single look-alike
		// swap only 0→O at position 2 passes it; the composite agrees.
		const td3 = buildMrz('TD3', { ...source, documentNumber: 'X4O9K2M1P' });
		const d = decodeMrz(zeroForO(td3, 1, 0, 2).map((l) => scores(l)))!;
		expect(d.lines).toEqual(td3);
		expect(d.checksValid).toBe(true);
		expect(d.fieldConfidence.documentNumber).toBeGreaterThan(0.9);
		expect(d.fieldConfidence.composite).toBeUndefined();
		// The same the other way round (a 0 read as O) on the ICAO example.
		const misread = TD3[1].slice(0, 5) + 'O' + TD3[1].slice(6);
		expect(decodeMrz([scores(TD3[0]), scores(misread)])!.lines).toEqual(TD3);
	});
	it('leaves the number as read, failing and uncertain, when two swaps would each pass the check', () => {
		// PA0Z9KW1O read PA0Z9KW10: an O at position 2 or at position 8 both make the check pass (both
		// weighted 1, in the composite too): nothing on the page says which.
		const td3 = buildMrz('TD3', { ...source, documentNumber: 'PA0Z9KW1O' });
		const read = zeroForO(td3, 1, 0, 8);
		const d = decodeMrz(read.map((l) => scores(l)))!;
		expect(d.lines).toEqual(read);
		expect(d.checksValid).toBe(false);
		expect(d.fieldConfidence.documentNumber).toBe(0);
	});
	it('calls a failing number uncertain when swaps of its own would pass it, though the composite passes as read', () => {
		// D1OY8O4GL and a personal number ending in O, every O read as 0 (seed 808 #115): the composite
		// passes with the three 0's, the number's own check fails, and two O's of its own would pass it.
		const td3 = buildMrz('TD3', { ...source, documentNumber: 'D1OY8O4GL', optional: '13G1O' });
		const zeros = (t: string) => t.replace(/O/g, '0');
		const read = [td3[0], zeros(td3[1].slice(0, 9)) + td3[1].slice(9, 28) + zeros(td3[1].slice(28))];
		const d = decodeMrz(read.map((l) => scores(l)))!;
		expect(d.lines).toEqual(read);
		expect(d.checksValid).toBe(false);
		expect(d.fieldConfidence.documentNumber).toBe(0);
		// A misprinted check digit no O↔0 swap explains stays as read and sure (reported, not refused).
		const misprint = TD3[1].slice(0, 9) + '7' + TD3[1].slice(10);
		expect(decodeMrz([scores(TD3[0]), scores(misprint)])!.fieldConfidence.documentNumber).toBeGreaterThan(0.9);
	});

	it('leaves it uncertain when the composite still fails after the swap', () => {
		// TD1: the optional data (no check digit of its own) misread too; only the composite covers it.
		const td1 = buildMrz('TD1', { ...source, documentCode: 'I', documentNumber: 'X4O9K2M1P', optional: 'AB12' });
		const read = zeroForO(td1, 0, 5, 2).map((l, k) => (k === 0 ? l.slice(0, 15) + 'AB13' + l.slice(19) : l));
		const d = decodeMrz(read.map((l) => scores(l)))!;
		expect(d.lines[0]).toBe(read[0]);
		expect(d.checksValid).toBe(false);
		expect(d.fieldConfidence.documentNumber).toBe(0);
	});
});

describe('decodeMrz on optional data only the composite covers', () => {
	const source = { documentCode: 'I', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', documentNumber: 'D23145890', nationality: 'UTO', birthDate: '740812', sex: 'F' as const, expiryDate: '320415' };
	const at = (line: string, i: number, ch: string) => line.slice(0, i) + ch + line.slice(i + 1);

	it('empties a field that starts with a filler when a stamp put glyphs among its fillers and only the composite fails', () => {
		const td1 = buildMrz('TD1', source);
		// A stamp's stroke read, surely, as R at line 2 position 19: `<R<<<<<<<<<`.
		const read = [td1[0], at(td1[1], 19, 'R'), td1[2]];
		const d = decodeMrz(read.map((l) => scores(l)))!;
		expect(d.lines).toEqual(td1);
		expect(d.checksValid).toBe(true);
		// One check digit vouches for it: short of sure, so a second capture must read it alike.
		expect(d.fieldConfidence.optionalData).toBe(0.5);
		expect(d.fieldConfidence.documentNumber).toBeGreaterThan(0.99);
	});

	it('takes the one O↔0 swap that meets the composite, and none where two would', () => {
		const td1 = buildMrz('TD1', { ...source, optional2: '543O6251' });
		const read = [td1[0], td1[1].replace('543O6', '54306'), td1[2]];
		expect(decodeMrz(read.map((l) => scores(l)))!.lines).toEqual(td1);
		// O<<0 read 0<<0: an O at either place (both weighted 7) meets the composite.
		const twice = buildMrz('TD1', { ...source, optional: 'O<<0' });
		const both = [twice[0].replace('O<<0', '0<<0'), twice[1], twice[2]];
		const d = decodeMrz(both.map((l) => scores(l)))!;
		expect(d.lines).toEqual(both);
		expect(d.checksValid).toBe(false);
	});

	it('leaves a field that starts with data as read: a composite failing there may be a misprint', () => {
		const td1 = buildMrz('TD1', { ...source, optional2: 'AB12' });
		const read = [td1[0], td1[1].replace('AB12', 'AB13'), td1[2]];
		const d = decodeMrz(read.map((l) => scores(l)))!;
		expect(d.lines).toEqual(read);
		expect(d.checksValid).toBe(false);
	});
});

describe('decodeMrz on an O/0 swap no check digit sees', () => {
	it('calls a number with O and 0 at places weighted 3 and 7 uncertain, however sure the glyphs look', () => {
		// SO7ODNT98: O at 1 (weight 3) and 3 (weight 7); read as S070DNT98 every check still passes.
		const td3 = buildMrz('TD3', { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', documentNumber: 'SO7ODNT98', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '320415' });
		const d = decodeMrz(td3.map((l) => scores(l)))!;
		expect(d.lines).toEqual(td3);
		expect(d.checksValid).toBe(true);
		expect(d.fieldConfidence.documentNumber).toBeLessThanOrEqual(0.5);
		expect(d.fieldConfidence.dateOfBirth).toBeGreaterThan(0.9);
	});
	it('calls a number uncertain when three swaps, weighted 3, 1 and 1, pass every check together', () => {
		// Seed 3307 #280: 5OO5ZOZD read 5005Z0ZD and accepted. No two of its O's hide from the check
		// digit (3+1, 1+1), all three do (24 × 5 = 120).
		const td3 = buildMrz('TD3', { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', documentNumber: '5OO5ZOZD', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '320415' });
		const read = [td3[0], td3[1].replace('5OO5ZOZD', '5005Z0ZD')];
		const d = decodeMrz(read.map((l) => scores(l)))!;
		expect(d.lines).toEqual(read);
		expect(d.checksValid).toBe(true);
		expect(d.lookalikeDoubt).toContain('documentNumber');
		expect(d.fieldConfidence.documentNumber).toBeLessThanOrEqual(0.5);
	});
	it('doubts a G the recogniser also gave Q a chance at: worth 16 and 26, no check digit tells them apart', () => {
		// Seed 3131, web-size pages: the visa number 0S0E6VBQK read 0S0E6VBGK, its Q given G 0.65, 0 0.20,
		// 9 0.09 and Q 0.03 (posteriors; both frames of a glyph must agree, so these frame scores give
		// about that); the check digit ruled out the 0 and the 9, and the G was accepted.
		const td3 = buildMrz('TD3', { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', documentNumber: '0S0E6VBQK', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '320415' });
		const at = td3[1].indexOf('Q');
		const unsure = decodeMrz([scores(td3[0]), scores(td3[1], { [at]: { G: 0.6, '0': 0.2, '9': 0.08, Q: 0.11 } })])!;
		expect(unsure.lines[1].slice(0, 9)).toBe('0S0E6VBGK');
		expect(unsure.checksValid).toBe(true);
		expect(unsure.lookalikeDoubt).toContain('documentNumber');
		expect(unsure.fieldConfidence.documentNumber).toBeLessThanOrEqual(0.5);
		// A Q the recogniser never weighed is no doubt: a G read surely stands.
		const sure = decodeMrz([scores(td3[0]), scores(td3[1], { [at]: { G: 0.99 } })])!;
		expect(sure.lookalikeDoubt).not.toContain('documentNumber');
	});
	it('does not doubt a number of digits behind a letter prefix, however many zeros it has', () => {
		// ZE000509 (Canada's form): zeros at places weighted 3 and 7 would pass as O's too, but
		// issuers put no O among a prefixed number's digits; doubting it sent every such passport to a retake.
		const td3 = buildMrz('TD3', { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', documentNumber: 'ZE000509', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '320415' });
		const d = decodeMrz(td3.map((l) => scores(l)))!;
		expect(d.lines).toEqual(td3);
		expect(d.lookalikeDoubt).not.toContain('documentNumber');
		expect(d.fieldConfidence.documentNumber).toBeGreaterThan(0.9);
	});
	it('doubts a letter-prefixed number read with O’s among its digits whose checks pass all the same', () => {
		// A specimen photo (Latvia, 2026-11-29): LT0000000 read LT0000OO0, O ↔ 0 at places weighted 7
		// and 3 (24 × 10), accepted at 0.995: no issuer puts an O among a prefixed number's digits.
		const td3 = buildMrz('TD3', { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', documentNumber: 'LT0000000', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '320415' });
		const read = [td3[0], td3[1].replace('LT0000000', 'LT0000OO0')];
		const d = decodeMrz(read.map((l) => scores(l)))!;
		expect(d.lines).toEqual(read);
		expect(d.checksValid).toBe(true);
		expect(d.lookalikeDoubt).toContain('documentNumber');
		expect(d.fieldConfidence.documentNumber).toBeLessThanOrEqual(0.5);
	});
});

describe('decodeMrz with second looks at the same lines', () => {
	// ANNA's second N (position 17) is read as a filler by the first look: ERIKSSON<<AN<A<MARIA.
	const lost = scores(TD3[0], { 17: { '<': 0.6, A: 0.37 } });
	const line2 = scores(TD3[1]);

	it('gives back a glyph one look lost when the others saw it, still short of sure with one look against', () => {
		const alone = decodeMrz([lost, line2])!;
		expect(alone.lines[0]).toBe('P<UTOERIKSSON<<AN<A<MARIA<<<<<<<<<<<<<<<<<<<');
		const d = decodeMrz([lost, line2], { views: [[scores(TD3[0]), line2], [scores(TD3[0]), line2]] })!;
		expect(d.lines).toEqual(TD3);
		// Two looks of three: below MIN_FIELD_CONFIDENCE (0.75), so the page still asks for another capture.
		expect(d.fieldConfidence.firstName).toBeGreaterThan(0.6);
		expect(d.fieldConfidence.firstName).toBeLessThan(0.75);
		expect(alone.fieldConfidence.firstName).toBeLessThan(0.75);
		expect(d.fieldConfidence.documentNumber).toBeGreaterThan(0.99);
	});

	it('stays unsure where the looks are each sure of something else', () => {
		const other = scores(TD3[0], { 17: { '<': 0.999 } });
		const d = decodeMrz([scores(TD3[0]), line2], { views: [[other, line2]] })!;
		expect(d.fieldConfidence.firstName).toBeLessThan(0.6);
		expect(d.fieldConfidence.lastName).toBeGreaterThan(0.99);
	});

	it('leaves out a look the layout does not fit', () => {
		const short: MrzLineScores = { steps: 10, probs: new Float32Array(10 * (K + 1)).fill(0.02) };
		const alone = decodeMrz([lost, line2])!;
		const d = decodeMrz([lost, line2], { views: [[short, line2]] })!;
		expect(d.lines).toEqual(alone.lines);
		expect(d.fieldConfidence).toEqual(alone.fieldConfidence);
	});
});

describe('decodeMrz on what no check digit can tell apart', () => {
	const source = { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA', nationality: 'UTO', birthDate: '740812', sex: 'F' as const, expiryDate: '320415' };

	it("doubts a number whose I's at places weighted 7 and 3 the recogniser half took for 1's", () => {
		// Seed 9001 #458: ZHIBZ2IID read ZHIBZ211D under a stamp, I ↔ 1 worth 17 × (7 + 3) = 170.
		const td2 = buildMrz('TD2', { ...source, documentCode: 'I', documentNumber: 'ZHIBZ2IID' });
		const number = td2[1].slice(0, 9);
		const read = [td2[0], td2[1].replace(number, 'ZHIBZ211D')];
		const unsure = decodeMrz([scores(read[0]), scores(read[1], { 6: { '1': 0.6, I: 0.3 }, 7: { '1': 0.8, I: 0.15 } })])!;
		expect(unsure.lines).toEqual(read);
		expect(unsure.checksValid).toBe(true);
		expect(unsure.lookalikeDoubt).toContain('documentNumber');
		expect(unsure.fieldConfidence.documentNumber).toBeLessThanOrEqual(0.5);
		// Sure of its 1's, the recogniser is trusted: I/1 is not the confusion O/0 is in OCR-B.
		const sure = decodeMrz(read.map((l) => scores(l)))!;
		expect(sure.lookalikeDoubt).not.toContain('documentNumber');
		expect(sure.fieldConfidence.documentNumber).toBeGreaterThan(0.9);
	});

	it('doubts a K the recogniser was unsure of among optional data: K and a filler weigh alike under every check', () => {
		// Seed 9001 #297: 51796O344<< read 51796O344<K, the K at 0.76, and accepted.
		const td1 = buildMrz('TD1', { ...source, documentCode: 'I', documentNumber: 'D23145890', optional2: '51796O344' });
		const at = 28;
		const read = [td1[0], td1[1].slice(0, at) + 'K' + td1[1].slice(at + 1), td1[2]];
		const d = decodeMrz([scores(read[0]), scores(read[1], { [at]: { K: 0.76, '<': 0.23 } }), scores(read[2])])!;
		expect(d.lines[1][at]).toBe('K');
		expect(d.checksValid).toBe(true);
		expect(d.fieldConfidence.optionalData).toBeLessThanOrEqual(0.5);
		// Sure of it, the K stands (a K is a K in optional data too).
		const sure = decodeMrz(read.map((l) => scores(l)))!;
		expect(sure.fieldConfidence.optionalData).toBeGreaterThan(0.9);
	});

	it('doubts a K in a name where the recogniser gave a filler a real chance, not one it was sure of', () => {
		// Seed 3141 #15 under SPECIMEN: IDSAOLGUJO<DOBIXA read IDSAOLGUJOKDOBIXA, the K at 0.84 and the
		// chevron at 0.16: sure enough for the name's own confidence, and accepted wrong.
		const name = 'BOCKDIBILO<IDSAOLGUJO<DOBIXA<<';
		const td1 = buildMrz('TD1', { ...source, documentCode: 'I', documentNumber: 'D23145890', lastName: 'BOCKDIBILO IDSAOLGUJO DOBIXA', firstName: '' });
		expect(td1[2]).toBe(name);
		const at = name.indexOf('<DOBIXA');
		const read = [td1[0], td1[1], name.slice(0, at) + 'K' + name.slice(at + 1)];
		// Two frames a glyph: 0.69 / 0.30 a frame are the 0.84 / 0.16 of the position.
		const d = decodeMrz([scores(read[0]), scores(read[1]), scores(read[2], { [at]: { K: 0.69, '<': 0.3 } })])!;
		expect(d.lines[2][at]).toBe('K');
		expect(d.fieldConfidence.lastName).toBeLessThan(0.75);
		// The name's own K's (BOCK), read surely, leave it sure; so does that K read with no chevron in sight.
		const sure = decodeMrz([scores(read[0]), scores(read[1]), scores(read[2], { [at]: { K: 0.69, X: 0.3 } })])!;
		expect(sure.lines[2][at]).toBe('K');
		expect(sure.fieldConfidence.lastName).toBeGreaterThan(0.75);
	});

	it('reads two lines that start with P as a passport (TD3), never as a TD2', () => {
		// Seed 9001 #85: a TD3 with an empty personal number read as 2 × 36 under glare; the composite
		// of such a TD3 is the TD2's, so every check digit passed on the shorter lines.
		const td3 = buildMrz('TD3', { ...source, documentNumber: 'L86GBXVQ9' });
		const short = td3.map((l) => l.slice(0, 36));
		const d = decodeMrz(short.map((l) => scores(l)));
		expect(d?.layout ?? 'none').not.toBe('TD2');
		const card = buildMrz('TD2', { ...source, documentCode: 'I', documentNumber: 'L86GBXVQ9' });
		expect(decodeMrz(card.map((l) => scores(l)))!.layout).toBe('TD2');
	});
});

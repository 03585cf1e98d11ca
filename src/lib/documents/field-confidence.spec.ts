import { describe, expect, it } from 'vitest';
import { UNSEEN_LINE_CONFIDENCE, MIN_FIELD_CONFIDENCE, withLinesDoubted } from './field-confidence.ts';
import { decodeMrz, fieldsOnLines } from './mrz-decode.ts';
import { parseMrzLines } from './mrz-parse.ts';
import { scores } from '../../../tests/helpers/mrz-scores.ts';

const now = new Date('2026-12-07T00:00:00Z');
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

/** A reading as the reader gives it: the lines decoded from the recogniser's scores, then parsed. */
function read(lines: string[]) {
	const decoded = decodeMrz(lines.map((l) => scores(l)))!;
	return { ...parseMrzLines(decoded.lines, { now }), fieldConfidence: decoded.fieldConfidence };
}

describe('fieldsOnLines', () => {
	it("names each field of a passport's line: the names line, or the numbers line with its check digits", () => {
		expect(fieldsOnLines('TD3', [0]).sort()).toEqual(['documentCode', 'firstName', 'issuingCountry', 'lastName']);
		expect(fieldsOnLines('TD3', [1]).sort()).toEqual(['dateOfBirth', 'documentNumber', 'expiryDate', 'nationality', 'personalNumber', 'sex']);
	});
	it("puts a card's optional data on the lines it spans, and its names on the third", () => {
		expect(fieldsOnLines('TD1', [2]).sort()).toEqual(['firstName', 'lastName']);
		expect(fieldsOnLines('TD1', [0]).sort()).toEqual(['documentCode', 'documentNumber', 'issuingCountry', 'optionalData']);
		expect(fieldsOnLines('TD1', [1])).toContain('optionalData');
		expect(fieldsOnLines('TD1', [1])).not.toContain('documentNumber');
	});
});

describe('withLinesDoubted', () => {
	it("reports every field on a cut line in doubt, however surely it was decoded, and leaves the other line's as read", () => {
		const reading = read(TD3);
		for (const p of Object.values(reading.fieldConfidence)) expect(p).toBeGreaterThan(0.9);
		const cut = withLinesDoubted(reading, [1]);
		for (const f of ['documentNumber', 'dateOfBirth', 'expiryDate', 'nationality', 'sex', 'personalNumber'] as const) expect(cut.fieldConfidence![f]).toBe(UNSEEN_LINE_CONFIDENCE);
		for (const f of ['lastName', 'firstName', 'issuingCountry', 'documentCode'] as const) expect(cut.fieldConfidence![f]).toBe(reading.fieldConfidence[f]);
		expect(UNSEEN_LINE_CONFIDENCE).toBeLessThan(MIN_FIELD_CONFIDENCE);
		// The reading itself is not changed: it may be compared with the capture before.
		expect(reading.fieldConfidence.documentNumber).toBeGreaterThan(0.9);
		expect(cut.lines).toEqual(reading.lines);
	});
	it("keeps a field already in more doubt than a cut's, and a card's names when only its first line was cut", () => {
		const reading = read(TD1);
		const cut = withLinesDoubted({ ...reading, fieldConfidence: { ...reading.fieldConfidence, documentNumber: 0.2 } }, [0]);
		expect(cut.fieldConfidence!.documentNumber).toBe(0.2);
		expect(cut.fieldConfidence!.issuingCountry).toBe(UNSEEN_LINE_CONFIDENCE);
		expect(cut.fieldConfidence!.lastName).toBeGreaterThan(0.9);
	});
	it('leaves a reading with no cut line, or read as plain text, as it is', () => {
		const reading = read(TD3);
		expect(withLinesDoubted(reading, [])).toBe(reading);
		const text = parseMrzLines(TD3, { now });
		expect(withLinesDoubted(text, [0, 1])).toBe(text);
	});
});

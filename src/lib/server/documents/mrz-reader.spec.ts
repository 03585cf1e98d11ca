import { describe, expect, it } from 'vitest';
import { parseMrzLines } from '#lib/documents/mrz-parse.ts';
import { vouchedConfidence } from './mrz-reader.ts';

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
});

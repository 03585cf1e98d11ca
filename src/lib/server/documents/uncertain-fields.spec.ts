import { describe, expect, it } from 'vitest';
import { buildMrz, type MrzSource } from '#lib/documents/mrz-build.ts';
import { parseMrzLines } from '#lib/documents/mrz-parse.ts';
import { uncertainFields } from './document-reader.service.ts';

const now = new Date('2026-11-22T12:00:00Z');
const source: MrzSource = { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA MARIA', documentNumber: 'L898902C3', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '320415', optional: 'ZE184226B' };

describe('uncertainFields', () => {
	it('lets the visual zone vouch for a doubtful field whose check digit passes', () => {
		const reading = parseMrzLines(buildMrz('TD3', source), { now });
		reading.fieldConfidence = { lastName: 0.99, documentNumber: 0.3, dateOfBirth: 0.99 };
		expect(uncertainFields(reading)).toEqual(['documentNumber']);
		expect(uncertainFields(reading, { confirmed: ['documentNumber'], mismatched: [] })).toEqual([]);
	});

	it('never for a field whose check digit fails: the print agreeing with a misread proves nothing', () => {
		const lines = buildMrz('TD3', source);
		// The document number's O read as 0: its check digit no longer matches.
		lines[1] = 'L898902C0' + lines[1].slice(9);
		const reading = parseMrzLines(lines, { now });
		expect(reading.checks.find((c) => c.field === 'documentNumber')?.valid).toBe(false);
		reading.fieldConfidence = { lastName: 0.99, documentNumber: 0, dateOfBirth: 0.3 };
		expect(uncertainFields(reading, { confirmed: ['documentNumber', 'dateOfBirth'], mismatched: [] })).toEqual(['documentNumber']);
	});

	it('asks more of a field the printed page contradicts: no check digit covers a name', () => {
		const reading = parseMrzLines(buildMrz('TD3', source), { now });
		reading.fieldConfidence = { lastName: 0.99, firstName: 0.9, documentNumber: 0.999 };
		expect(uncertainFields(reading)).toEqual([]);
		// A name read at 0.9 stands alone; against a print that says otherwise, it does not.
		expect(uncertainFields(reading, { confirmed: [], mismatched: ['firstName'] })).toEqual(['firstName']);
		// The MRZ sure of it (a tampered page, a misprint): it stands, and MRZ_VIZ_MISMATCH says the rest.
		expect(uncertainFields(reading, { confirmed: [], mismatched: ['lastName', 'documentNumber'] })).toEqual([]);
	});
});

import { describe, expect, it } from 'vitest';
import { buildMrz, type MrzSource } from '#lib/documents/mrz-build.ts';
import { parseMrzLines } from '#lib/documents/mrz-parse.ts';
import type { VizCheck } from '#lib/documents/viz-compare.ts';
import { scores, type Glyph } from '../../../../tests/helpers/mrz-scores.ts';
import { uncertainFields, withBreaksWeighed } from './document-reader.service.ts';

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

	it('doubts a name read below 0.9 where the print, unsure, spells it with other letters', () => {
		const reading = parseMrzLines(buildMrz('TD3', { ...source, firstName: 'MARIE NAOLGUVA XA' }), { now });
		reading.fieldConfidence = { lastName: 0.95, firstName: 0.757, documentNumber: 0.8 };
		const fields = { lastName: 'unsure', firstName: 'unsure', documentNumber: 'unsure', dateOfBirth: 'agree', expiryDate: 'agree' } as const;
		const check = (read: Partial<Record<'lastName' | 'firstName', string>>): Pick<VizCheck, 'confirmed' | 'mismatched' | 'fields' | 'read'> => ({ confirmed: [], mismatched: [], fields: { ...fields }, read });
		// The print's V against the MRZ's N (its words run together, as the print's recogniser reads them).
		expect(uncertainFields(reading, check({ firstName: 'MARIEVAOLGUVAXA', lastName: 'Eriksson' }))).toEqual(['firstName']);
		// The same letters, spaced otherwise or accented: the doubt is the print's, the name stands.
		expect(uncertainFields(reading, check({ firstName: 'MARIENAOLGUVAXA' }))).toEqual([]);
		expect(uncertainFields(reading, check({ firstName: 'Marie Naolguvá-Xa' }))).toEqual([]);
		const umlaut = parseMrzLines(buildMrz('TD3', { ...source, lastName: 'MUELLER' }), { now });
		umlaut.fieldConfidence = { lastName: 0.8 };
		expect(uncertainFields(umlaut, check({ lastName: 'Müller' }))).toEqual([]);
		expect(uncertainFields(umlaut, check({ lastName: 'Möller' }))).toEqual(['lastName']);
		// Read surely enough, it stands against an unsure print.
		reading.fieldConfidence.firstName = 0.92;
		expect(uncertainFields(reading, check({ firstName: 'MARIEVAOLGUVAXA' }))).toEqual([]);
	});
});

describe('withBreaksWeighed', () => {
	// ANNA MARIA read ANNAMARIA in doubt, and the print read without its space agreeing.
	const truth = buildMrz('TD3', source);
	const runTogether = [truth[0].replace('ANNA<MARIA', 'ANNAMARIA<'), truth[1]];
	const check: VizCheck = { fields: { lastName: 'agree', firstName: 'agree', documentNumber: 'agree', dateOfBirth: 'agree', expiryDate: 'agree' }, mismatched: [], confirmed: ['lastName', 'firstName', 'documentNumber', 'dateOfBirth', 'expiryDate'], read: { firstName: 'ANNAMARIA' } };
	const reading = parseMrzLines(runTogether, { now });
	reading.fieldConfidence = { lastName: 0.99, firstName: 0.4, documentNumber: 0.99 };

	it('takes the print\'s word from a name the MRZ may have held a filler in', () => {
		// The filler and the M after it smeared: with the filler the line is likelier than without.
		const i = truth[0].indexOf('ANNA<MARIA') + 4;
		const smeared: Record<number, Glyph> = { [i]: { '<': 0.6, M: 0.35 }, [i + 1]: { M: 0.6, A: 0.35 }, [i + 2]: { A: 0.6, R: 0.35 }, [i + 3]: { R: 0.6, I: 0.35 }, [i + 4]: { I: 0.6, A: 0.35 }, [i + 5]: { A: 0.6, '<': 0.35 } };
		const weighed = withBreaksWeighed(reading, [scores(truth[0], smeared), scores(truth[1])], check);
		expect(weighed.fields.firstName).toBe('unsure');
		expect(weighed.confirmed).not.toContain('firstName');
		expect(uncertainFields(reading, weighed)).toEqual(['firstName']);
		expect(uncertainFields(reading, check)).toEqual([]);
	});

	it('leaves it where the MRZ shows the name whole, or was sure of it', () => {
		expect(withBreaksWeighed(reading, [scores(runTogether[0]), scores(truth[1])], check)).toBe(check);
		const sure = parseMrzLines(runTogether, { now });
		sure.fieldConfidence = { lastName: 0.99, firstName: 0.9, documentNumber: 0.99 };
		expect(withBreaksWeighed(sure, [scores(truth[0]), scores(truth[1])], check)).toBe(check);
	});
});

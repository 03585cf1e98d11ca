import { describe, expect, it } from 'vitest';
import { buildMrz } from './mrz-build.ts';
import { parseMrzLines, readMrzFromText } from './mrz-parse.ts';

const now = new Date('2026-11-22T12:00:00Z');

describe('parseMrzLines', () => {
	it('maps a TD3 passport to extractedData keys with ISO dates', () => {
		const r = parseMrzLines(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'], { now });
		expect(r.fields).toEqual({
			lastName: 'ERIKSSON',
			firstName: 'ANNA MARIA',
			documentNumber: 'L898902C3',
			nationality: 'UTO',
			issuingCountry: 'UTO',
			sex: 'female',
			personalNumber: 'ZE184226B',
			documentType: 'MRTD_TYPE_PASSPORT',
			documentCode: 'P',
			mrzFormat: 'TD3',
			dateOfBirth: '1974-08-12',
			expiryDate: '2012-04-15',
			expired: 'true',
			checkDigitsValid: 'true'
		});
		expect(r.errors).toEqual([]);
		expect(r.valid).toBe(true);
	});

	it('reads a TD1 card with a long document number and optional data', () => {
		const r = parseMrzLines(['IAUSA0000000033LIN1044750079<<', '5808175F1004027COD<<<<<<<<<<<7', 'SPECIMEN<<TEST<VOID<<<<<<<<<<<'], { now });
		expect(r.format).toBe('TD1');
		expect(r.fields).toMatchObject({ documentNumber: '000000003', optionalData: 'LIN1044750079', nationality: 'COD', issuingCountry: 'USA', firstName: 'TEST VOID', lastName: 'SPECIMEN', documentType: 'MRTD_TYPE_IDENITY_CARD', checkDigitsValid: 'true' });
	});

	it('reports failed check digits instead of hiding them', () => {
		const r = parseMrzLines(['C1USA0223456791EAC9730051220<<', '4910040M9411014CAN<<<<<<<<<<<0', 'CRITTENDEN<<LEE<W<<<<<<<<<<<<<'], { now });
		expect(r.fields.checkDigitsValid).toBe('false');
		expect(r.fields.documentType).toBe('MRTD_TYPE_GREEN_CARD');
		expect(r.checks.filter((c) => !c.valid).map((c) => c.field)).toEqual(['documentNumber', 'composite']);
		expect(r.errors).toContain('documentNumber check digit does not match');
		// The fields are still there.
		expect(r.fields.lastName).toBe('CRITTENDEN');
		expect(r.fields.dateOfBirth).toBe('1949-10-04');
	});

	it('parses visas (MRV-A and MRV-B) without composite check digits', () => {
		const a = parseMrzLines(['VIUSATRAVELER<<HAPPYPERSON<<<<<<<<<<<<<<<<<<', '555123ABC6GBR6502056F04122361FLND00AMS803085'], { now });
		expect(a.fields).toMatchObject({ mrzFormat: 'MRV-A', documentType: 'MRTD_TYPE_VISA', documentNumber: '555123ABC', nationality: 'GBR', issuingCountry: 'USA', dateOfBirth: '1965-02-05', expiryDate: '2004-12-23', optionalData: '1FLND00AMS803085', checkDigitsValid: 'true' });
		const b = parseMrzLines(['VCPOLKOWALSKA<KWIATKOWSKA<<BEATA<<<<', 'PL00000008POL6002084F0505011<<<<<<<0'], { now });
		expect(b.fields).toMatchObject({ mrzFormat: 'MRV-B', lastName: 'KOWALSKA KWIATKOWSKA', firstName: 'BEATA', checkDigitsValid: 'true' });
	});

	it('reports Germany as DEU and a valid document as not expired', () => {
		const lines = buildMrz('TD1', { documentCode: 'ID', issuingState: 'D', lastName: 'MUSTERMANN', firstName: 'ERIKA', documentNumber: 'T22000129', nationality: 'D', birthDate: '640812', sex: 'F', expiryDate: '310228' });
		const r = parseMrzLines(lines, { now });
		expect(r.fields).toMatchObject({ nationality: 'DEU', issuingCountry: 'DEU', expiryDate: '2031-02-28', expired: 'false', checkDigitsValid: 'true' });
	});

	it('throws on lines of no supported layout', () => {
		expect(() => parseMrzLines(['ABC', 'DEF'], { now })).toThrow();
	});
});

describe('buildMrz', () => {
	it('round-trips every layout through the parser with valid check digits', () => {
		const s = { documentCode: 'P', issuingState: 'UTO', lastName: 'DOE', firstName: 'JANE ANN', documentNumber: 'AB1234567', nationality: 'UTO', birthDate: '900101', sex: 'F' as const, expiryDate: '300101' };
		for (const layout of ['TD1', 'TD2', 'TD3', 'MRV-A', 'MRV-B'] as const) {
			const code = layout.startsWith('MRV') ? 'V' : layout === 'TD3' ? 'P' : 'I';
			const r = parseMrzLines(buildMrz(layout, { ...s, documentCode: code }), { now });
			expect(r.fields.checkDigitsValid, layout).toBe('true');
			expect(r.fields.firstName, layout).toBe('JANE ANN');
			expect(r.fields.documentNumber, layout).toBe('AB1234567');
		}
	});
});

describe('readMrzFromText', () => {
	it('goes from raw OCR lines to fields', () => {
		const r = readMrzFromText(['UTOPIA PASSPORT', 'p<uto eriksson<<anna<maria<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F12O4159ZE184226B<<<<<10'], { now });
		expect(r?.fields.documentNumber).toBe('L898902C3');
		expect(r?.fields.expiryDate).toBe('2012-04-15');
		expect(r?.lines[0]).toBe('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<');
	});

	it('returns null without an MRZ', () => {
		expect(readMrzFromText(['HELLO', 'WORLD'], { now })).toBeNull();
	});
});

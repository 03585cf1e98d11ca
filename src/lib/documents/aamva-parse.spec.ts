import { describe, expect, it } from 'vitest';
import { isAamvaPayload, parseAamva } from './aamva-parse.ts';

const now = new Date('2026-11-22T12:00:00Z');
// AAMVA 2020 (version 10) sample payload, as in benhovinga/aamva_barcode_library's README (MIT).
const V10 =
	'@\n\x1e\rANSI 636000100102DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDDGN\nDCUJR\nDCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\nDAYBRO\nDAG2300 WEST BROAD STREET\nDAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\nDCK123456789\nDDAF\nDDB06062018\nDDC06062020\nDDD1\rZVZVA01\r';

describe('parseAamva', () => {
	it('reads names, dates (MMDDCCYY), number and address of a US licence', () => {
		const r = parseAamva(V10, { now })!;
		expect(r.version).toBe(10);
		expect(r.iin).toBe('636000');
		expect(r.subfiles.map((s) => s.type)).toEqual(['DL', 'ZV']);
		expect(r.fields).toMatchObject({
			documentType: 'MRTD_TYPE_DL',
			lastName: 'SAMPLE',
			firstName: 'MICHAEL',
			middleName: 'JOHN',
			nameSuffix: 'JR',
			documentNumber: 'T64235789',
			dateOfBirth: '1986-06-06',
			expiryDate: '2024-12-10',
			issueDate: '2019-06-06',
			sex: 'male',
			issuingCountry: 'USA',
			addressStreet: '2300 WEST BROAD STREET',
			addressCity: 'RICHMOND',
			addressState: 'VA',
			addressPostalCode: '232690000',
			expired: 'true'
		});
		expect(r.errors).toEqual([]);
	});

	it('reads Canadian CCYYMMDD dates and an ID subfile', () => {
		const body = 'IDDAQ123456789\nDCSTREMBLAY\nDACJULIE\nDBB19850317\nDBA20300317\nDBC2\nDCGCAN\r';
		const text = `@\n\x1e\rANSI 636012090001ID0031${String(body.length).padStart(4, '0')}${body}`;
		const r = parseAamva(text, { now })!;
		expect(r.fields).toMatchObject({ documentType: 'MRTD_TYPE_IDENITY_CARD', dateOfBirth: '1985-03-17', expiryDate: '2030-03-17', sex: 'female', issuingCountry: 'CAN', expired: 'false' });
	});

	it('reads a version 1 full name and survives wrong offsets', () => {
		const text = '@\n\x1e\rANSI 6360050101DL00990200DLDAQD1234567\nDAAPUBLIC,JOHN,Q\nDBB19700101\nDBA20200101\r';
		const r = parseAamva(text, { now })!;
		expect(r.fields).toMatchObject({ lastName: 'PUBLIC', firstName: 'JOHN', middleName: 'Q', documentNumber: 'D1234567', dateOfBirth: '1970-01-01' });
	});

	it('ignores payloads without the AAMVA header', () => {
		expect(isAamvaPayload('hello')).toBe(false);
		expect(parseAamva('A larger PDF417 barcode with text', { now })).toBeNull();
	});
});

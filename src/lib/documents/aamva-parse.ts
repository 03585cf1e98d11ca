import { isExpired, isoDate } from './document-dates.ts';
import type { MrtdType } from './document-type.ts';
import type { ExtractedData } from './extracted-data.ts';

export interface AamvaSubfile {
	type: string;
	/** Element id (`DCS`, `DAQ`…) to its raw value. */
	elements: Record<string, string>;
}

export interface AamvaReading {
	iin: string;
	version: number;
	jurisdictionVersion: number | null;
	subfiles: AamvaSubfile[];
	documentType: MrtdType;
	documentCode: string;
	fields: ExtractedData;
	errors: string[];
	expired: boolean | null;
}

export interface ParseAamvaOptions {
	now?: Date;
}

const HEADER = /^@[\n\r\x1e]{1,4}(ANSI |AAMVA)(\d{6})(\d{2})/;

/** True when a barcode payload starts with the AAMVA DL/ID compliance header. */
export function isAamvaPayload(text: string): boolean {
	return HEADER.test(text);
}

function readElements(body: string): Record<string, string> {
	const elements: Record<string, string> = {};
	for (const part of body.split(/[\n\r\x1e]+/)) {
		const m = /^([A-Z]{3})(.*)$/s.exec(part);
		if (m && !(m[1] in elements)) elements[m[1]] = m[2];
	}
	return elements;
}

function readSubfiles(text: string, afterHeader: number, version: number): { subfiles: AamvaSubfile[]; jurisdictionVersion: number | null } {
	// Version 1 has no jurisdiction version: entries count follows the version directly.
	let pos = afterHeader;
	let jurisdictionVersion: number | null = null;
	if (version >= 2) {
		jurisdictionVersion = Number(text.slice(pos, pos + 2));
		pos += 2;
	}
	const entries = Number(text.slice(pos, pos + 2));
	pos += 2;
	const subfiles: AamvaSubfile[] = [];
	const designators: { type: string; offset: number; length: number }[] = [];
	for (let i = 0; i < (Number.isFinite(entries) ? entries : 0); i++) {
		const d = text.slice(pos, pos + 10);
		pos += 10;
		const m = /^([A-Z]{2})(\d{4})(\d{4})$/.exec(d);
		if (m) designators.push({ type: m[1], offset: Number(m[2]), length: Number(m[3]) });
	}
	for (const d of designators) {
		let start = d.offset;
		// Offsets are often off by a few bytes in the field; fall back to searching for the type.
		if (text.slice(start, start + 2) !== d.type) {
			const found = text.indexOf(d.type, pos);
			if (found < 0) continue;
			start = found;
		}
		const end = start === d.offset ? start + d.length : text.indexOf('\r', start) + 1 || text.length;
		subfiles.push({ type: d.type, elements: readElements(text.slice(start + 2, end)) });
	}
	if (subfiles.length === 0) {
		// No usable designators: treat everything after the header as one DL subfile.
		const dl = text.indexOf('DL', pos);
		const body = dl >= 0 ? text.slice(dl + 2) : text.slice(pos);
		subfiles.push({ type: dl >= 0 ? 'DL' : 'ZZ', elements: readElements(body) });
	}
	return { subfiles, jurisdictionVersion };
}

/** AAMVA dates are MMDDCCYY in the US and CCYYMMDD in Canada; the other order is tried when the first does not form a date. */
function aamvaDate(raw: string | undefined, country: string | undefined): string | null {
	if (!raw) return null;
	const v = raw.trim();
	if (!/^\d{8}$/.test(v)) return null;
	const us = () => isoDate(Number(v.slice(4, 8)), Number(v.slice(0, 2)), Number(v.slice(2, 4)));
	const ca = () => isoDate(Number(v.slice(0, 4)), Number(v.slice(4, 6)), Number(v.slice(6, 8)));
	return country === 'CAN' ? (ca() ?? us()) : (us() ?? ca());
}

const SEX: Record<string, string> = { '1': 'male', '2': 'female', '9': 'unspecified', M: 'male', F: 'female', X: 'unspecified' };

function present(value: string | undefined): string | undefined {
	const v = value?.trim();
	if (!v || /^(NONE|UNAVL|UNAVAILABLE)$/i.test(v)) return undefined;
	return v;
}

/**
 * Parses the text of an AAMVA DL/ID PDF417 (any version 1–10) into extractedData keys, addresses
 * included. Null when the text does not carry the AAMVA header.
 */
export function parseAamva(text: string, options: ParseAamvaOptions = {}): AamvaReading | null {
	const now = options.now ?? new Date();
	const header = HEADER.exec(text);
	if (!header) return null;
	const iin = header[2];
	const version = Number(header[3]);
	const { subfiles, jurisdictionVersion } = readSubfiles(text, header[0].length, version);
	const main = subfiles.find((s) => s.type === 'DL') ?? subfiles.find((s) => s.type === 'ID') ?? subfiles[0];
	const e = main.elements;
	const errors: string[] = [];
	const country = present(e.DCG)?.toUpperCase();

	let lastName = present(e.DCS) ?? present(e.DAB);
	let firstName = present(e.DAC) ?? present(e.DCT);
	let middleName = present(e.DAD);
	if (!lastName && present(e.DAA)) {
		// Version 1 full name: LAST,FIRST,MIDDLE (some issuers use spaces).
		const parts = present(e.DAA)!.split(/,|\s+/).filter(Boolean);
		[lastName, firstName, middleName] = [parts[0], parts[1], parts.slice(2).join(' ') || undefined];
	}
	if (firstName && !middleName && /,/.test(firstName)) {
		const [f, ...m] = firstName.split(',');
		firstName = f.trim();
		middleName = m.join(' ').trim() || undefined;
	}

	const documentCode = main.type === 'ID' ? 'ID' : 'DL';
	const documentType: MrtdType = documentCode === 'ID' ? 'MRTD_TYPE_IDENITY_CARD' : 'MRTD_TYPE_DL';
	const fields: ExtractedData = {
		documentType,
		documentCode,
		issuerIdentificationNumber: iin,
		aamvaVersion: String(version)
	};
	const put = (key: keyof ExtractedData, value: string | null | undefined) => {
		if (value) fields[key] = value;
	};
	put('lastName', lastName);
	put('firstName', firstName);
	put('middleName', middleName);
	put('nameSuffix', present(e.DCU));
	put('documentNumber', present(e.DAQ));
	put('sex', SEX[present(e.DBC)?.toUpperCase() ?? '']);
	put('issuingCountry', country);
	put('addressStreet', [present(e.DAG), present(e.DAH)].filter(Boolean).join(', '));
	put('addressCity', present(e.DAI));
	put('addressState', present(e.DAJ));
	put('addressPostalCode', present(e.DAK));
	put('addressCountry', country);
	put('documentDiscriminator', present(e.DCF));
	put('vehicleClass', present(e.DCA));

	const dob = aamvaDate(e.DBB, country);
	const expiry = aamvaDate(e.DBA, country);
	const issue = aamvaDate(e.DBD, country);
	put('dateOfBirth', dob);
	put('issueDate', issue);
	let expired: boolean | null = null;
	if (expiry) {
		fields.expiryDate = expiry;
		expired = isExpired(expiry, now);
		fields.expired = String(expired);
	}
	if (!fields.documentNumber) errors.push('DAQ (document number) missing');
	if (e.DBB !== undefined && !dob) errors.push(`DBB (date of birth) unreadable: ${e.DBB}`);
	if (e.DBA !== undefined && !expiry) errors.push(`DBA (expiry date) unreadable: ${e.DBA}`);
	if (!lastName) errors.push('DCS (family name) missing');
	return { iin, version, jurisdictionVersion, subfiles, documentType, documentCode, fields, errors, expired };
}

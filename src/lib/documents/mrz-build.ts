import { mrzCheckDigit } from './check-digit.ts';

/** Fields to compose an MRZ from (dates `YYMMDD`, names as plain upper-case words). */
export interface MrzSource {
	documentCode: string;
	issuingState: string;
	lastName: string;
	firstName: string;
	documentNumber: string;
	nationality: string;
	birthDate: string;
	sex: 'M' | 'F' | '<';
	expiryDate: string;
	/** TD3 personal number, TD1/TD2 optional data. */
	optional?: string;
	/** TD1 optional data of line 2. */
	optional2?: string;
}

const pad = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);
const field = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]+/g, '<');
const cd = (s: string) => String(mrzCheckDigit(s));

function nameField(s: MrzSource, length: number): string {
	return pad(`${field(s.lastName)}<<${field(s.firstName)}`, length);
}

/**
 * Composes ICAO 9303 MRZ lines with correct check digits — for fixtures, tests and demos; a reader
 * never needs it.
 */
export function buildMrz(layout: 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B', s: MrzSource): string[] {
	const code = pad(s.documentCode, 2);
	const state = pad(s.issuingState, 3);
	const nat = pad(s.nationality, 3);
	const num = pad(s.documentNumber, 9);
	if (layout === 'TD1') {
		const l1 = pad(code + state + num + cd(num) + pad(s.optional ?? '', 15), 30);
		const partial = s.birthDate + cd(s.birthDate) + s.sex + s.expiryDate + cd(s.expiryDate) + nat + pad(s.optional2 ?? '', 11);
		const composite = cd(l1.slice(5, 30) + partial.slice(0, 7) + partial.slice(8, 15) + partial.slice(18, 29));
		return [l1, partial + composite, nameField(s, 30)];
	}
	const len = layout === 'TD3' || layout === 'MRV-A' ? 44 : 36;
	const l1 = code + state + nameField(s, len - 5);
	const head = num + cd(num) + nat + s.birthDate + cd(s.birthDate) + s.sex + s.expiryDate + cd(s.expiryDate);
	if (layout === 'MRV-A' || layout === 'MRV-B') return [l1, pad(head + (s.optional ?? ''), len)];
	if (layout === 'TD3') {
		const personal = pad(s.optional ?? '', 14);
		const body = head + personal + (/^<+$/.test(personal) ? '<' : cd(personal));
		return [l1, body + cd(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43))];
	}
	const body = head + pad(s.optional ?? '', 7);
	return [l1, body + cd(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 35))];
}

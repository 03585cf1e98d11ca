import { describe, expect, it } from 'vitest';
import { compareDate, compareDocumentNumber, compareName, compareVizWithMrz, mrzFormsOf, parsePrintedDate, transliterateName, type MrzSide, type VizText } from './viz-compare.ts';

/** A VIZ reading with every glyph read at probability `p`. */
const sure = (text: string, p = 0.99): VizText => ({ text, charConfidences: [...text].map(() => p) });

describe('ICAO 9303 transliteration', () => {
	it('spells out umlauts and ligatures, drops other diacritics', () => {
		expect(transliterateName('Müller-Lüdenscheidt')).toBe('MUELLER LUEDENSCHEIDT');
		expect(transliterateName('Øre Åsa Æsir')).toBe('OERE AASA AESIR');
		expect(transliterateName("D'Arcy Straße")).toBe('DARCY STRASSE');
		expect(transliterateName('Élodie Čapek Şahin')).toBe('ELODIE CAPEK SAHIN');
		expect(mrzFormsOf('Ä')).toEqual(['AE', 'A']);
		expect(mrzFormsOf('ñ')).toEqual(['N', 'NXX']);
		expect(mrzFormsOf("'")).toEqual([]);
	});
});

describe('compareName', () => {
	it('agrees with either of 9303 spellings of a printed umlaut', () => {
		expect(compareName(sure('MÜLLER'), 'MUELLER')).toBe('agree');
		expect(compareName(sure('MÜLLER'), 'MULLER')).toBe('agree');
		expect(compareName(sure('Jean-Luc'), 'JEAN LUC')).toBe('agree');
		expect(compareName(sure('ÉLODIE'), 'ELODIE')).toBe('agree');
	});

	it('is unsure, never a mismatch, when the recogniser may have dropped the diacritic', () => {
		// Printed MÜLLER, read MULLER (the recogniser lacks Ü), MRZ MUELLER.
		expect(compareName(sure('MULLER'), 'MUELLER')).toBe('unsure');
	});

	it('calls a confidently read different letter a mismatch, an unsure or look-alike one doubt', () => {
		expect(compareName(sure('SMITH'), 'SMYTH')).toBe('disagree');
		expect(compareName({ text: 'SMITH', charConfidences: [0.99, 0.99, 0.5, 0.99, 0.99] }, 'SMYTH')).toBe('unsure');
		expect(compareName(sure('B0B'), 'BOB')).toBe('unsure');
		// A glyph missing from the VIZ reading (narrow I): doubt.
		expect(compareName(sure('KRK'), 'KIRK')).toBe('unsure');
	});

	it('takes a wholly different name for another text of the page, not a tampered one', () => {
		expect(compareName(sure('REMARQUES'), 'MUELLER')).toBe('unsure');
		expect(compareName(sure('SCHMIDT'), 'MUELLER')).toBe('unsure');
		expect(compareName(sure('MUELLIR'), 'MUELLER')).toBe('disagree');
	});

	it('does not vouch with glyphs read below the agreement bar', () => {
		expect(compareName(sure('ANNA', 0.85), 'ANNA')).toBe('unsure');
	});

	it('lets the VIZ go on after a truncated MRZ name', () => {
		expect(compareName(sure('MARIA ALEXANDRA'), 'MARIA ALEX', true)).toBe('agree');
		expect(compareName(sure('MARIA ALEXANDRA'), 'MARIA ALEX', false)).toBe('unsure');
	});
});

describe('compareDocumentNumber', () => {
	it('ignores spaces printed in the number, treats look-alikes as doubt', () => {
		expect(compareDocumentNumber(sure('X4R 7K2 M91'), 'X4R7K2M91')).toBe('agree');
		expect(compareDocumentNumber(sure('S070DNT98'), 'SO7ODNT98')).toBe('unsure');
		expect(compareDocumentNumber(sure('X4R7K3M91'), 'X4R7K2M91')).toBe('disagree');
		expect(compareDocumentNumber(sure('X4'), 'X4R7K2M91')).toBe('notChecked');
		// No digit: a word under the caption, not a number.
		expect(compareDocumentNumber(sure('PASSEPORT'), 'L898902C3')).toBe('notChecked');
	});
});

describe('printed dates', () => {
	it('reads the formats data pages print', () => {
		const one = (t: string) => parsePrintedDate(t)[0];
		expect(one('12 JAN 1990')).toEqual({ year: 1990, shortYear: false, month: 1, day: 12 });
		expect(one('12 JANV/JAN 90')).toEqual({ year: 90, shortYear: true, month: 1, day: 12 });
		expect(one('03 AOÛT/AUG 2031')).toEqual({ year: 2031, shortYear: false, month: 8, day: 3 });
		expect(one('12.01.1990')).toEqual({ year: 1990, shortYear: false, month: 1, day: 12 });
		expect(one('1990-01-12')).toEqual({ year: 1990, shortYear: false, month: 1, day: 12 });
		expect(one('12/01/90')).toEqual({ year: 90, shortYear: true, month: 1, day: 12 });
		expect(one('12011990')).toEqual({ year: 1990, shortYear: false, month: 1, day: 12 });
		expect(parsePrintedDate('31.02.1990')).toEqual([]);
		expect(parsePrintedDate('UTOPIA')).toEqual([]);
		// Only the US order makes a real date of 01/25/1990.
		expect(parsePrintedDate('01/25/1990')).toEqual([{ year: 1990, shortYear: false, month: 1, day: 25 }]);
	});

	it('compares with the MRZ date: agreement, mismatch, doubt', () => {
		expect(compareDate(sure('12 JAN 1990'), '1990-01-12')).toBe('agree');
		expect(compareDate(sure('12/01/90'), '1990-01-12')).toBe('agree');
		expect(compareDate(sure('13 JAN 1990'), '1990-01-12')).toBe('disagree');
		// Matches only when read month first: doubt, not agreement.
		expect(compareDate(sure('01/12/1990'), '1990-01-12')).toBe('unsure');
		// An unsure digit cannot contradict.
		expect(compareDate({ text: '13.01.1990', charConfidences: [0.99, 0.6, 1, 1, 1, 1, 1, 1, 1, 1] }, '1990-01-12')).toBe('unsure');
		expect(compareDate(sure('no date here'), '1990-01-12')).toBe('notChecked');
		// Far from it in most digits: another date of the page (issue) under the caption, doubt.
		expect(compareDate(sure('27.03.2015'), '1990-01-12')).toBe('unsure');
		expect(compareDate(sure('12.01.1997'), '1990-01-12')).toBe('disagree');
	});
});

describe('compareVizWithMrz', () => {
	const mrz: MrzSide = { lastName: 'MUELLER', firstName: 'ANNA MARIA', documentNumber: 'C01X00T47', dateOfBirth: '1974-08-12', expiryDate: '2031-10-31', namesTruncated: false };

	it('confirms the fields a genuine page prints alike and names none mismatched', () => {
		const check = compareVizWithMrz({ lastName: sure('MÜLLER'), firstName: sure('Anna-Maria'), documentNumber: sure('C01X00T47'), dateOfBirth: sure('12.08.1974'), expiryDate: sure('31 OCT/OCT 31') }, [], mrz);
		expect(check.mismatched).toEqual([]);
		expect(check.confirmed).toEqual(['lastName', 'firstName', 'documentNumber', 'dateOfBirth', 'expiryDate']);
	});

	it('names the tampered field', () => {
		const check = compareVizWithMrz({ lastName: sure('MÜLLER'), firstName: sure('ANNA MARIA'), documentNumber: sure('C01X00T47'), dateOfBirth: sure('12.08.1979') }, [], mrz);
		expect(check.mismatched).toEqual(['dateOfBirth']);
		expect(check.fields.expiryDate).toBe('notChecked');
	});

	it('never calls an unread field a mismatch; an unlabelled exact text may vouch, never contradict', () => {
		const check = compareVizWithMrz({}, [sure('C01X00T47'), sure('SMITH'), sure('01.01.2000')], mrz);
		expect(check.fields).toEqual({ lastName: 'notChecked', firstName: 'notChecked', documentNumber: 'agree', dateOfBirth: 'notChecked', expiryDate: 'notChecked' });
		expect(check.mismatched).toEqual([]);
	});
});

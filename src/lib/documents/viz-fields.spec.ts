import { describe, expect, it } from 'vitest';
import { captionOf, containsWord, findLabelledValues, type PlacedText } from './viz-fields.ts';

const at = (text: string, x0: number, y0: number, h: number, w = text.length * h * 0.6): PlacedText => ({ text, charConfidences: [...text].map(() => 0.99), x0, x1: x0 + w, y0, y1: y0 + h });

describe('captions', () => {
	it('knows the captions of data pages in several languages, run together or misread by a letter', () => {
		expect(captionOf('Surname / Nom')).toBe('lastName');
		expect(captionOf('Name / Nom')).toBe('lastName');
		expect(captionOf('Apellidos / Surname')).toBe('lastName');
		expect(captionOf('Given names/Prénoms')).toBe('firstName');
		expect(captionOf('Vornamen / Given names')).toBe('firstName');
		expect(captionOf('Passport No./No. du passeport')).toBe('documentNumber');
		expect(captionOf('PassprtNo/ No.dupasseport')).toBe('documentNumber');
		expect(captionOf('Dateofbirth/Datedenaissance')).toBe('dateOfBirth');
		expect(captionOf('Geburtsdatum / Date of birth')).toBe('dateOfBirth');
		expect(captionOf('Datefexpiryaexpiron')).toBe('expiryDate');
		expect(captionOf('Gültig bis / Date of expiry')).toBe('expiryDate');
	});

	it('does not take other captions or values for these', () => {
		expect(captionOf('Place of birth / Lieu de naissance')).toBeNull();
		expect(captionOf('Nationality/Nationalité')).toBeNull();
		expect(captionOf('Date of issue')).toBeNull();
		expect(captionOf('OKONKWO BRANDT')).toBeNull();
		expect(captionOf('12.01.1990')).toBeNull();
	});

	it('matches words with one glyph wrong only when they are long enough to be sure', () => {
		expect(containsWord('suname/nom', 'surname')).toBe(true);
		expect(containsWord('xbirtx', 'birth')).toBe(false);
	});
});

describe('findLabelledValues', () => {
	it('takes the value printed under each caption, not the next caption or a far text', () => {
		const texts = [
			at('Surname / Nom', 40, 10, 2),
			at('OKONKWO BRANDT', 40, 12.6, 3.2),
			at('Given names / Prénoms', 40, 18, 2),
			at('SAMUEL', 40.4, 20.6, 3.2),
			at('Date of birth', 40, 26, 2),
			at('04.08.1961', 40, 28.6, 3.2),
			at('Sex', 75, 26, 2),
			at('M', 75, 28.6, 3.2),
			at('Date of expiry', 40, 34, 2),
			// The expiry value is missing (not detected): the caption must not take a far text.
			at('UTOPIA', 5, 60, 4)
		];
		const found = findLabelledValues(texts);
		expect(found.lastName?.text).toBe('OKONKWO BRANDT');
		expect(found.firstName?.text).toBe('SAMUEL');
		expect(found.dateOfBirth?.text).toBe('04.08.1961');
		expect(found.expiryDate).toBeUndefined();
		expect(found.documentNumber).toBeUndefined();
	});

	it('does not take a wrapped caption or a heading under a caption for its value', () => {
		// The caption's second line is skipped; the number under it is the value.
		const found = findLabelledValues([at('Passport No./No. du', 80, 10, 2), at('passeport', 80, 12.4, 2), at('L898902C3', 80, 15, 3.2)]);
		expect(found.documentNumber?.text).toBe('L898902C3');
		const below = findLabelledValues([at('Passport No.', 80, 10, 2), at('PASSEPORT', 80, 12.4, 3)]);
		expect(below.documentNumber).toBeUndefined();
	});
});

import { describe, expect, it } from 'vitest';
import { checkDigitMatches, mrzCheckDigit } from './check-digit.ts';

describe('mrzCheckDigit', () => {
	it('computes the ICAO 9303 specimen check digits', () => {
		expect(mrzCheckDigit('L898902C3')).toBe(6);
		expect(mrzCheckDigit('740812')).toBe(2);
		expect(mrzCheckDigit('120415')).toBe(9);
		expect(mrzCheckDigit('ZE184226B<<<<<')).toBe(1);
		// TD3 composite: document number + check, birth date + check, expiry + check + personal number + check.
		expect(mrzCheckDigit('L898902C36' + '7408122' + '1204159ZE184226B<<<<<1')).toBe(0);
	});

	it('rejects characters outside the MRZ set', () => {
		expect(mrzCheckDigit('ab1')).toBe(-1);
		expect(checkDigitMatches('ab1', '0')).toBe(false);
	});

	it('accepts a filler check digit only where the digit would be 0', () => {
		expect(checkDigitMatches('<<<<<<<<<<<<<<', '<')).toBe(true);
		expect(checkDigitMatches('L898902C3', '<')).toBe(false);
		expect(checkDigitMatches('L898902C3', '6')).toBe(true);
	});
});

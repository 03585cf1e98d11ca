import { describe, expect, it } from 'vitest';
import { isExpired, isoDate, resolveYymmdd } from './document-dates.ts';

const now = new Date('2026-11-22T10:00:00Z');

describe('resolveYymmdd', () => {
	it('puts birth dates in the past', () => {
		expect(resolveYymmdd('740812', 'birth', now)).toBe('1974-08-12');
		expect(resolveYymmdd('150101', 'birth', now)).toBe('2015-01-01');
		// Later this year than today: last century.
		expect(resolveYymmdd('261231', 'birth', now)).toBe('1926-12-31');
		expect(resolveYymmdd('261122', 'birth', now)).toBe('2026-11-22');
	});

	it('lets expiry dates lie up to 50 years ahead', () => {
		expect(resolveYymmdd('340709', 'expiry', now)).toBe('2034-07-09');
		expect(resolveYymmdd('120415', 'expiry', now)).toBe('2012-04-15');
		expect(resolveYymmdd('760101', 'expiry', now)).toBe('2076-01-01');
		expect(resolveYymmdd('990101', 'expiry', now)).toBe('1999-01-01');
	});

	it('refuses impossible dates and unknown parts', () => {
		expect(resolveYymmdd('740231', 'birth', now)).toBeNull();
		expect(resolveYymmdd('74<<12', 'birth', now)).toBeNull();
		expect(isoDate(2024, 2, 29)).toBe('2024-02-29');
		expect(isoDate(2023, 2, 29)).toBeNull();
	});
});

describe('isExpired', () => {
	it('treats the expiry day itself as still valid', () => {
		expect(isExpired('2026-11-22', now)).toBe(false);
		expect(isExpired('2026-11-21', now)).toBe(true);
	});
});

/** A calendar date as `YYYY-MM-DD`, or null when the parts do not form a real date. */
export function isoDate(year: number, month: number, day: number): string | null {
	if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
	if (month < 1 || month > 12 || day < 1) return null;
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (day > daysInMonth) return null;
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Today's date (UTC) as `YYYY-MM-DD`. */
export function todayIso(now: Date): string {
	return now.toISOString().slice(0, 10);
}

export type DateRole = 'birth' | 'expiry' | 'issue';

/**
 * Resolves a two-digit-year MRZ date (`YYMMDD`) to ISO. Birth and issue dates lie in the past, so the
 * latest century that does not put them after today wins. Expiry dates may lie up to 50 years ahead
 * (ICAO 9303 practice), so `20YY` unless that is more than 50 years away.
 */
export function resolveYymmdd(yymmdd: string, role: DateRole, now: Date): string | null {
	if (!/^\d{6}$/.test(yymmdd)) return null;
	const yy = Number(yymmdd.slice(0, 2));
	const month = Number(yymmdd.slice(2, 4));
	const day = Number(yymmdd.slice(4, 6));
	const today = todayIso(now);
	const thisYear = now.getUTCFullYear();
	if (role === 'expiry') {
		const year = 2000 + yy > thisYear + 50 ? 1900 + yy : 2000 + yy;
		return isoDate(year, month, day);
	}
	const recent = isoDate(2000 + yy, month, day);
	if (recent === null) return isoDate(1900 + yy, month, day);
	return recent <= today ? recent : isoDate(1900 + yy, month, day);
}

/** True when the ISO expiry date is before today (a document is valid through its expiry day). */
export function isExpired(expiryIso: string, now: Date): boolean {
	return expiryIso < todayIso(now);
}

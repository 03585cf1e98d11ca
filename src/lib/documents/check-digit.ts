const WEIGHTS = [7, 3, 1] as const;

function charValue(char: string): number {
	if (char === '<') return 0;
	const code = char.charCodeAt(0);
	if (code >= 48 && code <= 57) return code - 48;
	if (code >= 65 && code <= 90) return code - 55;
	return -1;
}

/** ICAO 9303 check digit (weights 7-3-1, `<` = 0, A = 10 … Z = 35); -1 for characters outside the MRZ set. */
export function mrzCheckDigit(value: string): number {
	let sum = 0;
	for (let i = 0; i < value.length; i++) {
		const v = charValue(value.charAt(i));
		if (v < 0) return -1;
		sum += v * WEIGHTS[i % 3];
	}
	return sum % 10;
}

/** True when `digit` is the check digit of `value`; a filler `<` stands for 0 where ICAO allows it. */
export function checkDigitMatches(value: string, digit: string): boolean {
	const expected = mrzCheckDigit(value);
	if (expected < 0) return false;
	if (digit === '<') return expected === 0;
	return digit === String(expected);
}

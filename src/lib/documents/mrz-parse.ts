import { parse as parseWithMrzPackage, type ParseResult } from 'mrz';
import { checkDigitMatches } from './check-digit.ts';
import { isExpired, resolveYymmdd } from './document-dates.ts';
import { classifyMrz, type MrtdType, type MrzFormat } from './document-type.ts';
import type { ExtractedData } from './extracted-data.ts';
import type { MrzConfidenceField } from './mrz-decode.ts';
import { cleanMrzLine, findMrzCandidate, type MrzCorrection } from './mrz-lines.ts';

export interface MrzCheck {
	field: string;
	valid: boolean;
}

export interface MrzReading {
	format: MrzFormat;
	/** The lines that were parsed, after cleaning and repair. */
	lines: string[];
	documentType: MrtdType;
	documentCode: string;
	fields: ExtractedData;
	checks: MrzCheck[];
	checkDigitsValid: boolean;
	/** Every field well-formed (check digits, dates, known state codes…). */
	valid: boolean;
	errors: string[];
	corrections: MrzCorrection[];
	expired: boolean | null;
	/**
	 * How sure the recogniser was of each field (0–1), when the lines were decoded from its
	 * probabilities (mrz-decode.ts); absent for lines read as plain text.
	 */
	fieldConfidence?: Partial<Record<MrzConfidenceField, number>>;
	/** Fields in doubt only over look-alikes the check digits cannot see (mrz-decode.ts `lookalikeDoubt`): not for the visual zone to settle. */
	lookalikeDoubt?: MrzConfidenceField[];
	/** Optional data mended to meet the composite (mrz-decode.ts `repairOptionalData`): another reading that passes as read is preferred. */
	mended?: boolean;
	/** Glyphs ("line:position") the pixels clearly told from their look-alike, read as they saw them (mrz-decode.ts `seen`). */
	seen?: string[];
}

export interface ParseMrzOptions {
	now?: Date;
}

const SEX: Record<string, string> = { M: 'male', F: 'female', '<': 'unspecified', X: 'unspecified' };

function stateCode(raw: string): string {
	const code = raw.replace(/</g, '');
	// Germany is the one issuer whose MRZ code is not three letters; integrators expect ISO alpha-3.
	return code === 'D' ? 'DEU' : code;
}

function namesFrom(nameField: string): { lastName: string; firstName: string } {
	const trimmed = nameField.replace(/<+$/, '');
	const split = trimmed.indexOf('<<');
	const last = split < 0 ? trimmed : trimmed.slice(0, split);
	const first = split < 0 ? '' : trimmed.slice(split + 2);
	const tidy = (s: string) => s.replace(/<+/g, ' ').trim();
	return { lastName: tidy(last), firstName: tidy(first) };
}

const tidyOptional = (s: string) => s.replace(/<+/g, ' ').trim();

function finish(
	format: MrzFormat,
	lines: string[],
	documentCode: string,
	issuing: string,
	base: ExtractedData,
	rawDates: { birth: string; expiry: string },
	checks: MrzCheck[],
	errors: string[],
	corrections: MrzCorrection[],
	now: Date
): MrzReading {
	const documentType = classifyMrz(documentCode, format, issuing);
	const fields: ExtractedData = { ...base, documentType, documentCode, mrzFormat: format };
	const dob = resolveYymmdd(rawDates.birth, 'birth', now);
	const expiry = resolveYymmdd(rawDates.expiry, 'expiry', now);
	if (dob) fields.dateOfBirth = dob;
	else errors.push(`birth date unreadable: ${rawDates.birth}`);
	let expired: boolean | null = null;
	if (expiry) {
		fields.expiryDate = expiry;
		expired = isExpired(expiry, now);
		fields.expired = String(expired);
	} else errors.push(`expiry date unreadable: ${rawDates.expiry}`);
	const checkDigitsValid = checks.every((c) => c.valid);
	fields.checkDigitsValid = String(checkDigitsValid);
	for (const c of checks) if (!c.valid) errors.push(`${c.field} check digit does not match`);
	for (const key of Object.keys(fields) as (keyof ExtractedData)[]) if (fields[key] === '') delete fields[key];
	return {
		format,
		lines,
		documentType,
		documentCode,
		fields,
		checks,
		checkDigitsValid,
		valid: errors.length === 0,
		errors,
		corrections,
		expired
	};
}

function fromPackage(lines: string[], corrections: MrzCorrection[], now: Date): MrzReading {
	const result: ParseResult = parseWithMrzPackage(lines, { autocorrect: true });
	for (const d of result.details)
		for (const a of d.autocorrect)
			corrections.push({ line: a.line, column: a.column, from: a.original, to: a.corrected, reason: 'character-class' });
	const raw = (field: string) => {
		const d = result.details.find((x) => x.field === field);
		if (!d) return '';
		return lines[d.line].slice(d.start, d.end);
	};
	const checks: MrzCheck[] = result.details
		.filter((d) => d.field !== null && d.field.endsWith('CheckDigit'))
		.map((d) => ({ field: d.field!.replace(/CheckDigit$/, ''), valid: d.valid }));
	const errors = result.details
		.filter((d) => !d.valid && !(d.field ?? '').endsWith('CheckDigit'))
		// UTO (Utopia) is ICAO 9303's code for specimens; the package does not know it.
		.filter((d) => !(d.error ?? '').endsWith('invalid state code: UTO'))
		.map((d) => `${d.label}: ${d.error ?? 'invalid'}`);
	const f = result.fields;
	const documentCode = raw('documentCode').replace(/<+$/, '') || lines[0].slice(0, 2).replace(/<+$/, '');
	const issuing = stateCode(raw('issuingState'));
	// The package nulls a field when it is invalid; the raw characters are still the best reading.
	const names = f.lastName != null && f.firstName != null ? { lastName: f.lastName, firstName: f.firstName } : null;
	const base: ExtractedData = {
		lastName: names?.lastName ?? '',
		firstName: names?.firstName ?? '',
		documentNumber: (result.documentNumber ?? raw('documentNumber')).replace(/[<\s]/g, ''),
		nationality: stateCode(raw('nationality')),
		issuingCountry: issuing,
		sex: SEX[raw('sex')] ?? '',
		personalNumber: tidyOptional(raw('personalNumber')),
		optionalData: tidyOptional([raw('optional1'), raw('optional2')].filter(Boolean).join('<'))
	};
	if (!names) {
		const nameLine = result.format === 'TD1' ? lines[2] : lines[0].slice(5);
		Object.assign(base, namesFrom(nameLine));
	}
	return finish(
		result.format as MrzFormat,
		lines,
		documentCode,
		issuing,
		base,
		{ birth: raw('birthDate'), expiry: raw('expirationDate') },
		checks,
		errors,
		corrections,
		now
	);
}

/** Machine-readable visas (ICAO 9303 part 7): like TD3/TD2 but without composite or personal number check. */
function parseVisa(lines: string[], format: 'MRV-A' | 'MRV-B', corrections: MrzCorrection[], now: Date): MrzReading {
	const [l1, l2] = lines;
	const documentCode = l1.slice(0, 2).replace(/<+$/, '');
	const issuing = stateCode(l1.slice(2, 5));
	const checks: MrzCheck[] = [
		{ field: 'documentNumber', valid: checkDigitMatches(l2.slice(0, 9), l2.charAt(9)) },
		{ field: 'birthDate', valid: checkDigitMatches(l2.slice(13, 19), l2.charAt(19)) },
		{ field: 'expirationDate', valid: checkDigitMatches(l2.slice(21, 27), l2.charAt(27)) }
	];
	const errors: string[] = [];
	if (!/^V[A-Z<]$/.test(l1.slice(0, 2))) errors.push(`Document code: ${l1.slice(0, 2)} is not a visa code`);
	const sex = SEX[l2.charAt(20)];
	if (!sex) errors.push(`Sex: invalid ${l2.charAt(20)}`);
	const base: ExtractedData = {
		...namesFrom(l1.slice(5)),
		documentNumber: l2.slice(0, 9).replace(/</g, ''),
		nationality: stateCode(l2.slice(10, 13)),
		issuingCountry: issuing,
		sex: sex ?? '',
		optionalData: tidyOptional(l2.slice(28))
	};
	return finish(format, lines, documentCode, issuing, base, { birth: l2.slice(13, 19), expiry: l2.slice(21, 27) }, checks, errors, corrections, now);
}

/**
 * Parses MRZ lines that already have their layout's exact lengths (TD1 3×30, TD2 2×36, TD3 2×44,
 * MRV-A 2×44 and MRV-B 2×36 starting with `V`). Invalid fields and failed check digits are kept and
 * reported, never dropped. Throws when the lines match no supported layout.
 */
export function parseMrzLines(lines: readonly string[], options: ParseMrzOptions = {}, corrections: MrzCorrection[] = []): MrzReading {
	const now = options.now ?? new Date();
	const ls = lines.slice();
	if (ls.length === 2 && ls[0].startsWith('V') && (ls[0].length === 44 || ls[0].length === 36)) {
		return parseVisa(ls, ls[0].length === 44 ? 'MRV-A' : 'MRV-B', corrections, now);
	}
	return fromPackage(ls, corrections, now);
}

/**
 * Finds, repairs and parses the MRZ among OCR'd text lines (top to bottom, any characters):
 * the one entry point for OCR output. Null when no group of lines looks like an MRZ.
 */
export function readMrzFromText(ocrLines: readonly string[], options: ParseMrzOptions = {}): MrzReading | null {
	const candidate = findMrzCandidate(ocrLines.map(cleanMrzLine));
	if (!candidate) return null;
	try {
		return parseMrzLines(candidate.lines, options, candidate.corrections.slice());
	} catch {
		return null;
	}
}

import { z } from 'zod';
import { checkMatchPattern, compileMatchPattern, MAX_MATCH_INPUT_LENGTH } from './match-pattern.ts';

/**
 * The `data_validation` node's actions, the documented set the API accepts.
 *
 * | action      | passes when (actual = value at `field`)                                              |
 * |-------------|----------------------------------------------------------------------------------------|
 * | equals      | actual equals `value` (numerically when both are numbers, else trimmed strings)        |
 * | notEquals   | not `equals` (a missing field passes)                                                  |
 * | contains    | actual contains `value`, case-insensitive; for a list: an item equals `value`          |
 * | matches     | the pattern `value` (`pattern` or `/pattern/flags`) is found; see match-pattern.ts     |
 * | exists      | the field is present and not empty / whitespace-only                                   |
 * | notExists   | not `exists`                                                                           |
 * | greaterThan | actual > `value`; both numbers, or both ISO dates (`value` may be `now`)               |
 * | lessThan    | actual < `value`; same rules                                                           |
 * | minLength   | length (Unicode code points, or list items) ≥ `value`                                  |
 * | maxLength   | length ≤ `value`                                                                       |
 * | isEmail     | actual looks like an e-mail address (`local@domain.tld`, Unicode allowed)              |
 * | isPhone     | E.164-ish: `+` or `00`, then 8–15 digits (spaces, dots, dashes, brackets ignored)      |
 * | isDate      | ISO 8601 calendar date (`YYYY-MM-DD`) or date-time that exists on the calendar         |
 * | ageAtLeast  | the ISO birth date at `field` is at least `value` whole years before `now` (UTC);      |
 * |             | someone born on 29 February comes of age on 1 March in common years                     |
 */
export const VALIDATION_ACTIONS = [
	'equals',
	'notEquals',
	'contains',
	'matches',
	'exists',
	'notExists',
	'greaterThan',
	'lessThan',
	'minLength',
	'maxLength',
	'isEmail',
	'isPhone',
	'isDate',
	'ageAtLeast'
] as const;

export type ValidationAction = (typeof VALIDATION_ACTIONS)[number];

const NEEDS_VALUE = new Set<ValidationAction>([
	'equals',
	'notEquals',
	'contains',
	'matches',
	'greaterThan',
	'lessThan',
	'minLength',
	'maxLength',
	'ageAtLeast'
]);
const NEEDS_COUNT = new Set<ValidationAction>(['minLength', 'maxLength', 'ageAtLeast']);

const FIELD_PATH = /^[A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*$/;
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

export const validationSchema = z
	.object({
		field: z
			.string()
			.min(1)
			.max(200)
			.regex(FIELD_PATH, 'a dotted path such as providedData.email')
			.refine((f) => !f.split('.').some((s) => FORBIDDEN_SEGMENTS.has(s)), 'forbidden path segment'),
		action: z.enum(VALIDATION_ACTIONS),
		value: z.string().max(1000).optional()
	})
	.superRefine((v, ctx) => {
		if (NEEDS_VALUE.has(v.action) && (v.value === undefined || v.value.trim() === '')) {
			ctx.addIssue({ code: 'custom', path: ['value'], message: `action ${v.action} needs a value` });
			return;
		}
		if (NEEDS_COUNT.has(v.action) && !/^\d{1,6}$/.test(v.value!.trim())) {
			ctx.addIssue({ code: 'custom', path: ['value'], message: `action ${v.action} needs a whole number` });
		}
		if (v.action === 'matches') {
			const problem = checkMatchPattern(v.value!);
			if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
		}
	});

export type Validation = z.infer<typeof validationSchema>;

export interface ValidationResult {
	passed: boolean;
	/** The value found at `field`, as a string (capped at 200 characters); absent when missing. */
	actual?: string;
	/** Why it failed, as a short code (`missing`, `notEqual`, `unsafePattern`…); absent when passed. */
	reason?: string;
}

/** Reads a dotted path from the session data; own properties only, arrays by index. */
export function readField(data: unknown, field: string): unknown {
	let current: unknown = data;
	for (const segment of field.split('.')) {
		if (FORBIDDEN_SEGMENTS.has(segment) || current === null || typeof current !== 'object') return undefined;
		if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
		current = (current as Record<string, unknown>)[segment];
	}
	return current;
}

/** Evaluates one `data_validation` rule against the session data at the instant `now`. */
export function evaluateValidation(validation: Validation, data: unknown, now: Date): ValidationResult {
	const raw = readField(data, validation.field);
	const value = validation.value?.trim() ?? '';
	const present = isPresent(raw);
	const actual = present ? stringify(raw) : undefined;
	const pass = (): ValidationResult => ({ passed: true, ...(actual !== undefined && { actual: cap(actual) }) });
	const fail = (reason: string): ValidationResult => ({
		passed: false,
		reason,
		...(actual !== undefined && { actual: cap(actual) })
	});
	const check = (ok: boolean, reason: string) => (ok ? pass() : fail(reason));

	switch (validation.action) {
		case 'exists':
			return check(present, 'missing');
		case 'notExists':
			return check(!present, 'present');
		case 'notEquals':
			return present ? check(!looselyEqual(actual!, value), 'equal') : pass();
		default:
			break;
	}
	if (!present) return fail('missing');
	const text = actual!;

	switch (validation.action) {
		case 'equals':
			return check(looselyEqual(text, value), 'notEqual');
		case 'contains':
			if (Array.isArray(raw)) return check(raw.some((item) => isPresent(item) && looselyEqual(stringify(item), value)), 'notContained');
			return check(text.toLowerCase().includes(value.toLowerCase()), 'notContained');
		case 'matches':
			return matches(text, validation.value ?? '', fail, pass);
		case 'greaterThan':
		case 'lessThan': {
			const order = compare(text, value, now);
			if (order === null) return fail('notComparable');
			return validation.action === 'greaterThan' ? check(order > 0, 'notGreater') : check(order < 0, 'notLess');
		}
		case 'minLength':
		case 'maxLength': {
			const limit = wholeNumber(value);
			if (limit === null) return fail('invalidValue');
			const length = Array.isArray(raw) ? raw.length : [...text].length;
			return validation.action === 'minLength' ? check(length >= limit, 'tooShort') : check(length <= limit, 'tooLong');
		}
		case 'isEmail':
			return check(isEmail(text), 'notEmail');
		case 'isPhone':
			return check(isPhone(text), 'notPhone');
		case 'isDate':
			return check(parseIsoDate(text) !== null, 'notDate');
		case 'ageAtLeast': {
			const years = wholeNumber(value);
			if (years === null) return fail('invalidValue');
			const birth = parseIsoDate(text);
			if (!birth) return fail('notDate');
			const age = ageInYears(birth, now);
			if (age < 0) return fail('futureDate');
			return check(age >= years, 'tooYoung');
		}
		default:
			return fail('unknownAction');
	}
}

function matches(
	text: string,
	pattern: string,
	fail: (reason: string) => ValidationResult,
	pass: () => ValidationResult
): ValidationResult {
	if (text.length > MAX_MATCH_INPUT_LENGTH) return fail('inputTooLong');
	// A flow stored before the pattern rules changed may hold a pattern the schema now refuses.
	const compiled = compileMatchPattern(pattern);
	if (!compiled) return fail('invalidPattern');
	return compiled.test(text) ? pass() : fail('noMatch');
}

function isPresent(raw: unknown): boolean {
	if (raw === undefined || raw === null) return false;
	if (typeof raw === 'string') return raw.trim() !== '';
	if (Array.isArray(raw)) return raw.length > 0;
	return true;
}

function stringify(raw: unknown): string {
	if (typeof raw === 'string') return raw.trim();
	if (typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'bigint') return String(raw);
	if (raw instanceof Date) return raw.toISOString();
	try {
		return JSON.stringify(raw) ?? '';
	} catch {
		return '';
	}
}

function cap(text: string): string {
	return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

const NUMBER = /^[-+]?(?:\d+(?:\.\d+)?|\.\d+)$/;

function toNumber(text: string): number | null {
	const t = text.trim();
	return NUMBER.test(t) ? Number(t) : null;
}

function wholeNumber(text: string): number | null {
	return /^\d{1,6}$/.test(text) ? Number(text) : null;
}

function looselyEqual(a: string, b: string): boolean {
	const x = toNumber(a);
	const y = toNumber(b);
	if (x !== null && y !== null) return x === y;
	return a.trim() === b.trim();
}

/** -1/0/1, or null when the two are not both numbers nor both dates. */
function compare(actual: string, value: string, now: Date): number | null {
	const x = toNumber(actual);
	const y = toNumber(value);
	if (x !== null && y !== null) return Math.sign(x - y);
	const a = parseIsoDate(actual);
	const b = /^(?:now|today)$/i.test(value) ? now : parseIsoDate(value);
	if (!a || !b) return null;
	return Math.sign(a.getTime() - b.getTime());
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO 8601 date or date-time that exists on the calendar, as a Date (dates at UTC midnight). */
export function parseIsoDate(text: string): Date | null {
	const m = ISO_DATE.exec(text.trim());
	if (!m) return null;
	const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
	if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
	if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return null;
	if (m[4] === undefined) return new Date(Date.UTC(year, month - 1, day));
	// A date-time without a zone is read as UTC so the answer does not depend on the server's zone.
	const zone = m[7] === undefined || m[7].toUpperCase() === 'Z' ? 'Z' : `${m[7].slice(0, 3)}:${m[7].slice(-2)}`;
	const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${zone}`);
	return Number.isNaN(date.getTime()) ? null : date;
}

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function ageInYears(birth: Date, now: Date): number {
	let age = now.getUTCFullYear() - birth.getUTCFullYear();
	const beforeBirthday =
		now.getUTCMonth() < birth.getUTCMonth() ||
		(now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() < birth.getUTCDate());
	if (beforeBirthday) age -= 1;
	return age;
}

const EMAIL_LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const EMAIL_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** A pragmatic address check (what a form would accept), not RFC 5322 in full: no quoted local parts. */
export function isEmail(text: string): boolean {
	const t = text.trim();
	if (t.length > 254) return false;
	const at = t.lastIndexOf('@');
	if (at < 1 || at !== t.indexOf('@')) return false;
	const local = t.slice(0, at);
	const labels = t.slice(at + 1).split('.');
	if (local.length > 64 || !EMAIL_LOCAL.test(local) || labels.length < 2) return false;
	if (!labels.every((l) => EMAIL_LABEL.test(l))) return false;
	return /^\p{L}{2,}$/u.test(labels.at(-1)!) || /^xn--[a-z0-9-]+$/i.test(labels.at(-1)!);
}

/** International number: `+` or `00`, country code not starting with 0, 8–15 digits in all. */
export function isPhone(text: string): boolean {
	const compact = text.trim().replace(/[\s().-]/g, '');
	const digits = compact.startsWith('+') ? compact.slice(1) : compact.startsWith('00') ? compact.slice(2) : null;
	return digits !== null && /^[1-9]\d{7,14}$/.test(digits);
}

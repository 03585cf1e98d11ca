import { describe, expect, it } from 'vitest';
import {
	evaluateValidation,
	readField,
	VALIDATION_ACTIONS,
	validationSchema,
	type Validation,
	type ValidationAction
} from './data-validation.ts';
import { checkMatchPattern, MAX_MATCH_INPUT_LENGTH } from './match-pattern.ts';

const NOW = new Date('2024-06-15T12:00:00Z');

const data = {
	providedData: {
		name: 'Ada Lovelace',
		email: 'ada@example.com',
		phone: '+44 20 7946 0958',
		country: 'GB',
		age: '36',
		blank: '   ',
		birthDate: '2006-06-15',
		leapling: '2004-02-29'
	},
	extractedData: {
		documentNumber: 'X1234567',
		dateOfBirth: '1990-03-15',
		expiryDate: '2030-01-31',
		nationality: 'ITA'
	},
	emailEntered: 'user@example.org',
	score: 0.82,
	verified: true,
	tags: ['vip', 'beta'],
	nested: { list: [{ code: 'A1' }] }
};

type Case = [action: ValidationAction, field: string, value: string | undefined, passed: boolean, reason?: string];

const cases: Case[] = [
	['equals', 'providedData.country', 'GB', true],
	['equals', 'providedData.country', 'gb', false, 'notEqual'],
	['equals', 'providedData.age', '36.0', true],
	['equals', 'score', '0.82', true],
	['equals', 'verified', 'true', true],
	['equals', 'providedData.missing', 'x', false, 'missing'],
	['notEquals', 'providedData.country', 'FR', true],
	['notEquals', 'providedData.country', 'GB', false, 'equal'],
	['notEquals', 'providedData.missing', 'GB', true],
	['contains', 'providedData.name', 'love', true],
	['contains', 'providedData.name', 'Byron', false, 'notContained'],
	['contains', 'tags', 'beta', true],
	['contains', 'tags', 'bet', false, 'notContained'],
	['matches', 'extractedData.documentNumber', '^[A-Z]\\d{7}$', true],
	['matches', 'extractedData.nationality', '/^ita$/i', true],
	['matches', 'extractedData.nationality', '^DEU$', false, 'noMatch'],
	['matches', 'providedData.name', '(e+)+$', true],
	['matches', 'providedData.name', '([a-z', false, 'invalidPattern'],
	['matches', 'providedData.name', '(?=A)Ada', false, 'invalidPattern'],
	['exists', 'providedData.email', undefined, true],
	['exists', 'providedData.blank', undefined, false, 'missing'],
	['exists', 'nested.list.0.code', undefined, true],
	['exists', 'providedData.name.length', undefined, false, 'missing'],
	['notExists', 'providedData.middleName', undefined, true],
	['notExists', 'providedData.email', undefined, false, 'present'],
	['greaterThan', 'providedData.age', '18', true],
	['greaterThan', 'providedData.age', '36', false, 'notGreater'],
	['greaterThan', 'extractedData.expiryDate', 'now', true],
	['greaterThan', 'extractedData.expiryDate', '2031-01-01', false, 'notGreater'],
	['greaterThan', 'providedData.name', '3', false, 'notComparable'],
	['lessThan', 'score', '1', true],
	['lessThan', 'extractedData.dateOfBirth', '2000-01-01', true],
	['lessThan', 'extractedData.dateOfBirth', '1990-03-15', false, 'notLess'],
	['minLength', 'providedData.name', '12', true],
	['minLength', 'providedData.name', '13', false, 'tooShort'],
	['maxLength', 'extractedData.documentNumber', '8', true],
	['maxLength', 'tags', '1', false, 'tooLong'],
	['isEmail', 'providedData.email', undefined, true],
	['isEmail', 'providedData.name', undefined, false, 'notEmail'],
	['isPhone', 'providedData.phone', undefined, true],
	['isPhone', 'extractedData.documentNumber', undefined, false, 'notPhone'],
	['isDate', 'extractedData.dateOfBirth', undefined, true],
	['isDate', 'providedData.country', undefined, false, 'notDate'],
	['ageAtLeast', 'extractedData.dateOfBirth', '18', true],
	['ageAtLeast', 'providedData.birthDate', '18', true],
	['ageAtLeast', 'providedData.birthDate', '19', false, 'tooYoung'],
	['ageAtLeast', 'providedData.leapling', '21', false, 'tooYoung'],
	['ageAtLeast', 'providedData.name', '18', false, 'notDate'],
	['ageAtLeast', 'providedData.missing', '18', false, 'missing']
];

describe('evaluateValidation', () => {
	it('covers every action', () => {
		expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(VALIDATION_ACTIONS));
	});
	it.each(cases)('%s %s %s → %s', (action, field, value, passed, reason) => {
		const result = evaluateValidation({ action, field, value } as Validation, data, NOW);
		expect(result.passed).toBe(passed);
		expect(result.reason).toBe(reason);
	});
	it('reports the actual value found', () => {
		expect(evaluateValidation({ action: 'equals', field: 'providedData.country', value: 'FR' }, data, NOW)).toEqual({
			passed: false,
			actual: 'GB',
			reason: 'notEqual'
		});
		expect(evaluateValidation({ action: 'exists', field: 'nope' }, data, NOW)).toEqual({ passed: false, reason: 'missing' });
	});
	it('computes age on the birthday and the day before', () => {
		const v = { action: 'ageAtLeast', field: 'd', value: '18' } as const;
		expect(evaluateValidation(v, { d: '2006-06-15' }, NOW).passed).toBe(true);
		expect(evaluateValidation(v, { d: '2006-06-16' }, NOW).passed).toBe(false);
		expect(evaluateValidation(v, { d: '2030-01-01' }, NOW).reason).toBe('futureDate');
		// born 29 Feb 2004: 18 on 1 March 2022, not on 28 February
		expect(evaluateValidation(v, { d: '2004-02-29' }, new Date('2022-02-28T23:00:00Z')).passed).toBe(false);
		expect(evaluateValidation(v, { d: '2004-02-29' }, new Date('2022-03-01T00:00:00Z')).passed).toBe(true);
	});
	it('does not walk the prototype chain', () => {
		expect(readField(data, 'providedData.toString')).toBeUndefined();
		expect(readField(data, '__proto__')).toBeUndefined();
		expect(evaluateValidation({ action: 'exists', field: 'constructor' }, {}, NOW).passed).toBe(false);
	});
	it('refuses a too long input for matches instead of risking a slow match', () => {
		const long = 'a'.repeat(MAX_MATCH_INPUT_LENGTH + 1);
		expect(evaluateValidation({ action: 'matches', field: 'x', value: '^a+$' }, { x: long }, NOW).reason).toBe(
			'inputTooLong'
		);
	});
	it('matches catastrophic-for-backtracking patterns in linear time', () => {
		const started = performance.now();
		for (const [pattern, input] of [
			['(a+)+$', `${'a'.repeat(MAX_MATCH_INPUT_LENGTH - 1)}b`],
			['\\s*\\s*\\s*$x', `y${' '.repeat(MAX_MATCH_INPUT_LENGTH - 1)}`],
			['^(a|a){30}b$', 'a'.repeat(40)],
			['^(\\w+\\s?)*$', `${'word '.repeat(399)}!`]
		]) {
			const r = evaluateValidation({ action: 'matches', field: 'x', value: pattern! }, { x: input }, NOW);
			expect(r.reason).toBe('noMatch');
		}
		expect(performance.now() - started).toBeLessThan(1000);
	});
});

describe('date, e-mail and phone details', () => {
	it.each([
		['2024-02-29', true],
		['2023-02-29', false],
		['2024-13-01', false],
		['2024-04-31', false],
		['2024-06-15T10:30:00Z', true],
		['2024-06-15T10:30:00.123+02:00', true],
		['2024-06-15T25:00', false],
		['15/06/2024', false],
		['20240615', false]
	])('isDate %s → %s', (text, ok) => {
		expect(evaluateValidation({ action: 'isDate', field: 'x' }, { x: text }, NOW).passed).toBe(ok);
	});
	it.each([
		['a@b.co', true],
		['first.last+tag@sub.example.org', true],
		['jürgen@münchen.de', true],
		['no-at-sign.example.com', false],
		['two@@example.com', false],
		['a@b', false],
		['a@-b.com', false],
		['.a@b.com', false],
		['a b@c.com', false],
		['a@b.c0m', false]
	])('isEmail %s → %s', (text, ok) => {
		expect(evaluateValidation({ action: 'isEmail', field: 'x' }, { x: text }, NOW).passed).toBe(ok);
	});
	it.each([
		['+4915123456789', true],
		['0049 151 2345 6789', true],
		['+1 (555) 010-9999', true],
		['015123456789', false],
		['+0123456789', false],
		['+1234', false],
		['+1234567890123456', false]
	])('isPhone %s → %s', (text, ok) => {
		expect(evaluateValidation({ action: 'isPhone', field: 'x' }, { x: text }, NOW).passed).toBe(ok);
	});
});

describe('validationSchema', () => {
	it.each([
		[{ field: 'providedData.email', action: 'isEmail' }, true],
		[{ field: 'providedData.age', action: 'greaterThan', value: '17' }, true],
		[{ field: 'x', action: 'matches', value: '^(\\d{1,3}\\.){3}\\d{1,3}$' }, true],
		[{ field: 'x', action: 'equals' }, false],
		[{ field: 'x', action: 'minLength', value: 'five' }, false],
		[{ field: 'x', action: 'ageAtLeast', value: '-1' }, false],
		[{ field: 'x', action: 'matches', value: '(a)\\1' }, false],
		[{ field: 'x', action: 'matches', value: '/abc/g' }, false],
		[{ field: 'x', action: 'shout' }, false],
		[{ field: '', action: 'exists' }, false],
		[{ field: 'a..b', action: 'exists' }, false],
		[{ field: 'providedData.__proto__', action: 'exists' }, false]
	])('%j valid=%s', (input, ok) => {
		expect(validationSchema.safeParse(input).success).toBe(ok);
	});
});

describe('checkMatchPattern', () => {
	it.each([
		['^[A-Z]{2}\\d{6}$', null],
		['^(?:\\+|00)?[0-9 ]+$', null],
		['/^[a-z]+$/iu', null],
		['^[\\w.-]+$', null],
		['^(?<year>\\d{4})-\\d{2}$', null],
		['(a+)+$', null],
		['(?=a)b', 'unsupported'],
		['(?<!a)b', 'unsupported'],
		['(a)\\1', 'unsupported'],
		['a{1001}', 'unsupported'],
		['/abc/g', 'flags'],
		['/abc/ii', 'flags'],
		['[', 'invalid'],
		['a'.repeat(201), 'longer than']
	] as [string, string | null][])('%s', (pattern, problem) => {
		const result = checkMatchPattern(pattern);
		if (problem === null) expect(result).toBeNull();
		else expect(result).toContain(problem);
	});
	it('honours flags', () => {
		expect(evaluateValidation({ action: 'matches', field: 'x', value: '/^a.b$/s' }, { x: 'a\nb' }, NOW).passed).toBe(true);
		expect(evaluateValidation({ action: 'matches', field: 'x', value: '^a.b$' }, { x: 'a\nb' }, NOW).passed).toBe(false);
	});
});

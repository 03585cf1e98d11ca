import { describe, expect, it } from 'vitest';
import { parseCondition } from './conditions.ts';
import { choicesFrom, questionFromInstruction, userWording } from './wording.ts';

describe('userWording', () => {
	it.each([
		['The user says they live in Germany', 'I live in Germany'],
		['The user lives elsewhere', 'I live elsewhere'],
		['The user is a student', "I'm a student"],
		['The user has their own business', 'I have my own business'],
		['If the customer mentions that they were referred by a friend', 'I was referred by a friend'],
		['The user studies at a university', 'I study at a university'],
		['Germany', 'Germany']
	])('%s → %s', (condition, wording) => {
		expect(userWording(condition)).toBe(wording);
	});
});

describe('questionFromInstruction', () => {
	it.each([
		['Ask the user which country they live in', 'Which country do you live in?'],
		['Ask them what they do for a living', 'What do you do for a living?'],
		['Check whether the user is over 18', 'Are you over 18?'],
		['Ask the user to describe their job', 'Please describe your job.'],
		['Do you own a car?', 'Do you own a car?'],
		// Not phrasable with confidence: the page offers the outcomes instead.
		['Ask which school they attended', null],
		['Make small talk about their day', null],
		['Is the user a robot?', null]
	])('%s', (prompt, question) => {
		expect(questionFromInstruction(prompt)).toBe(question);
	});
});

describe('choicesFrom', () => {
	const outcomes = (...conditions: string[]) => conditions.map((condition, i) => ({ id: `o${i}`, condition }));

	it('words the outcomes for the user, in the session language where the judge knows the intent', () => {
		expect(choicesFrom(outcomes('The user agrees', 'The user declines'), 'de', parseCondition)).toEqual([
			{ id: 'o0', label: 'Ja, einverstanden' },
			{ id: 'o1', label: 'Nein' }
		]);
		expect(choicesFrom(outcomes('The user is ready', 'The user is not ready', 'otherwise'), 'ja', parseCondition).map((c) => c.label)).toEqual(['はい、準備できました', 'まだです', 'その他']);
	});

	it('turns conditions the judge cannot read into first-person answers', () => {
		expect(choicesFrom(outcomes('The user says they live in Germany', 'The user lives elsewhere'), 'en', parseCondition)).toEqual([
			{ id: 'o0', label: 'I live in Germany' },
			{ id: 'o1', label: 'I live elsewhere' }
		]);
	});

	it('leaves out outcomes that need something typed, and offers each label once', () => {
		const choices = choicesFrom(outcomes('The user provided their e-mail', 'The user agrees', 'The user accepts', 'The validation passed'), 'en', parseCondition);
		expect(choices).toEqual([{ id: 'o1', label: 'Yes, I agree' }]);
	});
});

import { describe, expect, it } from 'vitest';
import { correctTypos, vocabularyOf } from './typos.ts';

const vocabulary = vocabularyOf(['yes', 'ready', 'lets go', 'no', 'not now', 'i agree', 'fine', 'okay', 'later', 'start']);

describe('correctTypos', () => {
	it.each([
		['yse im redy lets goo', 'yes im ready lets go'],
		['noooo', 'no'],
		['okayyy', 'okay'],
		['i agre', 'i agree'],
		['nto now', 'not now']
	])('%s → %s', (typed, meant) => {
		expect(correctTypos(typed, vocabulary)).toBe(meant);
	});

	it.each([
		// Real words one slip away from an answer word, a far-away key, too short to tell, unknown scripts.
		'i cant find it',
		'what about mine',
		'so',
		'star',
		'hmm',
		'はい'
	])('leaves %s alone', (text) => {
		expect(correctTypos(text, vocabulary)).toBe(text);
	});
});

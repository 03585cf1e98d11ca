import { describe, expect, it } from 'vitest';
import { pickCustomText } from './custom-text.ts';

describe('pickCustomText', () => {
	const translates = { de: 'Los geht’s', 'zh-Hant-HK': '開始', nb: 'Start nå', fr: '  ' };
	it.each([
		['de', 'Start', translates, 'Los geht’s'],
		['zh-HK', 'Start', translates, '開始'],
		['no', 'Start', translates, 'Start nå'],
		['fr', 'Start', translates, 'Start'],
		['it', 'Start', translates, 'Start'],
		['it', undefined, translates, undefined],
		['it', '   ', undefined, undefined]
	] as const)('%s with %j', (lang, text, map, expected) => {
		expect(pickCustomText(lang, text, map)).toBe(expected);
	});
});

import { describe, expect, it } from 'vitest';
import {
	LANGUAGES,
	parseAcceptLanguage,
	resolveLanguage,
	toSupportedLang,
	type ResolveLanguageInput,
	type SupportedLang
} from './resolve-language.ts';

type Case = [name: string, input: ResolveLanguageInput, expected: SupportedLang];

const ALL = undefined;
const cases: Case[] = [
	// exact and case-insensitive
	['exact en', { browserLanguages: ['en'] }, 'en'],
	['exact de', { browserLanguages: ['de'] }, 'de'],
	['upper-case tag', { browserLanguages: ['DE-de'] }, 'de'],
	['mixed-case chinese', { browserLanguages: ['ZH-tw'] }, 'zh-TW'],
	['underscore separator', { browserLanguages: ['pt_BR'] }, 'pt'],
	// region fallback
	['fr-CA → fr', { browserLanguages: ['fr-CA'] }, 'fr'],
	['pt-BR → pt', { browserLanguages: ['pt-BR'] }, 'pt'],
	['es-419 → es', { browserLanguages: ['es-419'] }, 'es'],
	['en-GB → en', { browserLanguages: ['en-GB'] }, 'en'],
	['de-CH → de', { browserLanguages: ['de-CH'] }, 'de'],
	['it-CH → it', { browserLanguages: ['it-CH'] }, 'it'],
	['ru-UA → ru', { browserLanguages: ['ru-UA'] }, 'ru'],
	['ja-JP → ja', { browserLanguages: ['ja-JP'] }, 'ja'],
	['id-ID → id', { browserLanguages: ['id-ID'] }, 'id'],
	// aliases
	['in → id (deprecated code)', { browserLanguages: ['in'] }, 'id'],
	['in-ID → id', { browserLanguages: ['in-ID'] }, 'id'],
	['nb → no', { browserLanguages: ['nb'] }, 'no'],
	['nn → no', { browserLanguages: ['nn-NO'] }, 'no'],
	['no-NO → no', { browserLanguages: ['no-NO'] }, 'no'],
	['nb-NO → no', { browserLanguages: ['nb-NO'] }, 'no'],
	['zh-Hans → zh', { browserLanguages: ['zh-Hans'] }, 'zh'],
	['zh-CN → zh', { browserLanguages: ['zh-CN'] }, 'zh'],
	['zh-SG → zh', { browserLanguages: ['zh-SG'] }, 'zh'],
	['zh-Hans-HK stays simplified', { browserLanguages: ['zh-Hans-HK'] }, 'zh'],
	['bare zh → zh', { browserLanguages: ['zh'] }, 'zh'],
	['cmn → zh', { browserLanguages: ['cmn'] }, 'zh'],
	['zh-Hant → zh-TW', { browserLanguages: ['zh-Hant'] }, 'zh-TW'],
	['zh-Hant-TW → zh-TW', { browserLanguages: ['zh-Hant-TW'] }, 'zh-TW'],
	['zh-TW → zh-TW', { browserLanguages: ['zh-TW'] }, 'zh-TW'],
	['zh-Hant-HK → zh-HK', { browserLanguages: ['zh-Hant-HK'] }, 'zh-HK'],
	['zh-HK → zh-HK', { browserLanguages: ['zh-HK'] }, 'zh-HK'],
	['zh-MO → zh-HK', { browserLanguages: ['zh-MO'] }, 'zh-HK'],
	['yue (Cantonese) → zh-HK', { browserLanguages: ['yue-HK'] }, 'zh-HK'],
	['legacy zh-yue → zh-HK', { browserLanguages: ['zh-yue'] }, 'zh-HK'],
	// preference order and session langs
	['first supported browser lang wins', { browserLanguages: ['xx', 'it', 'de'] }, 'it'],
	['unsupported language skipped', { browserLanguages: ['pl-PL', 'ru'] }, 'ru'],
	['first allowed by session wins', { browserLanguages: ['de', 'fr'], sessionLangs: ['fr', 'de'] }, 'de'],
	['browser lang not in session skipped', { browserLanguages: ['de', 'fr'], sessionLangs: ['fr', 'en'] }, 'fr'],
	['session langs normalised too', { browserLanguages: ['zh-Hant-TW'], sessionLangs: ['zh-hant', 'en'] }, 'zh-TW'],
	['zh-HK reader gets zh-TW when HK missing', { browserLanguages: ['zh-HK', 'en'], sessionLangs: ['zh-TW', 'en'] }, 'zh-TW'],
	['simplified reader does not get traditional', { browserLanguages: ['zh-CN'], sessionLangs: ['zh-TW', 'en'] }, 'en'],
	['nothing allowed → defaultLang', { browserLanguages: ['ja'], sessionLangs: ['de', 'fr'], defaultLang: 'fr' }, 'fr'],
	['defaultLang alias normalised', { browserLanguages: ['ja'], sessionLangs: ['no', 'en'], defaultLang: 'nb' }, 'no'],
	['defaultLang not in session langs → en', { browserLanguages: ['ja'], sessionLangs: ['de', 'fr'], defaultLang: 'it' }, 'en'],
	['defaultLang without session langs', { browserLanguages: ['pl'], sessionLangs: ALL, defaultLang: 'es' }, 'es'],
	['no match, no default → en', { browserLanguages: ['pl', 'cs'] }, 'en'],
	['empty browser list → default', { browserLanguages: [], defaultLang: 'pt' }, 'pt'],
	['empty browser list, nothing else → en', { browserLanguages: [] }, 'en'],
	['empty session langs = all', { browserLanguages: ['ja'], sessionLangs: [] }, 'ja'],
	['garbage session langs = all', { browserLanguages: ['ja'], sessionLangs: ['??', ''] }, 'ja'],
	// garbage
	['garbage tags skipped', { browserLanguages: ['!!', '', '*', 'en_US@x', 'de'] }, 'de'],
	['unknown private-use skipped', { browserLanguages: ['x-klingon', 'fr'] }, 'fr'],
	['overlong tag skipped', { browserLanguages: ['a'.repeat(200), 'es'] }, 'es'],
	['garbage defaultLang ignored', { browserLanguages: ['pl'], defaultLang: 'nope nope' }, 'en'],
	// override
	['override wins over browser', { browserLanguages: ['de'], override: 'ja' }, 'ja'],
	['override normalised', { browserLanguages: ['de'], override: 'zh-Hant-HK' }, 'zh-HK'],
	['override wins over session langs', { browserLanguages: ['de'], sessionLangs: ['de'], override: 'ru' }, 'ru'],
	['unsupported override ignored', { browserLanguages: ['de'], override: 'pl' }, 'de'],
	['empty override ignored', { browserLanguages: ['fr'], override: '' }, 'fr'],
	['garbage override ignored', { browserLanguages: ['it'], override: '<script>' }, 'it']
];

describe('resolveLanguage', () => {
	it('has at least 40 cases', () => expect(cases.length).toBeGreaterThanOrEqual(40));
	it.each(cases)('%s', (_name, input, expected) => {
		expect(resolveLanguage(input)).toBe(expected);
	});
	it('works with a parsed Accept-Language header', () => {
		const header = 'pl;q=0.9, zh-Hant-HK, en;q=0.5';
		expect(resolveLanguage({ browserLanguages: parseAcceptLanguage(header), sessionLangs: ['en', 'zh-HK'] })).toBe('zh-HK');
	});
});

describe('toSupportedLang', () => {
	it('maps every supported id onto itself', () => {
		for (const { id } of LANGUAGES) expect(toSupportedLang(id)).toBe(id);
	});
	it('rejects languages outside the 13', () => {
		for (const tag of ['he', 'iw', 'pl', 'sv', 'da', 'ko', 'ar']) expect(toSupportedLang(tag)).toBeNull();
	});
});

describe('parseAcceptLanguage', () => {
	it.each([
		['', []],
		['de', ['de']],
		['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', ['fr-CH', 'fr', 'en', 'de']],
		['en;q=0.5, ja', ['ja', 'en']],
		['en;q=0.8, de;q=0.8, it', ['it', 'en', 'de']],
		['en;q=0, de', ['de']],
		['en;q=abc, de;q=0.3', ['de']],
		['en;q=1.5, it', ['it']],
		['  es-419 ;q=0.9 ,pt-BR', ['pt-BR', 'es-419']],
		['de;level=1;q=0.4, ru', ['ru', 'de']],
		[',,;q=1,  , zh-Hant', ['zh-Hant']],
		['en-US@foo, "de", fr', ['fr']]
	] as [string, string[]][])('%j', (header, expected) => {
		expect(parseAcceptLanguage(header)).toEqual(expected);
	});
	it('accepts null and undefined', () => {
		expect(parseAcceptLanguage(null)).toEqual([]);
		expect(parseAcceptLanguage(undefined)).toEqual([]);
	});
	it('caps a huge header', () => {
		const header = Array.from({ length: 5000 }, (_, i) => `x${i % 10}`).join(',');
		expect(parseAcceptLanguage(header).length).toBeLessThanOrEqual(64);
	});
});

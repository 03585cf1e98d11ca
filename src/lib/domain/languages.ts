import { z } from 'zod';

/** The 13 interface languages, in the order `GET /langs` lists them, with their native titles. */
export const LANGUAGES = [
	{ id: 'en', title: 'English' },
	{ id: 'it', title: 'Italiano' },
	{ id: 'de', title: 'Deutsch' },
	{ id: 'fr', title: 'Français' },
	{ id: 'es', title: 'Español' },
	{ id: 'pt', title: 'Português' },
	{ id: 'ru', title: 'Русский' },
	{ id: 'ja', title: '日本語' },
	{ id: 'id', title: 'Bahasa Indonesia' },
	{ id: 'no', title: 'Norsk bokmål' },
	{ id: 'zh', title: '简体中文' },
	{ id: 'zh-TW', title: '繁體中文（台灣）' },
	{ id: 'zh-HK', title: '繁體中文（香港）' }
] as const;

export type SupportedLang = (typeof LANGUAGES)[number]['id'];

export const SUPPORTED_LANGS = LANGUAGES.map((l) => l.id) as readonly SupportedLang[] as readonly [SupportedLang, ...SupportedLang[]];

// Pure: browser bundles that only need the language list drop zod with it.
export const supportedLangSchema = /* @__PURE__ */ z.enum(SUPPORTED_LANGS);

export const DEFAULT_LANG: SupportedLang = 'en';

const SUPPORTED = new Set<string>(SUPPORTED_LANGS);

/** True when `value` is exactly one of the 13 codes (no normalisation; see `toSupportedLang`). */
export function isSupportedLang(value: unknown): value is SupportedLang {
	return typeof value === 'string' && SUPPORTED.has(value);
}

// Tags Intl.Locale rejects (irregular grandfathered ones) but browsers and old systems still send.
const LEGACY_TAGS: Record<string, string> = {
	'zh-yue': 'yue',
	'zh-guoyu': 'zh',
	'zh-min-nan': 'nan',
	'no-bok': 'nb',
	'no-nyn': 'nn'
};

const PLAIN_LANGUAGES = new Set(['en', 'it', 'de', 'fr', 'es', 'pt', 'ru', 'ja', 'id']);

/**
 * Maps any BCP-47-ish tag onto one of the 13 interface languages, or null.
 * Case-insensitive, accepts `_` for `-`, canonicalises through Intl.Locale (`in`→`id`, `cmn`→`zh`)
 * and uses likely-subtags (`maximize`) to pick the Chinese script from a bare region.
 */
export function toSupportedLang(tag: string): SupportedLang | null {
	const raw = tag.trim().replaceAll('_', '-').toLowerCase();
	if (raw === '' || raw === '*' || raw.length > 64) return null;
	let locale: Intl.Locale;
	try {
		locale = new Intl.Locale(LEGACY_TAGS[raw] ?? raw);
	} catch {
		return null;
	}
	const language = locale.language;
	if (PLAIN_LANGUAGES.has(language)) return language as SupportedLang;
	if (language === 'no' || language === 'nb' || language === 'nn') return 'no';
	// Cantonese is written in Hong Kong Traditional Chinese; its speakers read zh-HK best.
	if (language === 'yue') return 'zh-HK';
	if (language !== 'zh') return null;
	let full: Intl.Locale;
	try {
		full = locale.maximize();
	} catch {
		full = locale;
	}
	if (full.script === 'Hant') {
		return full.region === 'HK' || full.region === 'MO' ? 'zh-HK' : 'zh-TW';
	}
	return 'zh';
}

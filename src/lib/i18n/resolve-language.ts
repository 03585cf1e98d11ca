import { DEFAULT_LANG, SUPPORTED_LANGS, toSupportedLang, type SupportedLang } from '../domain/languages.ts';

export {
	DEFAULT_LANG,
	LANGUAGES,
	SUPPORTED_LANGS,
	isSupportedLang,
	supportedLangSchema,
	toSupportedLang,
	type SupportedLang
} from '../domain/languages.ts';

export interface ResolveLanguageInput {
	/** The browser's preference list, best first: `navigator.languages` or `parseAcceptLanguage(header)`. */
	browserLanguages: readonly string[];
	/** The session's `langs`; absent or empty (after normalisation) means all 13 languages. */
	sessionLangs?: readonly string[];
	/** The session's `defaultLang`; used when no browser language is allowed. */
	defaultLang?: string;
	/** `?lang=` on /demo: wins whenever it names one of the 13 languages. */
	override?: string;
}

// When the exact language is not allowed, a reader of one Traditional Chinese variant is far better
// served by the other one than by the session default.
const CLOSE_RELATIVES: Partial<Record<SupportedLang, readonly SupportedLang[]>> = {
	'zh-HK': ['zh-TW'],
	'zh-TW': ['zh-HK']
};

/**
 * Picks the session language: `override`, else the first browser language (in preference order, with
 * aliases and region fallback) that the session allows, else `defaultLang` when allowed, else `en`.
 */
export function resolveLanguage(input: ResolveLanguageInput): SupportedLang {
	if (input.override !== undefined) {
		const forced = toSupportedLang(input.override);
		if (forced) return forced;
	}
	const allowed = allowedSet(input.sessionLangs);
	for (const tag of input.browserLanguages.slice(0, 32)) {
		if (typeof tag !== 'string') continue;
		const lang = toSupportedLang(tag);
		if (!lang) continue;
		if (allowed.has(lang)) return lang;
		const relative = CLOSE_RELATIVES[lang]?.find((r) => allowed.has(r));
		if (relative) return relative;
	}
	if (input.defaultLang !== undefined) {
		const fallback = toSupportedLang(input.defaultLang);
		if (fallback && allowed.has(fallback)) return fallback;
	}
	return DEFAULT_LANG;
}

function allowedSet(sessionLangs: readonly string[] | undefined): ReadonlySet<SupportedLang> {
	const set = new Set<SupportedLang>();
	for (const tag of sessionLangs ?? []) {
		const lang = typeof tag === 'string' ? toSupportedLang(tag) : null;
		if (lang) set.add(lang);
	}
	// A session whose langs are all unknown would otherwise allow nothing; the API validator should
	// have refused it, so treat it like a session without langs rather than fail the page.
	return set.size > 0 ? set : new Set(SUPPORTED_LANGS);
}

const TAG = /^(?:[a-z]{1,8}(?:[-_][a-z0-9]{1,8})*)$/i;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Parses an `Accept-Language` header into tags, best first (by q, then header order).
 * `*`, `q=0` and malformed entries are dropped; the header is capped so a huge one costs nothing.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
	if (!header) return [];
	const entries: { tag: string; q: number; index: number }[] = [];
	const parts = header.slice(0, 4096).split(',').slice(0, 64);
	for (const [index, part] of parts.entries()) {
		const [rawTag, ...params] = part.split(';');
		const tag = rawTag?.trim() ?? '';
		if (!TAG.test(tag)) continue;
		let q = 1;
		let valid = true;
		for (const param of params) {
			const [name, value] = param.split('=').map((s) => s.trim());
			if (name?.toLowerCase() !== 'q') continue;
			if (value === undefined || !QVALUE.test(value)) {
				valid = false;
				break;
			}
			q = Number(value);
		}
		if (valid && q > 0) entries.push({ tag, q, index });
	}
	entries.sort((a, b) => b.q - a.q || a.index - b.index);
	return entries.map((e) => e.tag);
}

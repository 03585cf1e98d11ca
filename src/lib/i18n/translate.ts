import type { SupportedLang } from '../domain/languages.ts';
import type { CatalogueTree, EnglishCatalogue, LocaleCatalogue, Namespace } from './catalogue.ts';

// The page's translation function. It replaces i18next (13 KB of gzipped JS on the first screen, for
// the three features used here): `ns:dotted.key` lookup, `{{name}}` interpolation, and plural forms
// chosen with Intl.PluralRules under i18next's JSON v4 suffixes (`_one`, `_few`, `_other`, …), so
// the locale files are unchanged.

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type Leaves<T, P extends string = ''> = {
	[K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type Unplural<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;

/** Every key of the English catalogue as `ns:key` (plural forms as their base key); `common` keys also bare. */
export type TranslationKey = { [N in Namespace]: `${N}:${Unplural<Leaves<EnglishCatalogue[N]>>}` }[Namespace] | Unplural<Leaves<EnglishCatalogue['common']>>;

/** Values for `{{name}}` placeholders; `count` also picks the plural form. */
export type TranslateOptions = { count?: number } & Record<string, unknown>;

/** `t('otp:wrongCode', { count })`: checked against en.json at compile time. */
export type Translate = (key: TranslationKey, options?: TranslateOptions) => string;

export interface TranslateSetup {
	/** English catalogue to fall back on for a missing key; the locale test makes this unnecessary. */
	fallback?: LocaleCatalogue;
}

function lookup(catalogue: LocaleCatalogue | undefined, ns: string, path: string): string | undefined {
	let node: string | CatalogueTree | undefined = catalogue?.[ns as Namespace];
	for (const part of path.split('.')) {
		if (node === undefined || typeof node === 'string') return undefined;
		node = node[part];
	}
	return typeof node === 'string' ? node : undefined;
}

/**
 * The translation function of one language. A missing key returns the key itself (as i18next did),
 * so a gap shows rather than an empty line. Interpolated values are not HTML-escaped: Svelte escapes
 * text, so never pass a result to {@html}.
 */
export function createTranslate(lang: SupportedLang, catalogue: LocaleCatalogue, setup: TranslateSetup = {}): Translate {
	const plurals = new Intl.PluralRules(lang);
	const sources = [catalogue, ...(setup.fallback && lang !== 'en' ? [setup.fallback] : [])];
	const find = (ns: string, path: string, count: number | undefined): string | undefined => {
		for (const source of sources) {
			if (count !== undefined) {
				const form = lookup(source, ns, `${path}_${plurals.select(count)}`) ?? lookup(source, ns, `${path}_other`);
				if (form !== undefined) return form;
			}
			const plain = lookup(source, ns, path);
			if (plain !== undefined) return plain;
		}
		return undefined;
	};
	return (key, options = {}) => {
		const colon = key.indexOf(':');
		const ns = colon < 0 ? 'common' : key.slice(0, colon);
		const path = colon < 0 ? key : key.slice(colon + 1);
		const count = typeof options.count === 'number' && Number.isFinite(options.count) ? options.count : undefined;
		const text = find(ns, path, count);
		if (text === undefined) return path;
		return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => (options[name] === undefined || options[name] === null ? whole : String(options[name])));
	};
}

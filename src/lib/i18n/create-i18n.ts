import { createInstance, type i18n } from 'i18next';
import { NAMESPACES, type LocaleCatalogue } from './catalogue.ts';
import type { SupportedLang } from '../domain/languages.ts';
import { loadLocale } from './load-locale.ts';

export interface CreateI18nOptions {
	/** English catalogue to fall back on for a missing key; the locale test makes this unnecessary. */
	fallback?: LocaleCatalogue;
}

/**
 * A ready i18next instance for one language, initialised synchronously from the given catalogue,
 * so SSR can render with it and the browser can hydrate with the catalogue SSR sent along.
 * Interpolated values are not HTML-escaped: Svelte escapes text, so never pass a result to {@html}.
 */
export function createI18n(lang: SupportedLang, catalogue: LocaleCatalogue, options: CreateI18nOptions = {}): i18n {
	const instance = createInstance();
	void instance.init({
		lng: lang,
		fallbackLng: options.fallback && lang !== 'en' ? 'en' : false,
		load: 'currentOnly',
		resources: {
			[lang]: catalogue,
			...(options.fallback && lang !== 'en' ? { en: options.fallback } : {})
		},
		ns: [...NAMESPACES],
		defaultNS: 'common',
		initAsync: false,
		returnNull: false,
		returnEmptyString: false,
		interpolation: { escapeValue: false }
	});
	return instance;
}

/** Loads the language's catalogue (lazily, one chunk) and creates an instance for it. */
export async function createI18nFor(lang: SupportedLang): Promise<i18n> {
	return createI18n(lang, await loadLocale(lang));
}

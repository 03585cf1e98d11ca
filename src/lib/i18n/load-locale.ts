import type { LocaleCatalogue } from './catalogue.ts';
import type { SupportedLang } from '../domain/languages.ts';
import { createTranslate, type Translate } from './translate.ts';

// Lazy glob: Vite emits one chunk per language and the browser downloads only the one it asks for.
const loaders = import.meta.glob<LocaleCatalogue>('./locales/*.json', { import: 'default' });

/** Loads one language's catalogue (a separate chunk in the browser build). */
export async function loadLocale(lang: SupportedLang): Promise<LocaleCatalogue> {
	const load = loaders[`./locales/${lang}.json`];
	if (!load) throw new Error(`no locale file for ${lang}`);
	return load();
}

/** Loads the language's catalogue (lazily, one chunk) and makes its translation function. */
export async function createTranslateFor(lang: SupportedLang): Promise<Translate> {
	return createTranslate(lang, await loadLocale(lang));
}

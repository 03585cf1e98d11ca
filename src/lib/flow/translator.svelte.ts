import { getContext, setContext } from 'svelte';
import type { LocaleCatalogue } from '#lib/i18n/catalogue.ts';
import { createTranslate, type Translate } from '#lib/i18n/translate.ts';
import type { SupportedLang } from '#lib/domain/languages.ts';

/** `t` over every namespace: keys are written `'otp:wrongCode'` and checked against en.json. */
export type { Translate };

/**
 * The page's UI language. Starts from the catalogue the server rendered with (so hydration
 * matches) and switches by loading one language chunk. `t` is reactive: text re-renders on switch.
 */
export class Translator {
	lang = $state<SupportedLang>('en');
	t = $state.raw<Translate>() as Translate;

	constructor(lang: SupportedLang, catalogue: LocaleCatalogue) {
		this.lang = lang;
		this.t = createTranslate(lang, catalogue);
	}

	/** Switches the UI language (no-op when it is already this one). */
	async use(lang: SupportedLang): Promise<void> {
		if (lang === this.lang) return;
		// The loaders of every language (one chunk each) come only when a page changes language: most
		// pages keep the one the server rendered in.
		const { loadLocale } = await import('#lib/i18n/load-locale.ts');
		const catalogue = await loadLocale(lang);
		this.t = createTranslate(lang, catalogue);
		this.lang = lang;
		if (typeof document !== 'undefined') document.documentElement.lang = lang;
	}
}

const KEY = Symbol('translator');

export function setTranslator(translator: Translator): Translator {
	return setContext(KEY, translator);
}

export function getTranslator(): Translator {
	return getContext<Translator>(KEY);
}

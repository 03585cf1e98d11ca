// Browser-safe entry point. BUNDLED_LOCALES (all 13 catalogues) is deliberately not re-exported:
// import '#lib/i18n/bundled-locales.ts' from server code or tests only.
export { NAMESPACES, type CatalogueTree, type EnglishCatalogue, type LocaleCatalogue, type Namespace } from './catalogue.ts';
export { createTranslate, type Translate, type TranslateOptions, type TranslateSetup, type TranslationKey } from './translate.ts';
export { pickCustomText } from './custom-text.ts';
export {
	DEFAULT_LANG,
	LANGUAGES,
	SUPPORTED_LANGS,
	isSupportedLang,
	supportedLangSchema,
	toSupportedLang,
	type SupportedLang
} from '../domain/languages.ts';
export { createTranslateFor, loadLocale } from './load-locale.ts';
export { parseAcceptLanguage, resolveLanguage, type ResolveLanguageInput } from './resolve-language.ts';

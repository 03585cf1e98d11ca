import { toSupportedLang, type SupportedLang } from '../domain/languages.ts';

/**
 * Picks an integrator's customised text (for example `permissionsPage.buttonText` with
 * `buttonTextTranslates`) for the session language: the translation keyed by that language (keys are
 * normalised, so `zh-Hant` or `nb` keys work), else the untranslated text, else undefined so the
 * caller uses the catalogue's own string.
 */
export function pickCustomText(
	lang: SupportedLang,
	text: string | undefined,
	translates: Readonly<Record<string, string>> | undefined
): string | undefined {
	if (translates) {
		const exact = translates[lang];
		if (exact?.trim()) return exact;
		for (const [key, value] of Object.entries(translates)) {
			if (value?.trim() && toSupportedLang(key) === lang) return value;
		}
	}
	return text?.trim() ? text : undefined;
}

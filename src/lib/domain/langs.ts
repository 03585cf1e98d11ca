/**
 * The 13 interface languages (`GET /langs`). One definition lives in `./languages.ts`
 * (with BCP-47 normalisation); the domain re-exports it so schemas and services share it.
 */
import { LANGUAGES, SUPPORTED_LANGS, isSupportedLang, type SupportedLang } from './languages.ts';

export { SUPPORTED_LANGS, isSupportedLang, type SupportedLang };

export const LANG_TITLES = Object.fromEntries(LANGUAGES.map((l) => [l.id, l.title])) as Record<SupportedLang, string>;

import type { LocaleCatalogue } from './catalogue.ts';
import type { SupportedLang } from '../domain/languages.ts';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import id from './locales/id.json';
import it from './locales/it.json';
import ja from './locales/ja.json';
import no from './locales/no.json';
import pt from './locales/pt.json';
import ru from './locales/ru.json';
import zhHK from './locales/zh-HK.json';
import zhTW from './locales/zh-TW.json';
import zh from './locales/zh.json';

/**
 * Every catalogue, statically imported: for server code and tests that want all languages at once
 * without awaiting. Browser code must use `loadLocale` instead (importing this module would put all
 * 13 languages into the page's bundle), which is why `#lib/i18n` does not re-export it.
 */
export const BUNDLED_LOCALES: Readonly<Record<SupportedLang, LocaleCatalogue>> = {
	en,
	it,
	de,
	fr,
	es,
	pt,
	ru,
	ja,
	id,
	no,
	zh,
	'zh-TW': zhTW,
	'zh-HK': zhHK
};

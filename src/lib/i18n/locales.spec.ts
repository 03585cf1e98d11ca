import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLED_LOCALES } from './bundled-locales.ts';
import { NAMESPACES } from './catalogue.ts';
import { createTranslate } from './translate.ts';
import { SUPPORTED_LANGS, type SupportedLang } from '../domain/languages.ts';
import { loadLocale } from './load-locale.ts';

/**
 * Values that may equal the English text because they are the same in the other language.
 * A bare key applies to every language; `lang:key` to one language. Keep this list short: each
 * entry is a string a reviewer has checked by hand.
 */
const SAME_AS_ENGLISH_ALLOWED = new Set([
	'common.ok', // "OK" is the word in most of these languages
	'fr:conversation.assistant', // "Assistant" in French
	'fr:document.types.visa', // "visa" in French
	'id:document.types.visa' // "visa" in Indonesian
]);

const PLURAL_SUFFIX = /^(.*)_(zero|one|two|few|many|other)$/;
const VARIABLE = /\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g;

type Flat = Map<string, unknown>;

function flatten(value: unknown, prefix = '', out: Flat = new Map()): Flat {
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
		for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
	} else {
		out.set(prefix, value);
	}
	return out;
}

interface Shape {
	plain: Map<string, string>;
	plural: Map<string, Map<string, string>>;
}

function shape(catalogue: unknown): Shape {
	const plain = new Map<string, string>();
	const plural = new Map<string, Map<string, string>>();
	for (const [key, value] of flatten(catalogue)) {
		const text = typeof value === 'string' ? value : `<<not a string: ${JSON.stringify(value)}>>`;
		const m = PLURAL_SUFFIX.exec(key);
		if (m) {
			const forms = plural.get(m[1]!) ?? new Map<string, string>();
			forms.set(m[2]!, text);
			plural.set(m[1]!, forms);
		} else {
			plain.set(key, text);
		}
	}
	return { plain, plural };
}

function variables(text: string): string[] {
	return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]!))].sort();
}

function categories(lang: string): string[] {
	return [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
}

const english = shape(BUNDLED_LOCALES.en);

/** Every problem of one language's catalogue, as readable lines (empty when it is fine). */
function problems(lang: SupportedLang): string[] {
	const found: string[] = [];
	const own = shape(BUNDLED_LOCALES[lang]);
	const allowed = (key: string) => SAME_AS_ENGLISH_ALLOWED.has(key) || SAME_AS_ENGLISH_ALLOWED.has(`${lang}:${key}`);
	const checkText = (key: string, text: string, en: string) => {
		if (text.trim() === '') found.push(`${key}: empty`);
		else if (text !== text.trim()) found.push(`${key}: leading or trailing white space`);
		if (lang !== 'en' && text === en && !allowed(key)) found.push(`${key}: same as English (${JSON.stringify(en)})`);
		const mine = variables(text).join(',');
		const theirs = variables(en).join(',');
		if (mine !== theirs) found.push(`${key}: variables {${mine}} differ from English {${theirs}}`);
	};

	for (const key of english.plain.keys()) if (!own.plain.has(key)) found.push(`${key}: missing`);
	for (const key of english.plural.keys()) if (!own.plural.has(key)) found.push(`${key}_*: missing plural`);
	for (const key of own.plain.keys()) if (!english.plain.has(key)) found.push(`${key}: not in English`);
	for (const key of own.plural.keys()) if (!english.plural.has(key)) found.push(`${key}_*: plural not in English`);

	for (const [key, text] of own.plain) {
		const en = english.plain.get(key);
		if (en !== undefined) checkText(key, text, en);
	}
	const needed = categories(lang).join(',');
	for (const [key, forms] of own.plural) {
		const enForms = english.plural.get(key);
		if (!enForms) continue;
		const have = [...forms.keys()].sort().join(',');
		if (have !== needed) found.push(`${key}: plural forms {${have}}, ${lang} needs {${needed}}`);
		for (const [form, text] of forms) checkText(`${key}_${form}`, text, enForms.get(form) ?? enForms.get('other') ?? '');
	}
	return found;
}

describe('locale files', () => {
	it('exist for exactly the 13 languages', () => {
		const dir = fileURLToPath(new URL('./locales', import.meta.url));
		const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
		expect(files.sort()).toEqual([...SUPPORTED_LANGS].sort());
	});

	it('have the namespaces as top-level keys', () => {
		for (const lang of SUPPORTED_LANGS) expect(Object.keys(BUNDLED_LOCALES[lang]).sort()).toEqual([...NAMESPACES].sort());
	});

	it('English uses {{count}} in every plural and has the plural forms English needs', () => {
		for (const [key, forms] of english.plural) {
			expect([...forms.keys()].sort(), key).toEqual(categories('en'));
			expect(variables(forms.get('other') ?? ''), key).toContain('count');
		}
	});

	it.each(SUPPORTED_LANGS)('%s is complete, translated and consistent with English', (lang) => {
		expect(problems(lang)).toEqual([]);
	});

	it('allow-list entries are all still needed', () => {
		const unused = [...SAME_AS_ENGLISH_ALLOWED].filter((entry) => {
			const [lang, key] = entry.includes(':') ? entry.split(':') : [undefined, entry];
			const langs = lang ? [lang as SupportedLang] : SUPPORTED_LANGS.filter((l) => l !== 'en');
			const en = english.plain.get(key!);
			return !langs.some((l) => shape(BUNDLED_LOCALES[l]).plain.get(key!) === en);
		});
		expect(unused).toEqual([]);
	});
});

describe('the checker itself', () => {
	it('reports missing, extra, empty, untranslated, wrong variables and wrong plural forms', () => {
		const broken = structuredClone(BUNDLED_LOCALES.ru) as Record<string, Record<string, unknown>>;
		delete broken.common!.continue;
		broken.common!.extra = 'лишний';
		broken.common!.cancel = '';
		broken.common!.back = 'Back';
		broken.otp!.sent = 'Код отправлен на {{target}}.';
		delete broken.otp!.wrongCode_few;
		const original = BUNDLED_LOCALES.ru;
		(BUNDLED_LOCALES as Record<string, unknown>).ru = broken;
		try {
			const found = problems('ru').join('\n');
			expect(found).toContain('common.continue: missing');
			expect(found).toContain('common.extra: not in English');
			expect(found).toContain('common.cancel: empty');
			expect(found).toContain('common.back: same as English');
			expect(found).toContain('otp.sent: variables {target} differ');
			expect(found).toContain('otp.wrongCode: plural forms {many,one,other}, ru needs {few,many,one,other}');
		} finally {
			(BUNDLED_LOCALES as Record<string, unknown>).ru = original;
		}
	});
});

describe('translation', () => {
	it('picks the Russian plural form by number', () => {
		const t = createTranslate('ru', BUNDLED_LOCALES.ru);
		const forms = [1, 2, 5, 21, 22, 25, 11].map((count) => t('otp:wrongCode', { count }));
		expect(forms[0]).toContain('1');
		expect(new Set([forms[0], forms[3]].map((s) => s.replace(/\d+/g, 'N'))).size).toBe(1); // 1 and 21
		expect(new Set([forms[1], forms[4]].map((s) => s.replace(/\d+/g, 'N'))).size).toBe(1); // 2 and 22
		expect(new Set([forms[2], forms[5], forms[6]].map((s) => s.replace(/\d+/g, 'N'))).size).toBe(1); // 5, 25, 11
		expect(new Set([forms[0], forms[1], forms[2]].map((s) => s.replace(/\d+/g, 'N'))).size).toBe(3);
	});

	it('uses one form in Japanese and Chinese and interpolates', () => {
		for (const lang of ['ja', 'zh', 'zh-TW', 'zh-HK'] as const) {
			const t = createTranslate(lang, BUNDLED_LOCALES[lang]);
			expect(t('common:reconnectingIn', { count: 1 })).toContain('1');
			expect(t('common:reconnectingIn', { count: 7 })).toContain('7');
		}
		const en = createTranslate('en', BUNDLED_LOCALES.en);
		expect(en('otp:sent', { destination: 'a***@example.com' })).toBe('We sent a code to a***@example.com.');
		expect(en('common:reconnectingIn', { count: 1 })).toBe('Connection lost. Reconnecting in 1 second…');
		expect(en('common:reconnectingIn', { count: 3 })).toBe('Connection lost. Reconnecting in 3 seconds…');
		expect(en('permissions:howTo.safariIos')).toContain('Safari');
		expect(en('continue')).toBe('Continue');
	});

	it('does not HTML-escape (Svelte does) and falls back to English when asked', () => {
		const t = createTranslate('de', { ...BUNDLED_LOCALES.de, common: {} } as never, { fallback: BUNDLED_LOCALES.en });
		expect(t('common:continue')).toBe('Continue');
		expect(createTranslate('en', BUNDLED_LOCALES.en)('otp:sent', { destination: '<b>' })).toContain('<b>');
	});

	it('loads each language lazily with the same content', async () => {
		for (const lang of SUPPORTED_LANGS) expect(await loadLocale(lang)).toEqual(BUNDLED_LOCALES[lang]);
	});
});

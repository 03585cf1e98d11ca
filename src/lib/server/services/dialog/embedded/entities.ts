import type { SupportedLang } from '../dialog.types.ts';
import { findDate } from './date-words.ts';
import { INTENT_LEXICONS } from './intent-lexicon.ts';
import { findNumberWord } from './number-words.ts';
import { isCjkLang, normalize } from './text.ts';

export interface Entities {
	name?: string;
	email?: string;
	number?: string;
	date?: string;
	phone?: string;
}

/** How sure the name is: a "bare" name is the whole reply, so it only counts if no intent was heard. */
export interface ExtractedEntities {
	entities: Entities;
	bareName: boolean;
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u;
const AT_WORDS = ['at', 'at sign', 'chiocciola', 'ät', 'arobase', 'arrobase', 'arroba', 'собака', 'собачка', 'アットマーク', 'krøllalfa', 'alfakrøll', '艾特'];
const DOT_WORDS = ['dot', 'punto', 'punkt', 'point', 'ponto', 'точка', 'ドット', 'titik', 'punktum', '点', '點'];

/** Finds an address typed (`a@b.com`) or dictated (`anna dot smith at example dot com`). */
function findEmail(text: string): { value: string; start: number; end: number } | null {
	const typed = EMAIL.exec(text);
	if (typed) return { value: typed[0].toLowerCase(), start: typed.index, end: typed.index + typed[0].length };
	const spoken = ` ${text.toLowerCase()} `;
	const at = new RegExp(`\\s(?:${AT_WORDS.join('|')})\\s`, 'u');
	if (!at.test(spoken)) return null;
	const rebuilt = spoken
		.replace(at, '@')
		.replace(new RegExp(`\\s(?:${DOT_WORDS.join('|')})\\s`, 'gu'), '.')
		.replace(/\s*([@.])\s*/g, '$1');
	const m = EMAIL.exec(rebuilt);
	return m ? { value: m[0].toLowerCase(), start: 0, end: text.length } : null;
}

const PHONE = /(?:\+|\b00)\s?\d[\d\s().-]{6,18}\d/;

function findPhone(text: string): { value: string; start: number; end: number } | null {
	const m = PHONE.exec(text);
	if (!m) return null;
	const digits = m[0].replace(/\D/g, '').replace(/^00/, '');
	if (digits.length < 8 || digits.length > 15 || digits.startsWith('0')) return null;
	return { value: `+${digits}`, start: m.index, end: m.index + m[0].length };
}

// Leads that introduce a name for sure, and weaker ones ("I'm …") that need a capitalised name.
const STRONG_LEADS: Partial<Record<SupportedLang, string[]>> = {
	en: ['my name is', "my name's", 'name is', 'call me', 'i am called', "i'm called", 'they call me', 'name:'],
	it: ['mi chiamo', 'il mio nome è', 'il mio nome e', 'mi chiamano', 'chiamami'],
	de: ['ich heiße', 'ich heisse', 'mein name ist', 'man nennt mich', 'nennen sie mich', 'nenn mich'],
	fr: ["je m'appelle", 'je m’appelle', 'mon nom est', "mon nom c'est", 'appelez-moi', "on m'appelle"],
	es: ['me llamo', 'mi nombre es', 'llámame', 'llamame'],
	pt: ['meu nome é', 'o meu nome é', 'meu nome e', 'me chamo', 'chamo-me', 'pode me chamar de'],
	ru: ['меня зовут', 'моё имя', 'мое имя', 'зовите меня'],
	id: ['nama saya adalah', 'nama saya', 'namaku', 'panggil saya', 'nama aku'],
	no: ['jeg heter', 'navnet mitt er', 'mitt navn er', 'jeg kalles']
};
const WEAK_LEADS: Partial<Record<SupportedLang, string[]>> = {
	en: ["i'm", 'i’m', 'i am', "it's", 'this is'],
	it: ['sono', 'io sono'],
	de: ['ich bin', 'hier ist'],
	fr: ['je suis', "c'est", 'moi c’est', "moi c'est"],
	es: ['soy', 'yo soy'],
	pt: ['sou', 'eu sou', 'sou o', 'sou a'],
	ru: ['я', 'это'],
	id: ['saya', 'aku', 'ini'],
	no: ['jeg er', 'det er']
};
const NAME_WORD = /^\p{L}[\p{L}\p{M}'’.-]*$/u;
// Words that follow "I'm…" or stand alone without being a name (greetings, politeness, fillers).
const COMMON_WORDS: Partial<Record<SupportedLang, string>> = {
	en: 'and but please thanks thank you hello hi hey the a an here name ready fine good well sorry happy not very so just also now glad',
	it: 'e ed ma grazie ciao salve buongiorno per favore qui il lo la un una molto bene felice',
	de: 'und aber danke bitte hallo guten tag hier der die das ein eine sehr gut froh',
	fr: 'et mais merci bonjour salut sil vous plait ici le la un une tres bien content contente',
	es: 'y pero gracias hola por favor aqui el la un una muy bien contento contenta',
	pt: 'e mas obrigado obrigada ola oi por favor aqui o a um uma muito bem feliz',
	ru: 'и но спасибо привет здравствуйте пожалуйста здесь очень хорошо рад рада',
	id: 'dan tapi terima kasih halo hai tolong di sini sangat baik senang',
	no: 'og men takk hei hallo vær så snill her veldig bra glad'
};

const stopWordCache = new Map<SupportedLang, Set<string>>();
function stopWords(lang: SupportedLang): Set<string> {
	let set = stopWordCache.get(lang);
	if (!set) {
		set = new Set(normalize(`${COMMON_WORDS[lang] ?? ''} ${COMMON_WORDS.en}`).split(' '));
		for (const source of [INTENT_LEXICONS[lang], INTENT_LEXICONS.en]) {
			for (const phrases of Object.values(source)) {
				for (const phrase of phrases) for (const word of normalize(phrase.replace(/^[=^]/, '')).split(' ')) set.add(word);
			}
		}
		stopWordCache.set(lang, set);
	}
	return set;
}

/** Name words after a lead, up to the first stop word, punctuation or non-name word. */
function takeName(rest: string, lang: SupportedLang, needCapital: boolean): string | null {
	const clause = rest.split(/[,.;:!?¿¡。、！？]/u)[0]!.trim();
	const words: string[] = [];
	for (const word of clause.split(/\s+/)) {
		if (!word || !NAME_WORD.test(word) || stopWords(lang).has(normalize(word))) break;
		words.push(word);
		if (words.length === 4) break;
	}
	if (words.length === 0) return null;
	if (needCapital && !/^\p{Lu}/u.test(words[0]!)) return null;
	return words.join(' ');
}

function escapeRegex(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function findLatinName(text: string, lang: SupportedLang): { name: string; bare: boolean } | null {
	for (const [leads, weak] of [[STRONG_LEADS, false], [WEAK_LEADS, true]] as const) {
		for (const lead of [...(leads[lang] ?? []), ...(lang === 'en' ? [] : (leads.en ?? []))]) {
			const m = new RegExp(`(?:^|[\\s,.!?¡¿])${escapeRegex(lead)}\\s+`, 'iu').exec(text);
			if (!m) continue;
			const name = takeName(text.slice(m.index + m[0].length), lang, weak);
			if (name) return { name, bare: false };
		}
	}
	const words = text.trim().replace(/[.!。]+$/u, '').split(/\s+/);
	if (words.length <= 3 && words.every((w) => NAME_WORD.test(w) && w.length > 1 && !stopWords(lang).has(normalize(w)))) {
		return { name: words.join(' '), bare: true };
	}
	return null;
}

const HAN_NAME = '[\\p{Script=Han}·]{1,6}';
const JA_NAME = '[\\p{Script=Han}\\p{Script=Katakana}ー・]{1,12}';
const LATIN_NAME = "[A-Za-z][A-Za-z .'-]{0,40}";

function cjkNameAllowed(name: string, lang: SupportedLang): boolean {
	const normalized = normalize(name);
	const lexicon = INTENT_LEXICONS[lang];
	return !Object.values(lexicon).some((phrases) =>
		phrases.some((p) => {
			const phrase = normalize(p.replace(/^[=^]/, ''));
			return phrase.length > 0 && normalized.includes(phrase);
		})
	);
}

function findCjkName(text: string, lang: SupportedLang): { name: string; bare: boolean } | null {
	const t = text.normalize('NFKC').trim().replace(/[。.!！]+$/u, '');
	const patterns: [RegExp, boolean][] =
		lang === 'ja'
			? [
					[new RegExp(`^(?:私の|わたしの)?名前は\\s*(${JA_NAME}|${LATIN_NAME})\\s*(?:です|と申します|といいます)?$`, 'u'), false],
					[new RegExp(`^(?:私は|わたしは)?\\s*(${JA_NAME}|${LATIN_NAME})\\s*(?:と申します|といいます|と言います)$`, 'u'), false],
					[new RegExp(`^(?:私は|わたしは)?\\s*(${JA_NAME})\\s*です$`, 'u'), true]
				]
			: [
					[new RegExp(`(?:我叫|我的名字是|我的名字叫|我名叫|名字是|名字叫|我個名叫|我嘅名係|我嘅名字係|我姓名是)\\s*(${HAN_NAME}|${LATIN_NAME})`, 'u'), false],
					[new RegExp(`^(?:我是|我係)\\s*(\\p{Script=Han}{2,4})$`, 'u'), true]
				];
	for (const [pattern, weak] of patterns) {
		const m = pattern.exec(t);
		const name = m?.[1]?.trim().replace(/[啊呀啦吧的喔哦]+$/u, '');
		if (name && (!weak || cjkNameAllowed(name, lang))) return { name, bare: false };
	}
	const bare = lang === 'ja' ? new RegExp(`^${JA_NAME}$`, 'u') : /^\p{Script=Han}{2,4}$/u;
	if (bare.test(t) && cjkNameAllowed(t, lang)) return { name: t, bare: true };
	return null;
}

/** Every entity the reply contains, in the session language (and English). */
export function extractEntities(reply: string, lang: SupportedLang, now: Date): ExtractedEntities {
	const text = reply.slice(0, 1000);
	const entities: Entities = {};
	const spans: [number, number][] = [];
	const email = findEmail(text);
	if (email) {
		entities.email = email.value;
		spans.push([email.start, email.end]);
	}
	const date = findDate(text, lang, now);
	if (date && !spans.some(([s, e]) => date.start < e && s < date.end)) {
		entities.date = date.iso;
		spans.push([date.start, date.end]);
	}
	const phone = findPhone(text);
	if (phone && !spans.some(([s, e]) => phone.start < e && s < phone.end)) {
		entities.phone = phone.value;
		spans.push([phone.start, phone.end]);
	}
	let rest = text;
	for (const [s, e] of [...spans].sort((a, b) => b[0] - a[0])) rest = `${rest.slice(0, s)} ${rest.slice(e)}`;
	const digits = /(?<![\p{Script=Latin}\p{Script=Cyrillic}\p{N}.,])[-+]?\d+(?:[.,]\d+)?(?![\p{N}])/u.exec(rest.normalize('NFKC'));
	if (digits) entities.number = digits[0].replace(',', '.');
	else {
		const word = findNumberWord(normalize(rest), lang);
		if (word) entities.number = String(word.value);
	}
	let bareName = false;
	if (!entities.email && !entities.phone) {
		const found = isCjkLang(lang) && /\p{Script=Han}|\p{Script=Katakana}|\p{Script=Hiragana}/u.test(rest)
			? findCjkName(rest, lang)
			: findLatinName(rest, lang);
		// A lone number word ("five") is an answer with a number, not a name.
		if (found && !/\d/.test(found.name) && !(found.bare && entities.number)) {
			entities.name = found.name;
			bareName = found.bare;
		}
	}
	return { entities, bareName };
}

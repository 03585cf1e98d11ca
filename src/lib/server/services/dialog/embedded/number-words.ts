import type { SupportedLang } from '../dialog.types.ts';
import { compileLexicon, findMatches, type LexiconEntry } from './text.ts';

/**
 * Number words from 0 to 99 (and 100) in the 13 languages, for replies such as "I'm thirty-five"
 * or "dreiundzwanzig". Words that are also articles ("un", "ein", "um", "en") count only when they
 * are the whole reply, so "un momento" is not the number 1.
 */

type Table = [string, number][];

const EN_UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function additive(units: readonly string[], tens: readonly string[], join: (ten: string, unit: string, u: number) => string[]): Table {
	const table: Table = units.map((w, i) => [w, i]);
	for (let t = 2; t <= 9; t++) {
		if (!tens[t]) continue;
		table.push([tens[t]!, t * 10]);
		for (let u = 1; u <= 9; u++) for (const w of join(tens[t]!, units[u]!, u)) table.push([w, t * 10 + u]);
	}
	return table;
}

const en = additive(EN_UNITS, EN_TENS, (t, u) => [`${t} ${u}`]).concat([['hundred', 100], ['a hundred', 100], ['one hundred', 100]]);

const IT_UNITS = ['zero', 'uno', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove', 'dieci', 'undici', 'dodici', 'tredici', 'quattordici', 'quindici', 'sedici', 'diciassette', 'diciotto', 'diciannove'];
const IT_TENS = ['', '', 'venti', 'trenta', 'quaranta', 'cinquanta', 'sessanta', 'settanta', 'ottanta', 'novanta'];
const it = additive(IT_UNITS, IT_TENS, (t, u) => [/^[aeiou]/.test(u) ? t.slice(0, -1) + u : t + u]).concat([['cento', 100], ['=un', 1], ['=una', 1]]);

const DE_UNITS = ['null', 'eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'elf', 'zwölf', 'dreizehn', 'vierzehn', 'fünfzehn', 'sechzehn', 'siebzehn', 'achtzehn', 'neunzehn'];
const DE_TENS = ['', '', 'zwanzig', 'dreißig', 'vierzig', 'fünfzig', 'sechzig', 'siebzig', 'achtzig', 'neunzig'];
const de = additive(DE_UNITS, DE_TENS, (t, _u, n) => [`${n === 1 ? 'ein' : DE_UNITS[n]}und${t}`]).concat([['hundert', 100], ['einhundert', 100], ['=ein', 1], ['=eine', 1]]);

const FR_UNITS = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze', 'treize', 'quatorze', 'quinze', 'seize', 'dix-sept', 'dix-huit', 'dix-neuf'];
const fr: Table = (() => {
	const table: Table = FR_UNITS.map((w, i) => [i === 1 ? '=un' : w, i]);
	table.push(['=une', 1]);
	const tens: [string, number][] = [['vingt', 20], ['trente', 30], ['quarante', 40], ['cinquante', 50], ['soixante', 60], ['septante', 70], ['huitante', 80], ['octante', 80], ['nonante', 90]];
	for (const [word, value] of tens) {
		table.push([word, value]);
		table.push([`${word} et un`, value + 1]);
		for (let u = 2; u <= 9; u++) table.push([`${word}-${FR_UNITS[u]}`, value + u]);
	}
	for (let u = 0; u <= 9; u++) table.push([u === 1 ? 'soixante et onze' : `soixante-${FR_UNITS[10 + u]}`, 70 + u]);
	table.push(['quatre-vingts', 80], ['quatre-vingt', 80]);
	for (let u = 1; u <= 9; u++) table.push([`quatre-vingt-${FR_UNITS[u]}`, 80 + u]);
	for (let u = 0; u <= 9; u++) table.push([`quatre-vingt-${FR_UNITS[10 + u]}`, 90 + u]);
	table.push(['cent', 100]);
	return table;
})();

const ES_UNITS = ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'once', 'doce', 'trece', 'catorce', 'quince', 'dieciséis', 'diecisiete', 'dieciocho', 'diecinueve'];
const ES_TENS = ['', '', 'veinte', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const ES_VEINTI = ['', 'veintiuno', 'veintidós', 'veintitrés', 'veinticuatro', 'veinticinco', 'veintiséis', 'veintisiete', 'veintiocho', 'veintinueve'];
const es = additive(ES_UNITS, ES_TENS, (t, u, n) => (t === 'veinte' ? [ES_VEINTI[n]!] : [`${t} y ${u}`])).concat([['cien', 100], ['=un', 1], ['=una', 1]]);

const PT_UNITS = ['zero', 'um', 'dois', 'três', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove', 'dez', 'onze', 'doze', 'treze', 'catorze', 'quinze', 'dezesseis', 'dezessete', 'dezoito', 'dezenove'];
const PT_TENS = ['', '', 'vinte', 'trinta', 'quarenta', 'cinquenta', 'sessenta', 'setenta', 'oitenta', 'noventa'];
const pt = additive(PT_UNITS.map((w, i) => (i === 1 ? '=um' : w)), PT_TENS, (t, _u, n) => [`${t} e ${PT_UNITS[n]}`]).concat([
	['cem', 100], ['=uma', 1], ['duas', 2], ['quatorze', 14], ['dezasseis', 16], ['dezassete', 17], ['dezanove', 19]
]);

const RU_UNITS = ['ноль', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять', 'десять', 'одиннадцать', 'двенадцать', 'тринадцать', 'четырнадцать', 'пятнадцать', 'шестнадцать', 'семнадцать', 'восемнадцать', 'девятнадцать'];
const RU_TENS = ['', '', 'двадцать', 'тридцать', 'сорок', 'пятьдесят', 'шестьдесят', 'семьдесят', 'восемьдесят', 'девяносто'];
const ru = additive(RU_UNITS, RU_TENS, (t, u) => [`${t} ${u}`]).concat([['сто', 100], ['одна', 1], ['одно', 1], ['две', 2]]);

const ID_UNITS = ['nol', 'satu', 'dua', 'tiga', 'empat', 'lima', 'enam', 'tujuh', 'delapan', 'sembilan'];
const id: Table = (() => {
	const table: Table = ID_UNITS.map((w, i) => [w, i]);
	table.push(['kosong', 0], ['sepuluh', 10], ['sebelas', 11], ['seratus', 100]);
	for (let u = 2; u <= 9; u++) table.push([`${ID_UNITS[u]} belas`, 10 + u]);
	for (let t = 2; t <= 9; t++) {
		table.push([`${ID_UNITS[t]} puluh`, t * 10]);
		for (let u = 1; u <= 9; u++) table.push([`${ID_UNITS[t]} puluh ${ID_UNITS[u]}`, t * 10 + u]);
	}
	return table;
})();

const NO_UNITS = ['null', 'én', 'to', 'tre', 'fire', 'fem', 'seks', 'sju', 'åtte', 'ni', 'ti', 'elleve', 'tolv', 'tretten', 'fjorten', 'femten', 'seksten', 'sytten', 'atten', 'nitten'];
const NO_TENS = ['', '', 'tjue', 'tretti', 'førti', 'femti', 'seksti', 'sytti', 'åtti', 'nitti'];
const no = additive(NO_UNITS, NO_TENS, (t, _u, n) => [`${t}${n === 1 ? 'en' : NO_UNITS[n]}`, `${n === 1 ? 'en' : NO_UNITS[n]} og ${t}`]).concat([
	['hundre', 100], ['=en', 1], ['=ett', 1], ['=ei', 1], ['syv', 7], ['tyve', 20], ['tredve', 30]
]);

const TABLES: Record<Exclude<SupportedLang, 'ja' | 'zh' | 'zh-TW' | 'zh-HK'>, Table> = { en, it, de, fr, es, pt, ru, id, no };

const compiled = new Map<string, LexiconEntry<number>[]>();
function lexiconFor(lang: SupportedLang): LexiconEntry<number>[] {
	const key = lang in TABLES ? lang : 'en';
	let lexicon = compiled.get(key);
	if (!lexicon) {
		const table = TABLES[key as keyof typeof TABLES];
		// English words count in every language: people switch to English for numbers.
		lexicon = compileLexicon(key === 'en' ? table : [...table, ...en]);
		compiled.set(key, lexicon);
	}
	return lexicon;
}

const CJK_DIGITS: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** Parses Chinese/Japanese numerals up to 999 (`十五`, `二十`, `三十七`, `一百`). */
export function parseCjkNumber(text: string): number | null {
	if (!/^[〇零一二两兩三四五六七八九十百]+$/.test(text)) return null;
	let total = 0;
	let current = 0;
	for (const ch of text) {
		if (ch === '百') {
			total += (current || 1) * 100;
			current = 0;
		} else if (ch === '十') {
			total += (current || 1) * 10;
			current = 0;
		} else {
			current = current * 10 + CJK_DIGITS[ch]!;
		}
	}
	return total + current;
}

/** The first number written in words in normalised text, with its position. */
export function findNumberWord(normalized: string, lang: SupportedLang): { value: number; start: number; end: number } | null {
	if (lang === 'ja' || lang.startsWith('zh')) {
		// 一 also starts words (一会儿 "a moment", 一下 "a bit"): a numeral counts only as the whole
		// reply or before a counter (岁, 个, 号…).
		const m = /[〇零一二两兩三四五六七八九十百]+(?=$|\s|[岁歲歳才个個号號番人本位名点點分秒月日年次回])/.exec(normalized);
		const value = m ? parseCjkNumber(m[0]) : null;
		if (m && value !== null) return { value, start: m.index, end: m.index + m[0].length };
		lang = 'en';
	}
	const first = findMatches(normalized, lexiconFor(lang))[0];
	return first ? { value: first.value, start: first.start, end: first.end } : null;
}

import type { SupportedLang } from '../dialog.types.ts';
import { compileLexicon, findMatches, normalize, type LexiconEntry } from './text.ts';

/**
 * Dates in replies: ISO (`1990-03-15`), the local numeric order (`15.03.1990`, `3/15/1990` in
 * English when unambiguous, `1990/3/15`), CJK (`1990年3月15日`) and month names in each language
 * (`15 March 1990`, `March 15th, 1990`, `15. März 1990`, `15 de marzo de 1990`, `15 марта 1990`).
 * Two-digit years are read as the most recent such year not in the future.
 */

const MONTHS: Partial<Record<SupportedLang, readonly (readonly string[])[]>> = {
	en: [['january', 'jan'], ['february', 'feb'], ['march', 'mar'], ['april', 'apr'], ['may'], ['june', 'jun'], ['july', 'jul'], ['august', 'aug'], ['september', 'sep', 'sept'], ['october', 'oct'], ['november', 'nov'], ['december', 'dec']],
	it: [['gennaio'], ['febbraio'], ['marzo'], ['aprile'], ['maggio'], ['giugno'], ['luglio'], ['agosto'], ['settembre'], ['ottobre'], ['novembre'], ['dicembre']],
	de: [['januar', 'jänner'], ['februar'], ['märz'], ['april'], ['mai'], ['juni'], ['juli'], ['august'], ['september'], ['oktober'], ['november'], ['dezember']],
	fr: [['janvier'], ['février'], ['mars'], ['avril'], ['mai'], ['juin'], ['juillet'], ['août'], ['septembre'], ['octobre'], ['novembre'], ['décembre']],
	es: [['enero'], ['febrero'], ['marzo'], ['abril'], ['mayo'], ['junio'], ['julio'], ['agosto'], ['septiembre', 'setiembre'], ['octubre'], ['noviembre'], ['diciembre']],
	pt: [['janeiro'], ['fevereiro'], ['março'], ['abril'], ['maio'], ['junho'], ['julho'], ['agosto'], ['setembro'], ['outubro'], ['novembro'], ['dezembro']],
	ru: [['январь', 'января'], ['февраль', 'февраля'], ['март', 'марта'], ['апрель', 'апреля'], ['май', 'мая'], ['июнь', 'июня'], ['июль', 'июля'], ['август', 'августа'], ['сентябрь', 'сентября'], ['октябрь', 'октября'], ['ноябрь', 'ноября'], ['декабрь', 'декабря']],
	id: [['januari'], ['februari'], ['maret'], ['april'], ['mei'], ['juni'], ['juli'], ['agustus'], ['september'], ['oktober'], ['november'], ['desember']],
	no: [['januar'], ['februar'], ['mars'], ['april'], ['mai'], ['juni'], ['juli'], ['august'], ['september'], ['oktober'], ['november'], ['desember']]
};

const monthLexicons = new Map<string, LexiconEntry<number>[]>();
function monthLexicon(lang: SupportedLang): LexiconEntry<number>[] {
	let lexicon = monthLexicons.get(lang);
	if (!lexicon) {
		const entries: [string, number][] = [];
		for (const table of [MONTHS[lang] ?? [], lang === 'en' ? [] : MONTHS.en!]) {
			table.forEach((names, i) => names.forEach((name) => entries.push([name, i + 1])));
		}
		lexicon = compileLexicon(entries);
		monthLexicons.set(lang, lexicon);
	}
	return lexicon;
}

function iso(year: number, month: number, day: number): string | null {
	if (month < 1 || month > 12 || day < 1) return null;
	if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function fullYear(raw: string, now: Date): number {
	if (raw.length !== 2) return Number(raw);
	const yy = Number(raw);
	const century = Math.floor(now.getUTCFullYear() / 100) * 100;
	return century + yy > now.getUTCFullYear() ? century - 100 + yy : century + yy;
}

export interface FoundDate {
	iso: string;
	start: number;
	end: number;
}

/** The first date in the text (original, not normalised), as an ISO calendar date. */
export function findDate(text: string, lang: SupportedLang, now: Date): FoundDate | null {
	const t = text.normalize('NFKC');
	const isoMatch = /(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/.exec(t);
	if (isoMatch) {
		const d = iso(Number(isoMatch[1]), Number(isoMatch[2]), Number(isoMatch[3]));
		if (d) return { iso: d, start: isoMatch.index, end: isoMatch.index + isoMatch[0].length };
	}
	const cjk = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]?/.exec(t);
	if (cjk) {
		const d = iso(Number(cjk[1]), Number(cjk[2]), Number(cjk[3]));
		if (d) return { iso: d, start: cjk.index, end: cjk.index + cjk[0].length };
	}
	const numeric = /(?<![\d.])(\d{1,4})\s?[./-]\s?(\d{1,2})\s?[./-]\s?(\d{2,4})(?![\d])/.exec(t);
	if (numeric) {
		const [a, b, c] = [numeric[1]!, numeric[2]!, numeric[3]!];
		let d: string | null = null;
		if (a.length === 4) d = iso(Number(a), Number(b), Number(c));
		else if (c.length === 4 || c.length === 2) {
			const year = fullYear(c, now);
			const [x, y] = [Number(a), Number(b)];
			// English: month first (US order) unless that is impossible; elsewhere day first.
			const monthFirst = lang === 'en' ? x <= 12 : y > 12;
			d = monthFirst ? (iso(year, x, y) ?? iso(year, y, x)) : (iso(year, y, x) ?? iso(year, x, y));
		}
		if (d) return { iso: d, start: numeric.index, end: numeric.index + numeric[0].length };
	}
	return findNamedMonthDate(t, lang, now);
}

function findNamedMonthDate(text: string, lang: SupportedLang, now: Date): FoundDate | null {
	const normalized = normalize(text);
	for (const month of findMatches(normalized, monthLexicon(lang))) {
		const before = normalized.slice(0, month.start);
		const after = normalized.slice(month.end);
		// "15 March 1990", "15. März 1990", "15 de marzo de 1990", "le 15 mars 1990", "the 15th of March 1990"
		const dayBefore = /(?:^|\s)(\d{1,2})(?:st|nd|rd|th|er|e|º|o)?(?:\s+(?:of|de|di|del))?\s*$/.exec(before);
		const yearAfter = /^\s*(?:(?:de|del|of|года|г)\s+)?(\d{4}|\d{2})(?!\d)/.exec(after);
		if (dayBefore && yearAfter) {
			const d = iso(fullYear(yearAfter[1]!, now), month.value, Number(dayBefore[1]));
			if (d) return { iso: d, start: 0, end: text.length };
		}
		// "March 15, 1990", "March 15th 1990"
		const dayYearAfter = /^\s*(\d{1,2})(?:st|nd|rd|th)?\s+(\d{4})(?!\d)/.exec(after);
		if (dayYearAfter) {
			const d = iso(Number(dayYearAfter[2]), month.value, Number(dayYearAfter[1]));
			if (d) return { iso: d, start: 0, end: text.length };
		}
	}
	return null;
}

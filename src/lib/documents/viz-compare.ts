/**
 * The visual zone (VIZ: the printed surname, given names, document number and dates of the data
 * page) compared with the MRZ. Pure: what was read where is viz-fields.ts's job, reading it the
 * server's. Three answers per field, never a guess:
 * - `agree`: the VIZ says exactly what the MRZ says, every VIZ glyph read with confidence — strong
 *   enough to vouch for an MRZ field the recogniser was unsure of;
 * - `disagree`: a VIZ glyph read with confidence contradicts the MRZ (MRZ_VIZ_MISMATCH);
 * - `unsure`: neither (a dropped diacritic, a look-alike, an unsure glyph, a glyph missing);
 * - `notChecked`: the field's VIZ value was not found or not read. Never a mismatch.
 */
import { isoDate } from './document-dates.ts';

/** One recognised VIZ text: its characters with the recogniser's probability for each. */
export interface VizText {
	text: string;
	/** Probability of each character of `text` (same length). */
	charConfidences: readonly number[];
}

export const VIZ_FIELDS = ['lastName', 'firstName', 'documentNumber', 'dateOfBirth', 'expiryDate'] as const;
export type VizField = (typeof VIZ_FIELDS)[number];
export type VizFieldCheck = 'agree' | 'unsure' | 'disagree' | 'notChecked';

/**
 * A VIZ glyph read with less probability than this cannot contradict the MRZ (a misread VIZ is not
 * a tampered document), and one below AGREE_CHAR_CONFIDENCE cannot vouch for it. Chosen a priori
 * (the recogniser's probabilities on clean print sit near 1), checked on the generated set
 * (scripts/eval/documents-synthetic.ts), never on the shared fixtures.
 */
export const CONTRADICT_CHAR_CONFIDENCE = 0.8;
export const AGREE_CHAR_CONFIDENCE = 0.9;

/**
 * ICAO 9303 part 3 (§6, transliteration of multinational Latin characters): the MRZ forms a VIZ
 * letter may take where it is not its bare base letter. Where 9303 lists two (Ä → AE, or A as
 * some states write it), either is right. Other diacritics drop to the base letter (É → E).
 */
const TRANSLITERATION: Readonly<Record<string, readonly string[]>> = {
	Ä: ['AE', 'A'],
	Æ: ['AE'],
	Å: ['AA', 'A'],
	Ö: ['OE', 'O'],
	Ø: ['OE', 'O'],
	Œ: ['OE'],
	Ü: ['UE', 'U'],
	ß: ['SS'],
	ẞ: ['SS'],
	Þ: ['TH'],
	Ð: ['D'],
	Đ: ['D'],
	Ħ: ['H'],
	Ł: ['L'],
	Ŀ: ['L'],
	Ŋ: ['N'],
	Ĳ: ['IJ'],
	Ñ: ['N', 'NXX'],
	ı: ['I']
};

/** The MRZ forms of one VIZ character (upper-cased): several for 9303's choices, [] when it is dropped. */
export function mrzFormsOf(ch: string): readonly string[] {
	const direct = TRANSLITERATION[ch] ?? TRANSLITERATION[ch.toUpperCase()];
	if (direct) return direct;
	const up = ch.toUpperCase();
	if (/^[A-Z0-9]$/.test(up)) return [up];
	// Decomposed: the base letter without its marks (É → E, Č → C, Ş → S).
	const base = up.normalize('NFD').replace(/\p{M}+/gu, '');
	if (/^[A-Z]$/.test(base)) return [base];
	// Apostrophes and periods are left out of the MRZ; anything else has no MRZ form we can check.
	return [];
}

/** A name as the MRZ spells it for comparison: upper case, hyphens and commas as spaces, one space between parts. */
export function normaliseVizName(text: string): string {
	return text
		.toUpperCase()
		.replace(/[-,‐–<]+/g, ' ')
		.replace(/['’`´.]/g, '')
		.replace(/\s+/g, ' ')
		.trim();
}

/** Transliterates a printed name as 9303 recommends (the first form of each letter): `MÜLLER-LÜDENSCHEIDT` → `MUELLER LUEDENSCHEIDT`. */
export function transliterateName(text: string): string {
	return [...normaliseVizName(text)].map((ch) => (ch === ' ' ? ' ' : (mrzFormsOf(ch)[0] ?? ''))).join('');
}

/** Glyphs the recogniser confuses in print as in OCR-B: a difference between them proves nothing. */
const LOOKALIKES = ['O0DQ', 'I1L', 'B8', 'S5', 'Z2', 'G6', 'A4'];
const lookalike = (a: string, b: string) => LOOKALIKES.some((g) => g.includes(a) && g.includes(b));
/** A letter whose diacritic the recogniser may drop, and the MRZ continuation 9303 gives it (Ä → AE, Å → AA). */
const DROPPED_MARK: Readonly<Record<string, readonly string[]>> = { A: ['E', 'A'], O: ['E'], U: ['E'] };

interface Cost {
	disagree: number;
	unsure: number;
	weak: number;
}
// Fewest differences of any kind first (a glyph missing and one extra must not explain away one
// clearly different glyph), then the kinder explanation (doubt before disagreement).
const better = (a: Cost, b: Cost) => a.disagree + a.unsure - (b.disagree + b.unsure) || a.disagree - b.disagree || a.weak - b.weak;
const add = (c: Cost, d: Partial<Cost>): Cost => ({ disagree: c.disagree + (d.disagree ?? 0), unsure: c.unsure + (d.unsure ?? 0), weak: c.weak + (d.weak ?? 0) });

/**
 * Aligns a VIZ reading with an MRZ value (both without spaces at the ends) at the least cost:
 * transliteration choices are free; a confident glyph that is not the MRZ's, a disagreement; a
 * look-alike, an unsure glyph, a glyph missing or extra, or a dropped diacritic, doubt; a glyph
 * read below AGREE_CHAR_CONFIDENCE, weak (cannot vouch). `truncated`: the MRZ field was full, so
 * the VIZ may go on after it (9303 truncates long names).
 */
export function alignWithMrz(viz: VizText, mrz: string, options: { truncated?: boolean; name?: boolean } = {}): VizFieldCheck {
	const chars = [...viz.text];
	const conf = (i: number) => viz.charConfidences[i] ?? 0;
	const n = chars.length;
	const m = mrz.length;
	const INF: Cost = { disagree: Infinity, unsure: 0, weak: 0 };
	// best[i][j]: the VIZ's first i characters against the MRZ's first j.
	const best: Cost[][] = Array.from({ length: n + 1 }, () => Array.from({ length: m + 1 }, () => INF));
	best[0][0] = { disagree: 0, unsure: 0, weak: 0 };
	const relax = (i: number, j: number, c: Cost) => {
		if (i <= n && j <= m && better(c, best[i][j]) < 0) best[i][j] = c;
	};
	for (let i = 0; i <= n; i++) {
		for (let j = 0; j <= m; j++) {
			const here = best[i][j];
			if (here.disagree === Infinity) continue;
			// An MRZ glyph the VIZ reading lacks (the recogniser drops narrow glyphs): doubt.
			if (j < m) relax(i, j + 1, add(here, { unsure: 1 }));
			if (i === n) continue;
			const ch = options.name ? chars[i] : chars[i].toUpperCase();
			const p = conf(i);
			const weak = p < AGREE_CHAR_CONFIDENCE ? 1 : 0;
			const forms = ch === ' ' ? [' '] : mrzFormsOf(ch);
			// A VIZ glyph with no MRZ form (an apostrophe) or one extra: left out, with doubt unless it has no form.
			relax(i + 1, j, add(here, forms.length === 0 ? {} : { unsure: 1 }));
			for (const f of forms) if (mrz.startsWith(f, j)) relax(i + 1, j + f.length, add(here, { weak }));
			if (j < m) {
				const bare = forms[0] ?? '';
				// A bare A/O/U where the MRZ has AE/OE/UE/AA: the recogniser may have dropped the umlaut.
				if (bare.length === 1 && mrz[j] === bare && (DROPPED_MARK[bare] ?? []).includes(mrz[j + 1] ?? '')) relax(i + 1, j + 2, add(here, { unsure: 1 }));
				if (!forms.some((f) => mrz.startsWith(f, j))) {
					const doubtful = p < CONTRADICT_CHAR_CONFIDENCE || lookalike(bare, mrz[j]) || mrz[j] === ' ' || bare === ' ';
					relax(i + 1, j + 1, add(here, doubtful ? { unsure: 1 } : { disagree: 1 }));
				}
			}
		}
	}
	// A truncated MRZ name: the VIZ may go on after the MRZ's last glyph.
	let end = best[n][m];
	if (options.truncated) for (let i = 0; i < n; i++) if (better(best[i][m], end) < 0) end = best[i][m];
	// Wholly unlike the MRZ's value: more likely another text of the page taken for this field (on a
	// layout the captions did not foresee) than this field altered, so doubt, not a mismatch.
	if (end.disagree > 0 && end.disagree + end.unsure > Math.max(2, Math.ceil(m / 3))) return 'unsure';
	if (end.disagree > 0) return 'disagree';
	if (end.unsure > 0) return 'unsure';
	return end.weak > 0 ? 'unsure' : 'agree';
}

/** A printed name against the MRZ's (`<` as spaces). */
export function compareName(viz: VizText, mrzName: string, truncated = false): VizFieldCheck {
	const text = normaliseVizName(viz.text);
	if (!text) return 'notChecked';
	// Keep each surviving glyph's confidence (normalising drops and merges characters).
	const confidences: number[] = [];
	const upper = viz.text.toUpperCase();
	let k = 0;
	for (const ch of text) {
		while (k < upper.length && upper[k] !== ch && !(ch === ' ' && /[\s\-,‐–<]/.test(upper[k]))) k++;
		confidences.push(ch === ' ' ? 1 : (viz.charConfidences[k] ?? 0));
		k++;
	}
	return alignWithMrz({ text, charConfidences: confidences }, mrzName.trim(), { truncated, name: true });
}

/** A printed document number against the MRZ's: spaces and fillers printed in it are ignored. */
export function compareDocumentNumber(viz: VizText, mrzNumber: string): VizFieldCheck {
	const keep: number[] = [];
	[...viz.text].forEach((ch, i) => {
		if (/[A-Za-z0-9]/.test(ch)) keep.push(i);
	});
	// A document number has digits: a word under the caption (`PASSEPORT`) is some other text.
	if (keep.length < 4 || !keep.some((i) => /[0-9]/.test(viz.text[i]))) return 'notChecked';
	return alignWithMrz({ text: keep.map((i) => viz.text[i].toUpperCase()).join(''), charConfidences: keep.map((i) => viz.charConfidences[i] ?? 0) }, mrzNumber);
}

/** One way to read a printed date: the year may be given with two digits only. */
export interface PrintedDate {
	year: number;
	/** Whether `year` is the last two digits only. */
	shortYear: boolean;
	month: number;
	day: number;
}

const MONTHS: readonly (readonly string[])[] = [
	['JAN', 'JANV', 'JANVIER', 'JANUARY', 'ENE', 'GEN', 'JANNER', 'STY'],
	['FEB', 'FEV', 'FEVR', 'FEVRIER', 'FEBRUARY', 'FEBR'],
	['MAR', 'MARS', 'MARCH', 'MRZ', 'MAR', 'MRT', 'MARZ'],
	['APR', 'AVR', 'AVRIL', 'APRIL', 'ABR', 'KWI'],
	['MAY', 'MAI', 'MAG', 'MEI', 'MAJ'],
	['JUN', 'JUIN', 'JUNE', 'GIU', 'CZE'],
	['JUL', 'JUIL', 'JULY', 'LUG', 'LIP'],
	['AUG', 'AOU', 'AOUT', 'AUGUST', 'AGO', 'SIE'],
	['SEP', 'SEPT', 'SEPTEMBER', 'SET', 'WRZ'],
	['OCT', 'OKT', 'OCTOBER', 'OTT', 'PAZ'],
	['NOV', 'NOVEMBER', 'LIS'],
	['DEC', 'DEZ', 'DIC', 'DECEMBER', 'GRU']
];

function monthOf(name: string): number | null {
	const bare = name.toUpperCase().normalize('NFD').replace(/\p{M}+/gu, '');
	const i = MONTHS.findIndex((names) => names.includes(bare));
	return i < 0 ? null : i + 1;
}

const realDate = (d: PrintedDate) => isoDate(d.shortYear ? 2000 + d.year : d.year, d.month, d.day) !== null;

/**
 * The ways a printed date can be read: `12 JAN 1990`, `12 JAN/JAN 90` (bilingual), `12.01.1990`,
 * `12/01/90`, `12-01-1990`, `1990-01-12`, `12 01 1990`, `12011990`. Day–month–year unless only
 * month–day–year (the US order) makes a real date; a day and month both ≤ 12 give both readings.
 * Empty when the text holds no date.
 */
export function parsePrintedDate(text: string): PrintedDate[] {
	const t = text.toUpperCase().normalize('NFD').replace(/\p{M}+/gu, '').replace(/\s+/g, ' ').trim();
	const year = (y: string) => ({ year: Number(y), shortYear: y.length === 2 });
	let m = /(?:^|[^0-9])(\d{1,2})[ .\-/]*([A-Z]{3,9})\.?(?:\s*\/\s*[A-Z]{3,9}\.?)?[ .\-/]*(\d{4}|\d{2})(?![0-9])/.exec(t);
	if (m) {
		const month = monthOf(m[2]);
		if (month) return [{ ...year(m[3]), month, day: Number(m[1]) }].filter(realDate);
	}
	m = /(?:^|[^0-9])(\d{4})[ .\-/](\d{1,2})[ .\-/](\d{1,2})(?![0-9])/.exec(t);
	if (m) return [{ year: Number(m[1]), shortYear: false, month: Number(m[2]), day: Number(m[3]) }].filter(realDate);
	m = /(?:^|[^0-9])(\d{1,2})[ .\-/](\d{1,2})[ .\-/](\d{4}|\d{2})(?![0-9])/.exec(t) ?? /(?:^|[^0-9])(\d{2})(\d{2})(\d{4})(?![0-9])/.exec(t);
	if (m) {
		const a = Number(m[1]), b = Number(m[2]);
		const readings = [{ ...year(m[3]), month: b, day: a }, { ...year(m[3]), month: a, day: b }].filter(realDate);
		return a === b ? readings.slice(0, 1) : readings;
	}
	return [];
}

/** Whether a printed date can be the ISO date `iso` (a two-digit year matches its last two digits). */
export function dateMatches(d: PrintedDate, iso: string): boolean {
	const [y, mo, da] = iso.split('-').map(Number);
	return d.month === mo && d.day === da && (d.shortYear ? d.year === y % 100 : d.year === y);
}

/** How many of the eight digits DDMMYYYY differ (a two-digit year: its two digits only). */
function digitsApart(d: PrintedDate, iso: string): number {
	const [y, mo, da] = iso.split('-');
	const mine = `${String(d.day).padStart(2, '0')}${String(d.month).padStart(2, '0')}${d.shortYear ? String(d.year).padStart(2, '0') : String(d.year).padStart(4, '0')}`;
	const theirs = `${da}${mo}${d.shortYear ? y.slice(2) : y}`;
	return [...mine].filter((c, i) => c !== theirs[i]).length;
}

/** A printed date against the MRZ's (ISO): its digits must be confident to contradict it. */
export function compareDate(viz: VizText, mrzIso: string | undefined): VizFieldCheck {
	if (!mrzIso) return 'notChecked';
	const readings = parsePrintedDate(viz.text);
	if (readings.length === 0) return 'notChecked';
	const confident = [...viz.text].every((ch, i) => !/[0-9A-Za-z]/.test(ch) || (viz.charConfidences[i] ?? 0) >= CONTRADICT_CHAR_CONFIDENCE);
	const strong = [...viz.text].every((ch, i) => !/[0-9A-Za-z]/.test(ch) || (viz.charConfidences[i] ?? 0) >= AGREE_CHAR_CONFIDENCE);
	// Day–month–year is 9303's order and comes first; agreeing only in the US order is doubt.
	if (dateMatches(readings[0], mrzIso)) return strong ? 'agree' : 'unsure';
	if (readings.some((d) => dateMatches(d, mrzIso))) return 'unsure';
	// A date unlike the MRZ's in more than three of its eight digits is more likely another date of
	// the page (issue, birth) under an unforeseen caption than this one altered.
	return confident && digitsApart(readings[0], mrzIso) <= 3 ? 'disagree' : 'unsure';
}

/** The MRZ side of the comparison. */
export interface MrzSide {
	lastName?: string;
	firstName?: string;
	documentNumber?: string;
	dateOfBirth?: string;
	expiryDate?: string;
	/** The MRZ name field had no filler left: 9303 may have truncated the names. */
	namesTruncated: boolean;
}

export interface VizCheck {
	fields: Record<VizField, VizFieldCheck>;
	/** Fields whose VIZ contradicts the MRZ (MRZ_VIZ_MISMATCH). */
	mismatched: VizField[];
	/** Fields the VIZ vouches for exactly. */
	confirmed: VizField[];
	/** What was read for each field that was found (for the node report). */
	read: Partial<Record<VizField, string>>;
	/** Names the MRZ could not settle, spelled as printed where its own scores allowed that (printed-names.ts). */
	fromPrint?: VizField[];
}

/**
 * Compares the VIZ values found under their labels (`labelled`) with the MRZ. A field with no
 * labelled value may still be vouched for by any VIZ text that agrees exactly (`texts`), never
 * contradicted by one: which printed text is which field is only known from its label.
 */
export function compareVizWithMrz(labelled: Partial<Record<VizField, VizText>>, texts: readonly VizText[], mrz: MrzSide): VizCheck {
	const check = (field: VizField, v: VizText): VizFieldCheck => {
		switch (field) {
			case 'lastName':
				return mrz.lastName ? compareName(v, mrz.lastName, mrz.namesTruncated && !mrz.firstName) : 'notChecked';
			case 'firstName':
				// A holder with no given name: what sits under the caption is some other text.
				return mrz.firstName ? compareName(v, mrz.firstName, mrz.namesTruncated) : 'notChecked';
			case 'documentNumber':
				return mrz.documentNumber ? compareDocumentNumber(v, mrz.documentNumber) : 'notChecked';
			case 'dateOfBirth':
				return compareDate(v, mrz.dateOfBirth);
			case 'expiryDate':
				return compareDate(v, mrz.expiryDate);
		}
	};
	const fields = {} as Record<VizField, VizFieldCheck>;
	const read: Partial<Record<VizField, string>> = {};
	for (const field of VIZ_FIELDS) {
		const v = labelled[field];
		let result: VizFieldCheck = 'notChecked';
		if (v) {
			read[field] = v.text;
			result = check(field, v);
		}
		if (result === 'notChecked' || result === 'unsure') {
			// Unlabelled: only an exact, confident match counts (as agreement; never as a mismatch).
			if (texts.some((t) => check(field, t) === 'agree')) result = 'agree';
		}
		fields[field] = result;
	}
	return {
		fields,
		mismatched: VIZ_FIELDS.filter((f) => fields[f] === 'disagree'),
		confirmed: VIZ_FIELDS.filter((f) => fields[f] === 'agree'),
		read
	};
}

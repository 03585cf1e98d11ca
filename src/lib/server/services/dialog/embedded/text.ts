/**
 * Text normalisation and phrase search shared by the embedded recognisers.
 *
 * Replies come from speech recognition or a keyboard, so matching forgives what people leave out:
 * case, Latin diacritics (`pret` = `prêt`), apostrophes (`dont` = `don't`), `ё`/`е`, full-width
 * forms, punctuation. Lexicon phrases go through the same normalisation, so they can be written
 * naturally.
 */

const LATIN_WITH_MARKS = /([a-z])[\u0300-\u036f]+/g;

/** Lower-case, folded, punctuation-free text with single spaces. */
export function normalize(text: string): string {
	return text
		.slice(0, 1000)
		.normalize('NFKC')
		.toLowerCase()
		.normalize('NFD')
		.replace(LATIN_WITH_MARKS, '$1')
		.normalize('NFC')
		.replace(/ß/g, 'ss')
		.replace(/ё/g, 'е')
		.replace(/['’‘`´ʼ]/g, '')
		.replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
		.trim();
}

// Scripts written with spaces between words: a phrase in them must match whole words.
const SPACED_CHAR = /[\p{Script=Latin}\p{Script=Cyrillic}\p{N}]/u;

/** A lexicon phrase: `=` matches only the whole reply, `^` only at its start. */
export interface LexiconEntry<T> {
	phrase: string;
	value: T;
	mode: 'anywhere' | 'start' | 'whole';
}

export function compileLexicon<T>(entries: Iterable<readonly [string, T]>): LexiconEntry<T>[] {
	const compiled: LexiconEntry<T>[] = [];
	for (const [raw, value] of entries) {
		const mode = raw.startsWith('=') ? 'whole' : raw.startsWith('^') ? 'start' : 'anywhere';
		const phrase = normalize(mode === 'anywhere' ? raw : raw.slice(1));
		if (phrase) compiled.push({ phrase, value, mode });
	}
	// Longest first, so that "not ready" claims its words before "ready" can.
	return compiled.sort((a, b) => b.phrase.length - a.phrase.length);
}

export interface Match<T> {
	start: number;
	end: number;
	value: T;
	phrase: string;
}

function boundaryOk(text: string, start: number, end: number): boolean {
	const first = text[start] ?? '';
	const last = text[end - 1] ?? '';
	if (SPACED_CHAR.test(first) && start > 0 && SPACED_CHAR.test(text[start - 1]!)) return false;
	if (SPACED_CHAR.test(last) && end < text.length && SPACED_CHAR.test(text[end]!)) return false;
	return true;
}

/**
 * Non-overlapping matches of the lexicon in normalised text, longest phrase first, then leftmost,
 * returned in text order.
 */
export function findMatches<T>(text: string, lexicon: readonly LexiconEntry<T>[]): Match<T>[] {
	const taken: boolean[] = new Array(text.length).fill(false);
	const found: Match<T>[] = [];
	for (const entry of lexicon) {
		if (entry.mode === 'whole') {
			if (text === entry.phrase && !taken.some(Boolean)) {
				found.push({ start: 0, end: text.length, value: entry.value, phrase: entry.phrase });
				taken.fill(true);
			}
			continue;
		}
		let from = 0;
		while (from <= text.length - entry.phrase.length) {
			const start = text.indexOf(entry.phrase, from);
			if (start < 0 || (entry.mode === 'start' && start > 0)) break;
			const end = start + entry.phrase.length;
			if (boundaryOk(text, start, end) && !taken.slice(start, end).some(Boolean)) {
				found.push({ start, end, value: entry.value, phrase: entry.phrase });
				taken.fill(true, start, end);
			}
			from = start + 1;
		}
	}
	return found.sort((a, b) => a.start - b.start);
}

export const isCjkLang = (lang: string): boolean => lang === 'ja' || lang.startsWith('zh');

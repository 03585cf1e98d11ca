/**
 * Typing on a phone: "yse im redy lets goo" is "yes im ready lets go". Before the lexicon is
 * searched, a word it does not know is replaced by the one lexicon word it is a slip of: letters
 * held down ("noooo", "goo"), or one letter swapped, missing, extra or wrong in a longer word
 * ("yse", "redy", "agre"). Only words of spaced scripts (Latin, Cyrillic) are corrected; a word
 * with more than one candidate is left alone rather than guessed.
 */

const WORD = /^[\p{Script=Latin}\p{Script=Cyrillic}]+$/u;

/** The distinct words of a lexicon's normalised phrases. */
export function vocabularyOf(phrases: Iterable<string>): Set<string> {
	const words = new Set<string>();
	for (const phrase of phrases) for (const w of phrase.split(' ')) if (WORD.test(w)) words.add(w);
	return words;
}

/** Damerau–Levenshtein distance, stopping early above 1 (all this needs). */
function withinOne(a: string, b: string): boolean {
	if (a === b) return true;
	if (Math.abs(a.length - b.length) > 1) return false;
	let i = 0;
	while (i < a.length && i < b.length && a[i] === b[i]) i++;
	const ra = a.slice(i);
	const rb = b.slice(i);
	if (ra.length === rb.length) {
		// One substitution, or one transposition of neighbours.
		if (ra.slice(1) === rb.slice(1)) return neighbours(ra[0]!, rb[0]!);
		return ra.length >= 2 && ra[0] === rb[1] && ra[1] === rb[0] && ra.slice(2) === rb.slice(2);
	}
	return ra.length > rb.length ? ra.slice(1) === rb : rb.slice(1) === ra;
}

// Neighbouring keys (QWERTY; QWERTZ and AZERTY differ in a few keys only): a substituted letter must
// be a neighbour of the intended one, so "mine" is not read as "fine".
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
function neighbours(a: string, b: string): boolean {
	const at = (c: string) => {
		for (let r = 0; r < ROWS.length; r++) {
			const i = ROWS[r]!.indexOf(c);
			if (i >= 0) return [r, i] as const;
		}
		return null;
	};
	const pa = at(a);
	const pb = at(b);
	if (!pa || !pb) return true; // other letters (accents, Cyrillic): no layout assumed
	return Math.abs(pa[0] - pb[0]) <= 1 && Math.abs(pa[1] - pb[1]) <= 1;
}

// Ordinary words one slip away from an answer word; never "corrected".
const REAL_WORDS = new Set(['hm', 'hmm', 'hmmm', 'find', 'fire', 'fins', 'line', 'nine', 'mine', 'wine', 'dine', 'late', 'star', 'stat', 'test', 'best', 'rest', 'west', 'yet', 'yea', 'know', 'now', 'not', 'nor', 'son', 'sun', 'ran', 'red', 'read', 'road', 'stay', 'sort', 'sore', 'more', 'mere', 'none', 'note', 'nose', 'okra', 'agree', 'agent']);

const collapse = (w: string) => w.replace(/(\p{L})\1+/gu, '$1');

function correction(word: string, vocabulary: ReadonlySet<string>): string | null {
	if (vocabulary.has(word) || REAL_WORDS.has(word) || !WORD.test(word)) return null;
	// Held-down letters: "noooo", "yesss", "goo", "okkk".
	const collapsed = collapse(word);
	if (collapsed !== word) {
		if (vocabulary.has(collapsed)) return collapsed;
		const twice = word.replace(/(\p{L})\1{2,}/gu, '$1$1');
		if (vocabulary.has(twice)) return twice;
	}
	// One slip, only in words long enough that a slip does not make another word ("no" → "so").
	if (word.length < 3) return null;
	let found: string | null = null;
	for (const candidate of vocabulary) {
		if (candidate.length < 3 || Math.abs(candidate.length - word.length) > 1) continue;
		if (word.length === 3 && candidate.length === 3 && collapse(candidate) === candidate && [...word].sort().join('') !== [...candidate].sort().join('')) continue;
		if (!withinOne(word, candidate)) continue;
		if (found && found !== candidate) return null;
		found = candidate;
	}
	return found;
}

/** `text` (normalised) with each word that is a slip of exactly one vocabulary word replaced by it. */
export function correctTypos(text: string, vocabulary: ReadonlySet<string>): string {
	if (!text) return text;
	let changed = false;
	const words = text.split(' ').map((w) => {
		const fixed = correction(w, vocabulary);
		if (fixed === null) return w;
		changed = true;
		return fixed;
	});
	return changed ? words.join(' ') : text;
}

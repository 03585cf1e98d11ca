import { checkDigitMatches } from './check-digit.ts';

/** Layouts that the grouping step recognises by line count and length. */
export type MrzLayout = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B';

/** `format` (a parsed reading's, which may name a national layout too) is one of the ICAO layouts. */
export const isMrzLayout = (format: string): format is MrzLayout => format === 'TD1' || format === 'TD2' || format === 'TD3' || format === 'MRV-A' || format === 'MRV-B';

/** Character class of each position: A letters, N digits, X either, `-` left alone. */
type Pattern = string;

interface CheckGroup {
	name: string;
	/** [line, start, end) ranges whose characters the check digit covers. */
	ranges: ReadonlyArray<readonly [number, number, number]>;
	digit: readonly [number, number];
}

interface LayoutSpec {
	lines: number;
	length: number;
	patterns: readonly Pattern[];
	checks: readonly CheckGroup[];
	composite?: CheckGroup;
}

const rep = (c: string, n: number) => c.repeat(n);

// A passport's or visa's document code is letters (`PO`, not `P0`); a card's may hold a digit (TD1, US `C1`).
const TD3_LIKE_LINE1 = (len: number) => rep('A', len);

const LAYOUTS: Record<MrzLayout, LayoutSpec> = {
	TD1: {
		lines: 3,
		length: 30,
		patterns: ['A-AAA' + rep('X', 9) + 'N' + rep('X', 15), rep('N', 7) + '-' + rep('N', 7) + 'AAA' + rep('X', 11) + 'N', rep('A', 30)],
		checks: [
			{ name: 'documentNumber', ranges: [[0, 5, 14]], digit: [0, 14] },
			{ name: 'birthDate', ranges: [[1, 0, 6]], digit: [1, 6] },
			{ name: 'expirationDate', ranges: [[1, 8, 14]], digit: [1, 14] }
		],
		composite: {
			name: 'composite',
			ranges: [
				[0, 5, 30],
				[1, 0, 7],
				[1, 8, 15],
				[1, 18, 29]
			],
			digit: [1, 29]
		}
	},
	TD2: {
		lines: 2,
		length: 36,
		patterns: [TD3_LIKE_LINE1(36), rep('X', 9) + 'NAAA' + rep('N', 7) + '-' + rep('N', 7) + rep('X', 7) + 'N'],
		checks: [
			{ name: 'documentNumber', ranges: [[1, 0, 9]], digit: [1, 9] },
			{ name: 'birthDate', ranges: [[1, 13, 19]], digit: [1, 19] },
			{ name: 'expirationDate', ranges: [[1, 21, 27]], digit: [1, 27] }
		],
		composite: {
			name: 'composite',
			ranges: [
				[1, 0, 10],
				[1, 13, 20],
				[1, 21, 35]
			],
			digit: [1, 35]
		}
	},
	TD3: {
		lines: 2,
		length: 44,
		patterns: [TD3_LIKE_LINE1(44), rep('X', 9) + 'NAAA' + rep('N', 7) + '-' + rep('N', 7) + rep('X', 14) + 'NN'],
		checks: [
			{ name: 'documentNumber', ranges: [[1, 0, 9]], digit: [1, 9] },
			{ name: 'birthDate', ranges: [[1, 13, 19]], digit: [1, 19] },
			{ name: 'expirationDate', ranges: [[1, 21, 27]], digit: [1, 27] },
			{ name: 'personalNumber', ranges: [[1, 28, 42]], digit: [1, 42] }
		],
		composite: {
			name: 'composite',
			ranges: [
				[1, 0, 10],
				[1, 13, 20],
				[1, 21, 43]
			],
			digit: [1, 43]
		}
	},
	'MRV-A': {
		lines: 2,
		length: 44,
		patterns: [TD3_LIKE_LINE1(44), rep('X', 9) + 'NAAA' + rep('N', 7) + '-' + rep('N', 7) + rep('-', 16)],
		checks: [
			{ name: 'documentNumber', ranges: [[1, 0, 9]], digit: [1, 9] },
			{ name: 'birthDate', ranges: [[1, 13, 19]], digit: [1, 19] },
			{ name: 'expirationDate', ranges: [[1, 21, 27]], digit: [1, 27] }
		]
	},
	'MRV-B': {
		lines: 2,
		length: 36,
		patterns: [TD3_LIKE_LINE1(36), rep('X', 9) + 'NAAA' + rep('N', 7) + '-' + rep('N', 7) + rep('-', 8)],
		checks: [
			{ name: 'documentNumber', ranges: [[1, 0, 9]], digit: [1, 9] },
			{ name: 'birthDate', ranges: [[1, 13, 19]], digit: [1, 19] },
			{ name: 'expirationDate', ranges: [[1, 21, 27]], digit: [1, 27] }
		]
	}
};

const LETTER_FOR_DIGIT: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B' };
const DIGIT_FOR_LETTER: Record<string, string> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', Z: '2', S: '5', G: '6', B: '8', T: '7' };
/** Confusions that OCR makes in alphanumeric fields; tried only where a check digit can confirm them. */
const CONFUSIONS: Record<string, readonly string[]> = {
	O: ['0'],
	Q: ['0', 'O'],
	D: ['0', 'O'],
	U: ['0'],
	I: ['1'],
	L: ['1'],
	Z: ['2'],
	S: ['5'],
	G: ['6'],
	B: ['8'],
	T: ['7'],
	'0': ['O', 'D', 'Q'],
	'1': ['I'],
	'2': ['Z'],
	'5': ['S'],
	'6': ['G'],
	'7': ['T'],
	'8': ['B'],
	K: ['<'],
	'<': ['K']
};

/**
 * Normalises one OCR line to the MRZ character set: upper case, look-alikes of `<` (guillemets,
 * brackets) mapped to it, spaces and anything else outside `A–Z 0–9 <` dropped.
 */
export function cleanMrzLine(raw: string): string {
	return raw
		.toUpperCase()
		.replace(/[«≪《]/g, '<<')
		.replace(/[‹＜〈(\[{]/g, '<')
		.replace(/[^A-Z0-9<]/g, '');
}

/**
 * Brings a line to `length` by growing or shrinking its longest filler run — the usual OCR error
 * in MRZ is a miscounted run of `<`. Returns null when the line is too far off to trust.
 */
export function fitLineLength(line: string, length: number, maxDelta = 3): string | null {
	const delta = length - line.length;
	if (delta === 0) return line;
	if (Math.abs(delta) > maxDelta) return null;
	let best: { start: number; len: number } | null = null;
	for (const m of line.matchAll(/<+/g)) {
		const len = m[0].length;
		// Prefer the last of equally long runs: trailing filler is the most common place.
		if (!best || len >= best.len) best = { start: m.index, len };
	}
	if (delta > 0) {
		// Without a filler run to grow, the end of the line (name filler, optional data) is the best guess.
		if (!best || best.len < 2) return line.slice(-6).includes('<') ? line + '<'.repeat(delta) : null;
		return line.slice(0, best.start) + '<'.repeat(delta) + line.slice(best.start);
	}
	if (!best || best.len - -delta < 1) return null;
	return line.slice(0, best.start) + line.slice(best.start - delta);
}

export interface MrzCorrection {
	line: number;
	column: number;
	from: string;
	to: string;
	reason: 'character-class' | 'check-digit' | 'filler';
}

function applyPatterns(lines: string[], spec: LayoutSpec, corrections: MrzCorrection[]): string[] {
	return lines.map((line, li) => {
		const pattern = spec.patterns[li];
		let out = '';
		for (let i = 0; i < line.length; i++) {
			const c = line.charAt(i);
			const kind = pattern.charAt(i);
			let to = c;
			if (kind === 'N' && DIGIT_FOR_LETTER[c]) to = DIGIT_FOR_LETTER[c];
			else if (kind === 'A' && LETTER_FOR_DIGIT[c]) to = LETTER_FOR_DIGIT[c];
			if (to !== c) corrections.push({ line: li, column: i, from: c, to, reason: 'character-class' });
			out += to;
		}
		return out;
	});
}

function groupText(lines: readonly string[], group: CheckGroup): string {
	return group.ranges.map(([l, s, e]) => lines[l].slice(s, e)).join('');
}

function groupValid(lines: readonly string[], group: CheckGroup): boolean {
	return checkDigitMatches(groupText(lines, group), lines[group.digit[0]].charAt(group.digit[1]));
}

function transitions(s: string): number {
	let n = 0;
	for (let i = 1; i < s.length; i++) {
		const a = s.charAt(i - 1), b = s.charAt(i);
		if (a !== '<' && b !== '<' && /\d/.test(a) !== /\d/.test(b)) n++;
	}
	return n;
}

function setChar(lines: readonly string[], line: number, column: number, char: string): string[] {
	const out = lines.slice();
	out[line] = out[line].slice(0, column) + char + out[line].slice(column + 1);
	return out;
}

/**
 * Repairs look-alike characters in check-digit-protected fields: a single substitution is kept only
 * when it makes the field's check digit match and, where the layout has one, the composite too;
 * without a composite (visas) it must be the only substitution that matches.
 */
function correctByCheckDigits(lines: string[], spec: LayoutSpec, corrections: MrzCorrection[]): string[] {
	let current = lines;
	for (const group of spec.checks) {
		if (groupValid(current, group)) continue;
		// A TD1 number longer than 9 characters continues in the optional field: nothing to repair here.
		if (current[group.digit[0]].charAt(group.digit[1]) === '<') continue;
		const candidates: { lines: string[]; fix: MrzCorrection }[] = [];
		for (const [l, s, e] of group.ranges) {
			for (let col = s; col < e; col++) {
				const from = current[l].charAt(col);
				for (const to of CONFUSIONS[from] ?? []) {
					const next = setChar(current, l, col, to);
					if (groupValid(next, group)) candidates.push({ lines: next, fix: { line: l, column: col, from, to, reason: 'check-digit' } });
				}
			}
		}
		const composite = spec.composite;
		const confirmed = composite ? candidates.filter((c) => groupValid(c.lines, composite)) : candidates;
		// Several substitutions can satisfy the same check digit (the composite repeats the field's
		// weights, so it cannot tell them apart). Prefer the one that leaves the field most uniform
		// (fewest letter/digit alternations, as in "A0000000" over "A00D0000"), and only when it is
		// strictly better than the runner-up.
		const ranked = confirmed
			.map((c) => ({ ...c, mix: transitions(groupText(c.lines, group)) }))
			.sort((a, b) => a.mix - b.mix);
		if (ranked.length === 1 || (ranked.length > 1 && ranked[0].mix < ranked[1].mix)) {
			current = ranked[0].lines;
			corrections.push(ranked[0].fix);
		}
	}
	return current;
}

/** Where each layout keeps the holder's name: [line, start]. The field runs to the end of the line. */
const NAME_FIELDS: Record<MrzLayout, readonly [number, number]> = { TD1: [2, 0], TD2: [0, 5], TD3: [0, 5], 'MRV-A': [0, 5], 'MRV-B': [0, 5] };

/**
 * The recogniser reads runs of OCR-B chevrons as `K` or `C` (and now and then `S`). After the last
 * name the field can only hold fillers, so a trailing zone of `<`/`K`/`C` (with `S` inside it, not
 * attached to a name) becomes fillers. A lone `K` or `C` right before `<<` is kept: names end in them.
 * So is a `CK` right after a name's letters, before a filler (PATRICK). A field without any `<<` before
 * that zone gets its first `K<`/`C<` back as the name separator.
 */
function fixNameFillers(lines: string[], layout: MrzLayout, corrections: MrzCorrection[]): string[] {
	const [li, start] = NAME_FIELDS[layout];
	const line = lines[li];
	let zone = line.length;
	while (zone > start) {
		const c = line.charAt(zone - 1);
		const before = line.charAt(zone - 2);
		if (c === '<' || c === 'K' || c === 'C' || (c === 'S' && (before === '<' || before === 'K' || before === 'C'))) zone--;
		else break;
	}
	if (line.startsWith('K<<', zone) || line.startsWith('C<<', zone)) zone++;
	// So does a name in CK (PATRICK, JACK, FRANCK) right after its letters: cut here, the constrained
	// reading that kept it was vetoed as "read otherwise" on every capture (seed 4848 #78: OLTHOBCK).
	else if (line.startsWith('CK<', zone) && /[A-Z]/.test(line.charAt(zone - 1))) zone += 2;
	let out = line.slice(0, zone);
	// Surname and given names are split by `<<`; when the names hold none, a `K<`/`C<` is that
	// separator misread (ERIKSSONK<ANNA). A name field without given names keeps its `<<` in the filler.
	const names = out.slice(start);
	if (!names.includes('<<')) {
		const m = /[KC]</.exec(names);
		if (m && m.index > 0) {
			corrections.push({ line: li, column: start + m.index, from: m[0][0], to: '<', reason: 'filler' });
			out = out.slice(0, start + m.index) + '<' + out.slice(start + m.index + 1);
		}
	}
	for (let i = zone; i < line.length; i++) {
		const c = line.charAt(i);
		if (c !== '<') corrections.push({ line: li, column: i, from: c, to: '<', reason: 'filler' });
		out += '<';
	}
	const result = lines.slice();
	result[li] = out;
	return result;
}

/** Optional-data fields that the composite check digit covers: [line, start, end). */
const OPTIONAL_FIELDS: Partial<Record<MrzLayout, ReadonlyArray<readonly [number, number, number]>>> = {
	TD1: [
		[0, 15, 30],
		[1, 18, 29]
	],
	TD2: [[1, 28, 35]],
	TD3: [[1, 28, 43]]
};

/**
 * Filler runs in optional data read as `K`/`C` (`<<<C<C<CC`): look-alikes inside runs that hold at
 * least two real fillers become fillers, kept only if the composite check digit then matches.
 */
function fixOptionalFillers(lines: string[], layout: MrzLayout, corrections: MrzCorrection[]): string[] {
	const spec = LAYOUTS[layout];
	const fields = OPTIONAL_FIELDS[layout];
	if (!spec.composite || !fields || groupValid(lines, spec.composite)) return lines;
	let next = lines.slice();
	const fixes: MrzCorrection[] = [];
	for (const [li, s, e] of fields) {
		const text = next[li].slice(s, e);
		const fixed = text.replace(/[<KC]{3,}/g, (run) => ((run.match(/</g) ?? []).length >= 2 ? '<'.repeat(run.length) : run));
		for (let i = 0; i < text.length; i++) if (text[i] !== fixed[i]) fixes.push({ line: li, column: s + i, from: text[i], to: '<', reason: 'filler' });
		next[li] = next[li].slice(0, s) + fixed + next[li].slice(e);
	}
	if (fixes.length === 0 || !groupValid(next, spec.composite)) return lines;
	// TD3's personal number has its own check digit: it must agree too.
	const own = spec.checks.find((c) => c.name === 'personalNumber');
	if (own && !groupValid(next, own)) next = lines;
	else corrections.push(...fixes);
	return next;
}

/** Layout-aware normalisation and check-digit repair of lines that already have the right lengths. */
export function normaliseMrzLines(
	lines: readonly string[],
	layout: MrzLayout
): { lines: string[]; corrections: MrzCorrection[] } {
	const spec = LAYOUTS[layout];
	const corrections: MrzCorrection[] = [];
	const typed = fixNameFillers(applyPatterns(lines.slice(), spec, corrections), layout, corrections);
	const repaired = correctByCheckDigits(typed, spec, corrections);
	return { lines: fixOptionalFillers(repaired, layout, corrections), corrections };
}

/** How many of the layout's check digits (composite included) match. */
export function countValidChecks(lines: readonly string[], layout: MrzLayout): { valid: number; total: number } {
	const spec = LAYOUTS[layout];
	const groups = spec.composite ? [...spec.checks, spec.composite] : spec.checks;
	let valid = 0;
	for (const g of groups) if (groupValid(lines, g)) valid++;
	return { valid, total: groups.length };
}

export interface MrzCandidate {
	layout: MrzLayout;
	/** Index of the first line in the input. */
	start: number;
	lines: string[];
	corrections: MrzCorrection[];
	validChecks: number;
	totalChecks: number;
}

function layoutsFor(count: number, length: number, first: string): MrzLayout[] {
	if (count === 3) return length === 30 ? ['TD1'] : [];
	const visa = first.charAt(0) === 'V';
	if (length === 44) return visa ? ['MRV-A'] : ['TD3'];
	if (length === 36) return visa ? ['MRV-B'] : ['TD2'];
	return [];
}

/**
 * Finds the MRZ among OCR'd text lines (top to bottom, already cleaned): consecutive lines of one
 * layout's length (within a few characters, fixed by filler runs), normalised and check-digit
 * repaired. The candidate with the most matching check digits wins; lower on the page breaks ties
 * because the MRZ is at the bottom of the document.
 */
export function findMrzCandidate(cleanedLines: readonly string[]): MrzCandidate | null {
	let best: MrzCandidate | null = null;
	for (const count of [3, 2]) {
		for (let start = 0; start + count <= cleanedLines.length; start++) {
			const window = cleanedLines.slice(start, start + count);
			if (window.some((l) => l.length < 26)) continue;
			for (const length of [30, 36, 44]) {
				const fitted = window.map((l) => fitLineLength(l, length));
				if (fitted.some((l) => l === null)) continue;
				const lines = fitted as string[];
				for (const layout of layoutsFor(count, length, lines[0])) {
					const { lines: fixed, corrections } = normaliseMrzLines(lines, layout);
					if (!/^[PVIACD]/.test(fixed[0]) && layout !== 'TD1') continue;
					const { valid, total } = countValidChecks(fixed, layout);
					const candidate: MrzCandidate = { layout, start, lines: fixed, corrections, validChecks: valid, totalChecks: total };
					const score = valid / total + (fixed.join('').includes('<') ? 0.5 : 0);
					const bestScore = best ? best.validChecks / best.totalChecks + (best.lines.join('').includes('<') ? 0.5 : 0) : -1;
					if (score > bestScore || (score === bestScore && best !== null && start >= best.start)) best = candidate;
				}
			}
		}
	}
	return best;
}

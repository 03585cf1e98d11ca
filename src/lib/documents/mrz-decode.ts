/**
 * MRZ decoding as a constrained search over the recogniser's CTC probabilities, not as free text
 * repaired afterwards. Each layout fixes the line lengths and what every position may hold (letters,
 * digits, fillers, sex, check digits); the CTC forward–backward (ctc-marginals.ts) turns the
 * recogniser's per-time-step scores into per-position character probabilities under that shape.
 * Then each field is decoded by its own rule: check-digit fields as the most probable value whose
 * check digit matches (dates also real dates), the composite over them, state codes from the ICAO
 * list, names by the name grammar (`SURNAME<<GIVEN<NAMES<<<…`). Every field gets a confidence: the
 * probability of the value chosen (for check-digit fields, among the values that pass the check).
 * Names have no check digit, so their confidence is all that stands between a `<` read as `K` and
 * a wrong name.
 */
import { states } from 'mrz';
import { mrzCheckDigit } from './check-digit.ts';
import { MRZ_ALPHABET } from './ctc-decode.ts';
import { lineMarginals } from './ctc-marginals.ts';
import { isoDate } from './document-dates.ts';
import { GLYPH_PAIRS, MAX_SHORTFALL, glyphVotes, taughtVotes, type DoubtfulGlyph, type GlyphExample, type GlyphLine, type GlyphVote, type UnsureGlyph } from './mrz-glyphs.ts';
import type { MrzLayout } from './mrz-lines.ts';
import type { Raster } from './raster.ts';

/** One line's recogniser output: [steps, 1 + 37] scores, column 0 the blank, then MRZ_ALPHABET. */
export interface MrzLineScores {
	steps: number;
	probs: Float32Array;
	/** The line's picture as the recogniser saw it, for a second look at look-alike glyphs (mrz-glyphs.ts). */
	strip?: Raster;
}

/** Fields a confidence is given for (extractedData names where there is one). */
export type MrzConfidenceField =
	| 'documentCode'
	| 'issuingCountry'
	| 'lastName'
	| 'firstName'
	| 'documentNumber'
	| 'nationality'
	| 'dateOfBirth'
	| 'sex'
	| 'expiryDate'
	| 'personalNumber'
	| 'optionalData'
	/** Only when the composite check digit fails: how sure the glyphs it covers are. */
	| 'composite';

export interface DecodedMrz {
	layout: MrzLayout;
	lines: string[];
	/** log P(the lines have this layout's shape) summed over lines. */
	logLikelihood: number;
	fieldConfidence: Partial<Record<MrzConfidenceField, number>>;
	/** Every check digit, composite included, matches the decoded lines. */
	checksValid: boolean;
	/**
	 * Fields in doubt only because look-alikes (O/0, I/1, G/6…) could be swapped unseen by the check digits: a
	 * second print read by the same recogniser (the visual zone) cannot settle that.
	 */
	lookalikeDoubt: MrzConfidenceField[];
	/** The optional data was mended to meet the composite (`repairOptionalData`): a reading to prefer another over. */
	mended?: boolean;
	/**
	 * Glyphs of numbers and optional data ("line:position") that the pixels clearly told from their
	 * look-alike (`clearlySeen`), decoded as the pixels saw them: the recogniser's own reading of them,
	 * where it differs, is what they overruled, not a second opinion (mrz-reader.ts `vouch`).
	 */
	seen: string[];
}

const K = MRZ_ALPHABET.length;
const FILLER = MRZ_ALPHABET.indexOf('<');
const isDigit = (c: number) => c >= 26 && c <= 35;
const isLetter = (c: number) => c < 26;
/** ICAO 9303 value of a character (A = 10 … Z = 35, `<` = 0). */
const charValue = (c: number) => (c === FILLER ? 0 : isDigit(c) ? c - 26 : c + 10);
const WEIGHTS = [7, 3, 1];

/** Position classes: a letters+filler, l letters, n digits, c digit or filler, x any, s sex, d a document code's second character (letters+filler, no name glyph). */
function mask(kind: string): Uint8Array {
	const m = new Uint8Array(K);
	for (let c = 0; c < K; c++) {
		const ch = MRZ_ALPHABET[c];
		m[c] = Number(
			kind === 'x' ||
				((kind === 'a' || kind === 'd') && (isLetter(c) || c === FILLER)) ||
				(kind === 'l' && isLetter(c)) ||
				(kind === 'n' && isDigit(c)) ||
				(kind === 'c' && (isDigit(c) || c === FILLER)) ||
				(kind === 's' && 'MFX<'.includes(ch))
		);
	}
	return m;
}
const MASKS = Object.fromEntries([...'alncxsd'].map((k) => [k, mask(k)])) as Record<string, Uint8Array>;
const r = (k: string, n: number) => k.repeat(n);
// The second character of a document code is a letter or filler by ICAO. Cards are issued with a
// digit there too (the US resident card's `C1`), so TD1 reads any character; passports and visas are
// not, and a digit there is the look-alike of an official passport's `PO` (seed 1414 #241, 2026-12-06:
// read `P0` under glare and accepted, a wrong document code no check digit covers).
const NAME_LINE = (len: number) => 'ld' + r('a', len - 2);
const LINE2_HEAD = r('x', 9) + 'n' + 'aaa' + r('n', 7) + 's' + r('n', 7);

const SHAPES: Record<MrzLayout, string[]> = {
	TD1: ['lx' + 'aaa' + r('x', 9) + 'c' + r('x', 15), r('n', 7) + 's' + r('n', 7) + 'aaa' + r('x', 11) + 'n', r('a', 30)],
	TD2: [NAME_LINE(36), LINE2_HEAD + r('x', 7) + 'n'],
	TD3: [NAME_LINE(44), LINE2_HEAD + r('x', 14) + 'cn'],
	'MRV-A': [NAME_LINE(44), LINE2_HEAD + r('x', 16)],
	'MRV-B': [NAME_LINE(36), LINE2_HEAD + r('x', 8)]
};

type Range = readonly [line: number, start: number, end: number];
interface CheckedField {
	name: MrzConfidenceField;
	range: Range;
	digit: readonly [number, number];
	date?: boolean;
}
interface FieldSpec {
	checked: CheckedField[];
	/** Ranges the composite digit covers, and where it is. */
	composite?: { ranges: Range[]; digit: readonly [number, number] };
	states: { name: 'issuingCountry' | 'nationality'; range: Range }[];
	names: Range;
	sex: readonly [number, number];
	free: { name: MrzConfidenceField; range: Range }[];
}

const LINE2_FIELDS = (): Pick<FieldSpec, 'checked' | 'states' | 'sex'> => ({
	checked: [
		{ name: 'documentNumber', range: [1, 0, 9], digit: [1, 9] },
		{ name: 'dateOfBirth', range: [1, 13, 19], digit: [1, 19], date: true },
		{ name: 'expiryDate', range: [1, 21, 27], digit: [1, 27], date: true }
	],
	states: [
		{ name: 'issuingCountry', range: [0, 2, 5] },
		{ name: 'nationality', range: [1, 10, 13] }
	],
	sex: [1, 20]
});

const FIELDS: Record<MrzLayout, FieldSpec> = {
	TD1: {
		checked: [
			{ name: 'documentNumber', range: [0, 5, 14], digit: [0, 14] },
			{ name: 'dateOfBirth', range: [1, 0, 6], digit: [1, 6], date: true },
			{ name: 'expiryDate', range: [1, 8, 14], digit: [1, 14], date: true }
		],
		composite: {
			ranges: [
				[0, 5, 30],
				[1, 0, 7],
				[1, 8, 15],
				[1, 18, 29]
			],
			digit: [1, 29]
		},
		states: [
			{ name: 'issuingCountry', range: [0, 2, 5] },
			{ name: 'nationality', range: [1, 15, 18] }
		],
		names: [2, 0, 30],
		sex: [1, 7],
		free: [
			{ name: 'documentCode', range: [0, 0, 2] },
			{ name: 'optionalData', range: [0, 15, 30] },
			{ name: 'optionalData', range: [1, 18, 29] }
		]
	},
	TD2: {
		...LINE2_FIELDS(),
		composite: {
			ranges: [
				[1, 0, 10],
				[1, 13, 20],
				[1, 21, 35]
			],
			digit: [1, 35]
		},
		names: [0, 5, 36],
		free: [
			{ name: 'documentCode', range: [0, 0, 2] },
			{ name: 'optionalData', range: [1, 28, 35] }
		]
	},
	TD3: {
		...LINE2_FIELDS(),
		checked: [...LINE2_FIELDS().checked, { name: 'personalNumber', range: [1, 28, 42], digit: [1, 42] }],
		composite: {
			ranges: [
				[1, 0, 10],
				[1, 13, 20],
				[1, 21, 43]
			],
			digit: [1, 43]
		},
		names: [0, 5, 44],
		free: [{ name: 'documentCode', range: [0, 0, 2] }]
	},
	'MRV-A': { ...LINE2_FIELDS(), names: [0, 5, 44], free: [{ name: 'documentCode', range: [0, 0, 2] }, { name: 'optionalData', range: [1, 28, 44] }] },
	'MRV-B': { ...LINE2_FIELDS(), names: [0, 5, 36], free: [{ name: 'documentCode', range: [0, 0, 2] }, { name: 'optionalData', range: [1, 28, 36] }] }
};

/** ICAO 9303 codes of states and organisations (the mrz package's list), ICAO's specimen state `UTO`, Germany's `D<<`. */
const STATE_CODES: readonly string[] = [...new Set([...Object.keys(states), 'UTO', 'D<<'])].filter((c) => /^[A-Z<]{3}$/.test(c));

type Posteriors = Float64Array[][];
const idx = (ch: string) => MRZ_ALPHABET.indexOf(ch);
const LOG_FLOOR = -30;
/** Greedy lines this many characters off a layout's length are still tried in it (lost or doubled glyphs). */
const MAX_LENGTH_GAP = 5;
/** How much less probable than the printed-as-read value a check-passing one may be and still be preferred. */
const PRINTED_OVER_VALID = 0.02;
/** How sure each glyph of a state code on no list must be for the code to be kept as printed. */
const UNLISTED_CODE_GLYPH = 0.9;
/** The confidence of a state code on no list: below MIN_FIELD_CONFIDENCE, so a second capture must agree. */
const UNLISTED_CODE_DOUBT = 0.5;
const logp = (p: number) => (p > 0 ? Math.max(LOG_FLOOR, Math.log(p)) : LOG_FLOOR);

function argmax(row: Float64Array): number {
	let best = 0;
	for (let c = 1; c < row.length; c++) if (row[c] > row[best]) best = c;
	return best;
}

interface Candidate {
	value: string;
	/** log P(value and its check digit) under the position probabilities. */
	score: number;
}

/**
 * The most probable values of a field (at most `keep` per check-digit residue), each with its check
 * digit, best first; and the probability mass of all values whose check digit matches.
 */
function checkedCandidates(post: Posteriors, field: CheckedField, keep: number): { list: Candidate[]; validMass: number } {
	const [line, start, end] = field.range;
	let top: Candidate[][] = Array.from({ length: 10 }, (_, res) => (res === 0 ? [{ value: '', score: 0 }] : []));
	let mass = new Float64Array(10);
	mass[0] = 1;
	for (let i = start; i < end; i++) {
		const row = post[line][i];
		const w = WEIGHTS[(i - start) % 3];
		const next: Candidate[][] = Array.from({ length: 10 }, () => []);
		const nextMass = new Float64Array(10);
		for (let c = 0; c < K; c++) {
			if (row[c] <= 0) continue;
			const lc = logp(row[c]);
			const ch = MRZ_ALPHABET[c];
			const v = charValue(c);
			for (let res = 0; res < 10; res++) {
				const to = (res + w * v) % 10;
				nextMass[to] += mass[res] * row[c];
				for (const cand of top[res]) next[to].push({ value: cand.value + ch, score: cand.score + lc });
			}
		}
		top = next.map((l) => l.sort((a, b) => b.score - a.score).slice(0, keep));
		mass = nextMass;
	}
	const digitRow = post[field.digit[0]][field.digit[1]];
	const list: Candidate[] = [];
	let validMass = 0;
	for (let res = 0; res < 10; res++) {
		const digit = idx(String(res));
		// A filler stands for a 0 check digit (TD1 long numbers, an empty TD3 personal number).
		const options = res === 0 ? [digit, FILLER] : [digit];
		for (const d of options) {
			validMass += mass[res] * digitRow[d];
			for (const cand of top[res]) list.push({ value: cand.value + MRZ_ALPHABET[d], score: cand.score + logp(digitRow[d]) });
		}
	}
	list.sort((a, b) => b.score - a.score);
	return { list: field.date ? list.filter((c) => isYymmdd(c.value.slice(0, 6))) : list, validMass };
}

function isYymmdd(s: string): boolean {
	if (!/^\d{6}$/.test(s)) return false;
	// Any century will do for the shape: 2000 is a leap year, so 29 February passes when some year has it.
	return isoDate(2000 + Number(s.slice(0, 2)), Number(s.slice(2, 4)), Number(s.slice(4, 6))) !== null || isoDate(1900 + Number(s.slice(0, 2)), Number(s.slice(2, 4)), Number(s.slice(4, 6))) !== null;
}

/**
 * Name field by the name grammar: words of letters split by one `<`, surname and given names by
 * `<<`, then fillers only. States: 0 start, 1 surname word, 2 surname + `<`, 3 after `<<`,
 * 4 given word, 5 given + `<`, 6 trailing fillers.
 */
function decodeNames(rows: Float64Array[]): string {
	const n = rows.length;
	const LETTER = -1;
	const moves: [from: number, by: number, to: number][] = [
		[0, LETTER, 1],
		[1, LETTER, 1],
		[1, FILLER, 2],
		[2, LETTER, 1],
		[2, FILLER, 3],
		[3, LETTER, 4],
		[3, FILLER, 6],
		[4, LETTER, 4],
		[4, FILLER, 5],
		[5, LETTER, 4],
		[5, FILLER, 6],
		[6, FILLER, 6]
	];
	let score = [0, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity];
	const back: { from: number; char: number }[][] = [];
	for (let i = 0; i < n; i++) {
		const row = rows[i];
		let bestLetter = 0;
		for (let c = 1; c < 26; c++) if (row[c] > row[bestLetter]) bestLetter = c;
		const next = new Array<number>(7).fill(-Infinity);
		const step: { from: number; char: number }[] = new Array(7);
		for (const [from, by, to] of moves) {
			if (score[from] === -Infinity) continue;
			const char = by === LETTER ? bestLetter : FILLER;
			const s = score[from] + logp(row[char]);
			if (s > next[to]) {
				next[to] = s;
				step[to] = { from, char };
			}
		}
		back.push(step);
		score = next;
	}
	let state = 0;
	for (let s = 1; s < 7; s++) if (score[s] > score[state]) state = s;
	let out = '';
	for (let i = n - 1; i >= 0; i--) {
		const { from, char } = back[i][state];
		out = MRZ_ALPHABET[char] + out;
		state = from;
	}
	return out;
}

function product(rows: Float64Array[], text: string): number {
	let p = 1;
	for (let i = 0; i < text.length; i++) p *= rows[i][idx(text[i])];
	return p;
}

/** The least sure glyph of a field without a check digit: independent of the field's length. */
function weakest(rows: Float64Array[], text: string): number {
	let p = 1;
	for (let i = 0; i < text.length; i++) p = Math.min(p, rows[i][idx(text[i])]);
	return p;
}

const setRange = (lines: string[][], [line, start]: Range | readonly [number, number], value: string) => {
	for (let i = 0; i < value.length; i++) lines[line][start + i] = value[i];
};

function compositeValid(lines: readonly string[], composite: NonNullable<FieldSpec['composite']>): boolean {
	const text = composite.ranges.map(([l, s, e]) => lines[l].slice(s, e)).join('');
	const d = lines[composite.digit[0]].charAt(composite.digit[1]);
	const expected = mrzCheckDigit(text);
	return d === '<' ? expected === 0 : d === String(expected);
}

/** Decodes one layout from its lines' position probabilities. */
function decodeFields(layout: MrzLayout, post: Posteriors, votes: readonly GlyphVote[] = [], weakened?: Weakened): Omit<DecodedMrz, 'layout' | 'logLikelihood'> {
	const spec = FIELDS[layout];
	const inNames = (v: GlyphVote) => inNameField(layout, v.line, v.position);
	const nameVotes = votes.filter(inNames);
	// Elsewhere a K/chevron vote moves only a chevron in (its K side may be letters standing in for a
	// K: "a letter", not which one). No check digit can confirm it: K is worth 20 and `<` 0, alike
	// under every weight modulo 10. So the field stays in doubt, as a mended name does (below).
	const chevrons = votes.filter((v) => v.scores['<'] !== undefined && !inNames(v) && v.verdict === '<');
	const numberVotes = [...votes.filter((v) => v.scores['<'] === undefined && !inNames(v)), ...chevrons];
	const overturned = overturnedSure(post, numberVotes);
	const seen = applyVotes(post, numberVotes);
	const chars = post.map((line) => line.map((row) => MRZ_ALPHABET[argmax(row)]));
	const nameChevronsSeen: string[] = [];
	const confidence: DecodedMrz['fieldConfidence'] = {};
	const conf = (name: MrzConfidenceField, p: number) => (confidence[name] = Math.min(confidence[name] ?? 1, p));

	for (const f of spec.free) {
		const [l, s, e] = f.range;
		const rows = post[l].slice(s, e);
		conf(f.name, weakest(rows, chars[l].slice(s, e).join('')));
	}
	// A code kept as printed (below) is a candidate for the document's other state code too: a holder's
	// nationality is most often the issuing state (a Slovenian card's SI< twice; the second, its
	// filler read less surely, became SVK).
	const kept: string[] = [];
	for (const st of spec.states) {
		const [l, s, e] = st.range;
		const rows = post[l].slice(s, e);
		let best = STATE_CODES[0], bestP = -1;
		for (const code of STATE_CODES) {
			const p = product(rows, code);
			if (p > bestP) (bestP = p), (best = code);
		}
		const own = kept.find((code) => product(rows, code) > bestP);
		if (own) {
			setRange(chars, st.range, own);
			conf(st.name, Math.min(UNLISTED_CODE_DOUBT, weakest(rows, own)));
			continue;
		}
		// A code printed plainly that is on no list (a specimen's BDR, a state's older two-letter SI<,
		// a code newer than the list) is kept as printed, not swapped for the nearest listed one, which
		// read BDR as BLR, a real state. Kept only when each glyph is sure and every listed code is
		// far less probable, and only as sure as a coin toss: the node asks for a second capture, and
		// the parse names the unknown code (INVALID_FIELD).
		// A nationality left empty (`<<<`) is printed too: the US border-crossing card's.
		const read = rows.map((row) => MRZ_ALPHABET[argmax(row)]).join('');
		const printable = /^[A-Z][A-Z<]{2}$/.test(read) || (st.name === 'nationality' && read === '<<<');
		if (!STATE_CODES.includes(read) && printable && weakest(rows, read) >= UNLISTED_CODE_GLYPH && bestP < PRINTED_OVER_VALID * product(rows, read)) {
			setRange(chars, st.range, read);
			conf(st.name, UNLISTED_CODE_DOUBT);
			kept.push(read);
			continue;
		}
		setRange(chars, st.range, best);
		conf(st.name, weakest(rows, best));
	}
	{
		const [l, c] = spec.sex;
		const row = post[l][c];
		conf('sex', row[argmax(row)]);
	}
	{
		const [l, s, e] = spec.names;
		const read = decodeNames(post[l].slice(s, e));
		// The pixels see a chevron where the name has a K, or the other way round. A chevron they see is
		// moved in, as a look-alike is in a number, and the name decoded again; a K they see where a
		// chevron was read is only doubted (on seed 303 moving it in turned a right `E<<H` into `EKKH`).
		// Either way the name stays in doubt: it has no check digit to confirm a repair, so the print
		// must agree or another capture is asked for. Repaired, the print can agree.
		const against = nameVotes.filter((v) => {
			const at = v.position - s;
			return v.line === l && at >= 0 && at < read.length && v.verdict !== null && v.margin >= VOTE_MARGIN && v.verdict !== read[at];
		});
		// A letter the document's own examples show (mrz-glyphs.ts `taughtVotes`) is moved in too.
		applyVotes(post, against.filter((v) => v.verdict === '<' || v.taught));
		const rows = post[l].slice(s, e);
		const names = against.length > 0 ? decodeNames(rows) : read;
		setRange(chars, spec.names, names);
		const split = names.indexOf('<<');
		const surnameEnd = split < 0 ? names.replace(/<+$/, '').length : split;
		conf('lastName', weakest(rows.slice(0, surnameEnd + 2), names.slice(0, surnameEnd + 2)));
		conf('firstName', weakest(rows.slice(surnameEnd + 2), names.slice(surnameEnd + 2)));
		// No `<<` in the whole field: the given name is empty only because none was read, and ICAO 9303
		// never prints a name so (a name without given names is closed by fillers, a truncated one keeps
		// its separator). Where the given name starts is then decided by the surname's glyphs, so it is
		// no surer than they are. Seen with the lines' ends cut off or under a thumb (2026-12-06, seed
		// 7272 `--as cutEdge`/`thumb`): a TD1 name `IDNECCKBO<PEBBIQUUUUKKAIDDOBEK` gave its given name
		// `SK` as empty at 1.0 while the surname stood at 0.34.
		if (split < 0) conf('firstName', weakest(rows.slice(0, surnameEnd), names.slice(0, surnameEnd)));
		for (const v of against) conf(v.position - s < surnameEnd + 2 ? 'lastName' : 'firstName', NAME_VOTE_DOUBT);
		// A K read where the recogniser also gave a chevron a real chance, and the pixels did not vote it a
		// K: a stroke across a filler (an overprint's letter, a stamp) makes a K of it, and a name has no
		// check digit to tell (seed 3141 #15, 2026-11-29, under SPECIMEN: `IDSAOLGUJOKDOBIXA` for
		// `IDSAOLGUJO<DOBIXA`, the K at 0.84 and the chevron at 0.16, accepted wrong). In the decodes of 94
		// documents of seed 2028 (SPECIMEN, stamp, glare, all combined) the right K's had the chevron
		// under 0.05 (141 of 147), the wrong ones at 0.05 or more (33 of 37). The name is in doubt, and
		// another capture must read it alike.
		for (let i = 0; i < names.length; i++) {
			if (names[i] !== 'K' || rows[i][idx('<')] < K_CHEVRON_CHANCE) continue;
			if (nameVotes.some((v) => v.line === l && v.position === s + i && v.verdict === 'K' && v.margin >= VOTE_MARGIN)) continue;
			conf(i < surnameEnd + 2 ? 'lastName' : 'firstName', NAME_VOTE_DOUBT);
		}
		// A chevron the pixels clearly voted a chevron, and decoded so: seen (`seen`, below), as a
		// number's voted glyph is. A greedy text reading that has a K there (its way with a blurred
		// chevron) then no longer vetoes the name (mrz-reader.ts differsOnlyWhereSeen).
		for (const v of nameVotes) if (v.line === l && v.verdict === '<' && v.margin >= VOTE_MARGIN && names[v.position - s] === '<') nameChevronsSeen.push(`${l}:${v.position}`);
	}
	// Check-digit fields: the best few of each, then the best combination the composite accepts.
	const options = spec.checked.map((f) => ({ field: f, ...checkedCandidates(post, f, f.date ? 8 : 4) }));
	for (const o of options) {
		const best = o.list[0];
		const [l, s, e] = o.field.range;
		const printed = chars[l].slice(s, e).join('') + chars[o.field.digit[0]][o.field.digit[1]];
		const printedScore = [...printed].reduce((sum, ch, i) => sum + logp(i < e - s ? post[l][s + i][idx(ch)] : post[o.field.digit[0]][o.field.digit[1]][idx(ch)]), 0);
		// A document can carry a wrong check digit (a misprint, a forgery): when the recogniser is
		// sure of what is printed, that is the reading, and the mismatch is reported, not repaired.
		if (!best || best.score - printedScore < Math.log(PRINTED_OVER_VALID)) {
			conf(o.field.name, weakest([...post[l].slice(s, e), post[o.field.digit[0]][o.field.digit[1]]], printed));
			o.list = [{ value: printed, score: printedScore }];
			continue;
		}
		setRange(chars, o.field.range, best.value);
		// Among the values that pass the check; and when what was read fails it, against that too:
		// a repair the recogniser itself did not favour is a guess.
		const printedFails = !checkMatches([printed.slice(0, e - s)], [0, 0, e - s], [0, e - s], printed.charAt(e - s));
		const against = o.validMass + (printedFails ? Math.exp(printedScore) : 0);
		conf(o.field.name, against > 0 ? Math.min(1, Math.exp(best.score) / against) : 0);
	}
	let lines = chars.map((c) => c.join(''));
	const composite = spec.composite;
	if (composite && !compositeValid(lines, composite)) {
		// Best-first over alternatives (the top three of each checked field) until the composite matches.
		const combos: { picks: number[]; score: number }[] = [];
		const walk = (i: number, picks: number[], score: number) => {
			if (i === options.length) return void combos.push({ picks, score });
			const n = Math.min(3, options[i].list.length);
			for (let k = 0; k < Math.max(1, n); k++) walk(i + 1, [...picks, k], score + (options[i].list[k]?.score ?? 0));
		};
		walk(0, [], 0);
		combos.sort((a, b) => b.score - a.score);
		for (const combo of combos.slice(1)) {
			// Past this, the recogniser is surer of what it read than of any repair: report the mismatch.
			if (combo.score - combos[0].score < Math.log(PRINTED_OVER_VALID)) break;
			const trial = chars.map((c) => c.slice());
			combo.picks.forEach((k, i) => options[i].list[k] && setRange(trial, options[i].field.range, options[i].list[k].value));
			const text = trial.map((c) => c.join(''));
			if (compositeValid(text, composite)) {
				lines = text;
				// A field that needed its runner-up value is as sure as that value's share.
				combo.picks.forEach((k, i) => {
					if (k > 0 && options[i].validMass > 0) conf(options[i].field.name, Math.exp(options[i].list[k].score) / options[i].validMass);
				});
				break;
			}
		}
	}
	if (composite && !compositeValid(lines, composite)) {
		// The composite still fails: as sure as the least sure glyph it covers.
		const rows = [...composite.ranges.flatMap(([l, s, e]) => post[l].slice(s, e)), post[composite.digit[0]][composite.digit[1]]];
		conf('composite', weakest(rows, composite.ranges.map(([l, s, e]) => lines[l].slice(s, e)).join('') + lines[composite.digit[0]].charAt(composite.digit[1])));
	}
	// OCR-B's letter O read as the digit 0 (or back), where the check digits say which it is.
	const repaired = repairZeroO(lines, spec);
	if (repaired) {
		lines = repaired.lines;
		for (const { field, at } of repaired.swaps) {
			const [l, s, e] = field.range;
			const rows = [...post[l].slice(s, e).filter((_, i) => s + i !== at), post[field.digit[0]][field.digit[1]]];
			const text = [...lines[l].slice(s, e)].filter((_, i) => s + i !== at).join('') + lines[field.digit[0]].charAt(field.digit[1]);
			// As sure as the rest of the field and its check digit: the swapped glyph itself is the check
			// digits' call, not the recogniser's.
			confidence[field.name] = weakest(rows, text);
		}
		if (composite) delete confidence.composite;
	}
	// Every field's own check passes and the composite does not: the misread is in the optional data
	// (a stamp's stroke read as glyphs among its fillers, an O read as 0). Taken only when exactly
	// one candidate makes the composite pass, and left in doubt: one check digit vouches for it.
	let mended = false;
	if (composite && !compositeValid(lines, composite) && spec.checked.every((f) => checkMatches(lines, f.range, f.digit))) {
		const repair = repairOptionalData(lines, spec);
		if (repair) {
			lines = repair;
			mended = true;
			delete confidence.composite;
			conf('optionalData', COMPOSITE_REPAIR_DOUBT);
		}
	}
	// A check that still fails where a look-alike swap (O/0, I/1, B/8…) would make it and the composite
	// pass cannot tell a misread from a misprint: the field is uncertain, whatever the glyph scores say
	// (the recogniser is often sure of the wrong one of O and 0 in OCR-B).
	const failing = spec.checked.filter((f) => !checkMatches(lines, f.range, f.digit));
	if ((failing.length > 0 || (composite && !compositeValid(lines, composite))) && lookalikeRepairExists(lines, spec)) {
		for (const f of failing) conf(f.name, 0);
		if (composite && !compositeValid(lines, composite)) conf('composite', 0);
	}
	// Field by field too: a failing number that one or two O↔0 swaps of its own put right is a misread
	// as likely as a misprint (the recogniser is often sure of the wrong one of the two), even where
	// the composite would need a third swap elsewhere (seed 808 #115: D1OY8O4GL and a personal number
	// ending in O, all three O's read as 0; the composite passed with the 0's, and the number was
	// accepted as a misprint, sure of its glyphs). Other look-alikes are left to the rule above: with
	// two swaps among all of them nearly any check digit can be met, misprints included.
	for (const f of failing) if (zeroOSwapPasses(lines, f)) conf(f.name, 0);
	const checksValid = spec.checked.every((f) => checkMatches(lines, f.range, f.digit)) && (!composite || compositeValid(lines, composite));
	const fieldAt = (line: number, position: number) => [...spec.checked, ...spec.free].find(({ range: [l, s, e] }) => line === l && position >= s && position < e);
	for (const v of chevrons) {
		if (lines[v.line][v.position] !== '<' || !seen.has(`${v.line}:${v.position}`)) continue;
		const field = fieldAt(v.line, v.position);
		if (field) conf(field.name, NAME_VOTE_DOUBT);
	}
	// K is worth 20 and a filler 0: no check digit, under any weight, tells one from the other. A K the
	// recogniser was unsure of, in a number or optional data, is taken only when the pixels voted it a
	// K (seed 9001 #297, 2026-11-28: a TD1's trailing filler under combined damage read K at 0.76, no
	// vote given, and the optional data `51796O344<K` accepted).
	for (const f of [...spec.checked.filter((c) => !c.date), ...spec.free]) {
		const [l, s, e] = f.range;
		for (let i = s; i < e; i++) {
			if (lines[l][i] !== 'K' || post[l][i][idx('K')] >= EXAMPLE_CONFIDENCE) continue;
			if (votes.some((v) => v.line === l && v.position === i && v.verdict === 'K' && v.margin >= VOTE_MARGIN)) continue;
			conf(f.name, NAME_VOTE_DOUBT);
		}
	}
	// Look-alikes swapped where no check digit, composite included, sees it (`hiddenLookalikeSwap`). The
	// recogniser is often sure of the wrong one, so such a field is only as sure as a coin toss, unless
	// the pixels clearly told each look-alike of the field apart (mrz-glyphs.ts) and agree with the reading.
	const lookalikeDoubt: MrzConfidenceField[] = [];
	// A glyph read otherwise only because the pixels said "not a 0" or "neither" (`weakenUnlike`):
	// another capture must read it alike. Where the recogniser's own reading passed its checks too,
	// the two are an O/0 doubt the print cannot settle (its O's and 0's go through the same
	// recogniser); where it failed them, this is the check digits' repair, in doubt as any other.
	for (const at of weakened?.places ?? []) {
		const [tl, ti] = at.split(':').map(Number);
		if (lines[tl][ti] === weakened!.plain[tl][ti]) continue;
		const field = fieldAt(tl, ti);
		if (!field) continue;
		conf(field.name, NAME_VOTE_DOUBT);
		if (weakened!.plainValid && !lookalikeDoubt.includes(field.name)) lookalikeDoubt.push(field.name);
	}
	const clear = clearlySeen(seen, votes);
	for (const at of overturned) clear.delete(at);
	const leaning = leaningGlyphs(votes, lines);
	if (checksValid)
		for (const f of [...spec.checked.map((c) => ({ name: c.name, range: c.range })), ...spec.free.filter((x) => x.name === 'optionalData')])
			if (hiddenLookalikeSwap(lines, post, f.range, spec, clear, atypicalGlyphs(votes), leaning)) {
				conf(f.name, Math.min(confidence[f.name] ?? 1, 0.5));
				if (!lookalikeDoubt.includes(f.name)) lookalikeDoubt.push(f.name);
			}
	const seenAsDecoded = [...clear].filter(([at, ch]) => {
		const [l, i] = at.split(':').map(Number);
		return lines[l]?.[i] === ch;
	});
	return { lines, fieldConfidence: confidence, checksValid, lookalikeDoubt, seen: [...seenAsDecoded.map(([at]) => at), ...nameChevronsSeen], ...(mended ? { mended } : {}) };
}

/** Characters OCR confuses in OCR-B, both ways. */
const LOOKALIKES: Record<string, string> = { O: '0DQ', '0': 'ODQ', D: '0O', Q: '0O', I: '1L', '1': 'IL', L: '1I', B: '8', '8': 'B', S: '5', '5': 'S', Z: '2', '2': 'Z', G: '6', '6': 'G', T: '7', '7': 'T' };

/**
 * OCR-B draws the letter O and the digit 0 alike (the same width, the 0 a little taller) and the
 * recogniser, sure of itself, reads one for the other: a document number's last `O` comes out `0`
 * on every photo of the page, so a second capture cannot settle it. The check digits can. Where a
 * field's check fails and, of every single look-alike swap in it (O/0, I/1, B/8…), exactly one makes
 * its check pass, that swap is an O↔0, and with every such swap made all check digits pass,
 * composite included, the swaps are the reading. Anything less (two candidate swaps, a swap of
 * another look-alike, a composite still failing) stays as read, failing, and uncertain: a misprint
 * or another misread is as likely there.
 */
function repairZeroO(lines: readonly string[], spec: FieldSpec): { lines: string[]; swaps: { field: CheckedField; at: number }[] } | null {
	const failing = spec.checked.filter((f) => !checkMatches(lines, f.range, f.digit));
	if (failing.length === 0) return null;
	const put = (ls: readonly string[], l: number, i: number, to: string) => ls.map((line, k) => (k === l ? line.slice(0, i) + to + line.slice(i + 1) : line));
	let out = [...lines];
	const swaps: { field: CheckedField; at: number }[] = [];
	for (const f of failing) {
		if (f.date) return null;
		const [l, s, e] = f.range;
		const fixes: { at: number; to: string }[] = [];
		for (let i = s; i < e; i++) for (const to of LOOKALIKES[lines[l][i]] ?? '') if (checkMatches(put(lines, l, i, to), f.range, f.digit)) fixes.push({ at: i, to });
		if (fixes.length !== 1) return null;
		const [{ at, to }] = fixes;
		if (!((lines[l][at] === 'O' && to === '0') || (lines[l][at] === '0' && to === 'O'))) return null;
		out = put(out, l, at, to);
		swaps.push({ field: f, at });
	}
	if (!spec.checked.every((f) => checkMatches(out, f.range, f.digit)) || (spec.composite && !compositeValid(out, spec.composite))) return null;
	return { lines: out, swaps };
}

/** How sure optional data mended to meet the composite is: below MIN_FIELD_CONFIDENCE, so a second capture must read it alike. */
const COMPOSITE_REPAIR_DOUBT = 0.5;

/**
 * Optional data the composite covers (TD1's two, TD2's) has no check digit of its own. Two misreads
 * of it were seen on the generated set (seeds 1 and 7), the composite failing and every other check
 * passing: a stamp across the MRZ read as glyphs among the fillers of an empty field
 * (`<R<<<<<<<<<`, `<<<<<<RR<<<`, `<<<V<<<<<N<`), and an O read as 0 (`543062515753` for
 * `543O62515753`). The candidates: a field that starts with a filler emptied (fields are written
 * from their left, so one that starts empty is empty; a misprint that fails only the composite
 * stays as read), and each single O↔0 swap. With exactly one candidate making the composite pass,
 * that is the reading; with none or several (`2000050` has five zeros, two weighted alike) the
 * reading stays as read, failing.
 */
function repairOptionalData(lines: readonly string[], spec: FieldSpec): string[] | null {
	const composite = spec.composite;
	if (!composite) return null;
	const covered = ([l, s, e]: Range) => composite.ranges.some(([cl, cs, ce]) => cl === l && cs <= s && e <= ce);
	const put = (ls: readonly string[], l: number, s: number, text: string) => ls.map((line, k) => (k === l ? line.slice(0, s) + text + line.slice(s + text.length) : line));
	const candidates: string[][] = [];
	for (const { name, range } of spec.free) {
		if (name !== 'optionalData' || !covered(range)) continue;
		const [l, s, e] = range;
		const text = lines[l].slice(s, e);
		if (text[0] === '<' && /[^<]/.test(text)) candidates.push(put(lines, l, s, '<'.repeat(e - s)));
		for (let i = s; i < e; i++) if (lines[l][i] === 'O' || lines[l][i] === '0') candidates.push(put(lines, l, i, lines[l][i] === 'O' ? '0' : 'O'));
	}
	const passing = candidates.filter((c) => compositeValid(c, composite));
	return passing.length === 1 ? passing[0] : null;
}

/**
 * A vote lifts the double-swap doubt below only when the glyph looks like the kind it was voted as
 * much as this short of how that kind's examples look like each other (mrz-glyphs.ts `shortfall`;
 * a vote may move a glyph at up to MAX_SHORTFALL, where a check digit stands behind the move). No
 * check digit stands behind this one. Seed 9001 #262 (2026-11-28): `O8DN3F0O` under a `SPECIMEN`
 * overprint read `08DN3F00`, places weighted 7 and 3; the first O was voted 0 at a shortfall of
 * 0.11 (0.83 against 0.78), which lifted the doubt, and the number was accepted wrong. Of 369 right
 * votes on seed 7's first 252 documents, 10 fell short by more (and keep their field in doubt).
 */
const SEEN_SHORTFALL = 0.08;

/**
 * Places ("line:pos") whose glyph looked less like the kind it was voted than SEEN_SHORTFALL allows:
 * damaged print. Not through a vote of one kind's examples alone (`unlike`): its shortfall is from
 * the 0's only, and a letter-prefixed number with a 0 unlike its page's others (glare across a
 * phone screenshot: Australia's fixture specimen `PA0940409`, 0.36 short) was read as before.
 */
function atypicalGlyphs(votes: readonly GlyphVote[]): Set<string> {
	return new Set(votes.filter((v) => !v.unlike && v.shortfall !== undefined && v.shortfall > SEEN_SHORTFALL).map((v) => `${v.line}:${v.position}`));
}

/**
 * A glyph of a number leans against its reading when the pixels gave no verdict only because the
 * document taught no lesson (one example of O and one of 0: `margin` 0, no shortfall to measure),
 * yet the glyph resembles the other look-alike's example by at least this much more. Seed 9595 #496
 * (2026-11-30): the personal number `2O0837O23` under `SPECIMEN` read `200837023` at 0.86, O/0 at
 * places weighted 3 and 7; both O's resembled the page's one O 0.13–0.14 more than its one 0, no
 * verdict, and a number of digits is trusted to hold 0's: accepted wrong. On seed 7's first look at
 * 493 documents such leans (null verdict, glyph not atypical, gap >= 0.02) stood against the reading
 * at 12 glyphs, every one a misread; below 0.02 or on atypical glyphs (a stroke across them) the
 * lean was as often wrong.
 */
const LEAN_GAP = 0.02;

/**
 * Places ("line:pos") of an O or 0 whose glyph leaned to the other: the pixels doubt the reading
 * without settling it. Also a verdict for the other look-alike too weak to move the glyph (below
 * VOTE_MARGIN): seed 2929 #448 (2026-11-30), a TD1's optional data `OO28217013` read `0028217013`
 * under blur, O/0 at places weighted 7 and 3, both glyphs voted O at a margin of 0.36; a field of
 * digits was trusted, and accepted wrong. On seeds 7, 9595 and 4321 such weak votes stood against
 * the reading at 30 glyphs, 28 of them misreads.
 */
function leaningGlyphs(votes: readonly GlyphVote[], lines: readonly string[]): Set<string> {
	const out = new Set<string>();
	for (const v of votes) {
		const own = lines[v.line]?.[v.position];
		if (v.taught || v.standIn || (v.shortfall ?? 0) > SEEN_SHORTFALL || (own !== 'O' && own !== '0')) continue;
		const other = own === 'O' ? '0' : 'O';
		if (v.scores[own] === undefined || v.scores[other] === undefined) continue;
		// A verdict for the other too weak to move the glyph (VOTE_MARGIN), or none, with a clear lean.
		if (v.verdict === other || (v.verdict === null && v.scores[other] - v.scores[own] >= LEAN_GAP)) out.add(`${v.line}:${v.position}`);
	}
	return out;
}

/**
 * The recogniser's own reading of a glyph counts as sure here: a vote against it is a disagreement
 * between two witnesses, not a doubt settled.
 */
const SURE_READ = 0.9;

/**
 * Places ("line:pos") where a vote (`applyVotes`) would move a glyph the recogniser read surely as
 * the other of a look-alike pair that holds no 0: B/8, I/1, S/5, Z/2, G/6, T/7. The vote still moves
 * it, but it settles nothing (`clearlySeen`): where the swap back passes every check digit too
 * (`hiddenLookalikeSwap`), the field is in doubt. The O/0 family is left out: there the recogniser is
 * often sure and wrong, and no wrong O/0/D vote fell within MAX_SHORTFALL (mrz-glyphs.ts); the
 * others' wrong votes fall short by as little as right ones. Seed 6262 #180 (2026-12-06), combined
 * damage: `BG86B09P5` read B, B at 0.93–0.99 on every look; the page's one B example stood on the
 * name line under glare, its 8's in the dates below, and both B's were voted 8 at a shortfall of
 * 0.06 (the 8's floor 0.90). `8G86809P5` passes its check digit and the composite (B and 8 are
 * 3 apart, at places weighted 7 and 3), and was read at 0.97, in no doubt.
 */
function overturnedSure(post: Posteriors, votes: readonly GlyphVote[]): string[] {
	const out: string[] = [];
	for (const v of votes) {
		const pair = Object.keys(v.scores);
		if (!v.verdict || v.margin < VOTE_MARGIN || pair.length !== 2 || pair.includes('0') || pair.includes('<')) continue;
		const row = post[v.line][v.position];
		const read = argmax(row);
		if (MRZ_ALPHABET[read] !== v.verdict && pair.includes(MRZ_ALPHABET[read]) && row[read] >= SURE_READ) out.push(`${v.line}:${v.position}`);
	}
	return out;
}

/** The votes' verdicts (`applyVotes`) that are clear enough to lift the double-swap doubt. */
function clearlySeen(seen: ReadonlyMap<string, string>, votes: readonly GlyphVote[]): Map<string, string> {
	const clear = new Map(seen);
	for (const v of votes) if (v.shortfall !== undefined && v.shortfall > SEEN_SHORTFALL) clear.delete(`${v.line}:${v.position}`);
	return clear;
}

/**
 * What each glyph of a number may be instead, unseen: OCR-B's letter/digit look-alikes, and G/Q,
 * worth 16 and 26, so that a swap at any place changes no check digit. Seed 3131, web-size pages
 * (2026-11-29): the visa number `0S0E6VBQK` read `0S0E6VBGK`, the Q's glyph given G 0.65, 0 0.20,
 * 9 0.09 and Q 0.03; the check digit ruled out the 0 and the 9, not the Q, and the G was accepted.
 */
const HIDDEN_SWAPS: Record<string, string> = { O: '0', '0': 'OD', D: '0', Q: '0G', I: '1', '1': 'I', B: '8', '8': 'B', S: '5', '5': 'S', Z: '2', '2': 'Z', G: '6Q', '6': 'G', T: '7', '7': 'T' };
/**
 * A look-alike other than O/0 counts as a possible swap only where the recogniser gave it at least
 * this much. The recogniser is often sure of the wrong one of O and 0, so those always count; of
 * the others it is not, and counting every 8, 2 and 5 of a number as possibly B, Z and S doubted
 * most numbers that mix letters in (ICAO's own specimen L898902C3: its 8's at places weighted 3
 * and 7 pass as B's). In seed 9001 #458 the two swapped I's were given 0.09–0.56.
 */
const HIDDEN_SWAP_WEIGHT = 0.01;
/**
 * Combinations of swaps tried at most per field (each spot stays or takes one of its look-alikes):
 * twelve O/0 spots, the bound the O/0-only search had (spots past it are left out, O/0 first).
 */
const MAX_SWAP_COMBINATIONS = 4096;

/**
 * Whether swapping look-alikes at one or more places of a field leaves every check digit passing.
 * O and 0 are worth 24 apart, I and 1 17, G and 6 10: swapped where each difference times its
 * place's weight adds up to a multiple of 10 (O/0 at 3 and 7, or at 3, 1 and 1; I/1 at 3 and 7; G/6
 * anywhere, alone), no check digit, composite included, sees it. O/0 only until seed 9001 (2026-11-28): `ZHIBZ2IID` read `ZHIBZ211D` under a
 * stamp, I/1 at places weighted 7 and 3 (17 × 10), and accepted. O/0 pairs only until seed 3307
 * (2026-11-27): `5OO5ZOZD` read `5005Z0ZD` at 0.996, three swaps weighted 3, 1 and 1 (24 × 5 = 120).
 */
function hiddenLookalikeSwap(lines: readonly string[], post: Posteriors, [l, s, e]: Range, spec: FieldSpec, seen: ReadonlyMap<string, string>, atypical: ReadonlySet<string> = new Set(), leaning: ReadonlySet<string> = new Set()): boolean {
	// Numbers that are digits but for a letter prefix (C03005988, ZE000509, XA0000014) are the common
	// real case and read 0 as 0; the doubt is for fields that mix letters in (S070DNT98, where an O
	// is as likely). A two-letter prefix was doubted until 2026-11-27: every such number with two
	// zeros (Canada's, the Netherlands', Latvia's) asked for a second capture. Of 2 520 generated
	// numbers (seeds 1, 7, 808, 4242, 6161; letters and look-alikes at random), none read with every
	// O as 0 passes its check under a prefix of two or more letters.
	// An O among the prefix's digits is no such number: Latvia's `LT0000000` read `LT0000OO0` (O/0 at
	// places weighted 7 and 3) was accepted wrong (specimen photo turned upright, 2026-11-29).
	// Nor is one whose 0 the pixels found unlike the document's other 0's (an overprint or stamp across
	// it): the prefix says a 0 is likelier, not what this glyph is. Seed 1212 #223 (2026-11-29):
	// `WIVU21OO0` under `SPECIMEN` read `WIVU21000` at 0.985, O/0 at places weighted 7 and 3, both
	// voted 0 though 0.09–0.11 less like a 0 than the others, and accepted.
	// Nor, however few its letters, is a number where the pixels clearly voted a glyph the other
	// look-alike and the check digits kept it (a second swap they cannot see may stand beside it). Seed
	// 8484 #47 (2026-11-29): the personal number `650O560404O3G` under JPEG damage read
	// `650056040403G`, O/0 at places weighted 7 and 3; the first look's votes found both O's (one just
	// short of the margin a vote needs), so it doubted the field, but with one letter it was trusted
	// and no look-alike doubt was raised, and the looks that followed, with no votes, read it sure.
	// Nor, however few its letters, is a number with an O or 0 whose pixels leaned to the other (`leaningGlyphs`).
	const text = lines[l].slice(s, e);
	const leans = [...text].some((_, k) => leaning.has(`${l}:${s + k}`));
	const damagedZero = [...text].some((ch, k) => ch === '0' && atypical.has(`${l}:${s + k}`));
	const votedOther = [...text].some((ch, k) => (seen.get(`${l}:${s + k}`) ?? ch) !== ch);
	// One letter is trusted only as the number's first glyph: seed 3232 #221 (2026-12-06), a clean TD3,
	// read the personal number `OO9I12` as `009I12` (O/0 at places weighted 7 and 3), its page teaching
	// no 0 to vote with, and with its one letter in the middle it was trusted: accepted wrong.
	const letters = (text.match(/[A-NP-Z]/g) ?? []).length;
	const trusted = letters === 0 || (letters === 1 && /^[A-NP-Z]/.test(text)) || (/^[A-NP-Z]+[0-9]*<*$/.test(text) && !damagedZero);
	if (trusted && !votedOther && !leans) return false;
	// Spots the pixels did not clearly tell apart, O and 0 first (the commonest confusion).
	const isZeroO = (a: string, b: string) => /[O0]/.test(a) && /[O0]/.test(b);
	const spots: { at: number; to: string[] }[] = [];
	for (let i = s; i < e; i++) {
		const own = lines[l][i];
		// A glyph the pixels clearly told from its look-alike pair (G from 6) is settled against that pair
		// only: a G may still be a Q, which no vote weighed (seed 3131: the G above was voted clearly).
		const settled = seen.get(`${l}:${i}`) === own;
		const to = [...(HIDDEN_SWAPS[own] ?? '')].filter((alt) => !(settled && votedPair(own, alt)) && (isZeroO(own, alt) || post[l][i][idx(alt)] >= HIDDEN_SWAP_WEIGHT));
		if (to.length > 0) spots.push({ at: i, to });
	}
	spots.sort((x, y) => Number(!/[O0]/.test(lines[l][x.at])) - Number(!/[O0]/.test(lines[l][y.at])) || x.at - y.at);
	let combinations = 1;
	const tried = spots.filter((spot) => (combinations *= 1 + spot.to.length) <= MAX_SWAP_COMBINATIONS);
	const line = [...lines[l]];
	const passes = () => {
		const trial = lines.map((x, k) => (k === l ? line.join('') : x));
		return spec.checked.every((f) => checkMatches(trial, f.range, f.digit)) && (!spec.composite || compositeValid(trial, spec.composite));
	};
	const walk = (k: number, changed: boolean): boolean => {
		if (k === tried.length) return changed && passes();
		if (walk(k + 1, changed)) return true;
		const { at, to: swaps } = tried[k], own = line[at];
		for (const to of swaps) {
			line[at] = to;
			const found = walk(k + 1, true);
			line[at] = own;
			if (found) return true;
		}
		return false;
	};
	return walk(0, false);
}

/** Whether the glyph votes (mrz-glyphs.ts GLYPH_PAIRS) weigh `a` against `b`. */
const votedPair = (a: string, b: string) => GLYPH_PAIRS.some((p) => p.includes(a) && p.includes(b));

/** Whether at most two look-alike swaps in the checked ranges make every check digit pass. */
function lookalikeRepairExists(lines: readonly string[], spec: FieldSpec): boolean {
	const ranges: Range[] = [...spec.checked.map((f) => f.range), ...(spec.composite?.ranges ?? [])];
	const swaps: [number, number, string][] = [];
	const seen = new Set<string>();
	for (const [l, s, e] of ranges)
		for (let i = s; i < e; i++) {
			if (seen.has(`${l}:${i}`)) continue;
			seen.add(`${l}:${i}`);
			for (const to of LOOKALIKES[lines[l][i]] ?? '') swaps.push([l, i, to]);
		}
	const allPass = (trial: readonly string[]) =>
		spec.checked.every((f) => checkMatches(trial, f.range, f.digit)) && (!spec.composite || compositeValid(trial, spec.composite));
	const put = (ls: readonly string[], [l, i, to]: [number, number, string]) => ls.map((line, k) => (k === l ? line.slice(0, i) + to + line.slice(i + 1) : line));
	for (const [a, swap] of swaps.entries()) {
		const one = put(lines, swap);
		if (allPass(one)) return true;
		for (let b = a + 1; b < swaps.length; b++) if ((swaps[b][0] !== swap[0] || swaps[b][1] !== swap[1]) && allPass(put(one, swaps[b]))) return true;
	}
	return false;
}

/** Whether swapping O↔0 at one or two places of a field makes its own check digit pass. */
function zeroOSwapPasses(lines: readonly string[], field: CheckedField): boolean {
	const [l, s, e] = field.range;
	const text = lines[l];
	const spots: number[] = [];
	for (let i = s; i < e; i++) if (text[i] === 'O' || text[i] === '0') spots.push(i);
	const digit = lines[field.digit[0]].charAt(field.digit[1]);
	const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === 'O' ? '0' : 'O') + t.slice(i + 1);
	const passes = (t: string) => checkMatches([t], [0, s, e], [0, 0], digit);
	for (const [a, i] of spots.entries()) {
		const one = flip(text, i);
		if (passes(one) || spots.slice(a + 1).some((j) => passes(flip(one, j)))) return true;
	}
	return false;
}

function checkMatches(lines: readonly string[], [l, s, e]: Range, [dl, dc]: readonly [number, number], digit?: string): boolean {
	const d = digit ?? lines[dl].charAt(dc);
	const expected = mrzCheckDigit(lines[l].slice(s, e));
	return d === '<' ? expected === 0 : d === String(expected);
}

function marginalsFor(layout: MrzLayout, scores: readonly MrzLineScores[], likelihoodOnly = false): { post: Posteriors; logLikelihood: number; entrySteps: Float64Array[] } | null {
	const shapes = SHAPES[layout];
	if (shapes.length !== scores.length) return null;
	const post: Posteriors = [];
	const entrySteps: Float64Array[] = [];
	let logLikelihood = 0;
	for (const [i, shape] of shapes.entries()) {
		const m = lineMarginals(scores[i].probs, scores[i].steps, K, [...shape].map((k) => MASKS[k]), { likelihoodOnly });
		if (!m) return null;
		post.push(Array.from(m.posteriors));
		entrySteps.push(m.entrySteps);
		logLikelihood += m.logLikelihood;
	}
	return { post, logLikelihood, entrySteps };
}

/**
 * A vote counts when the doubtful glyph prefers one character by at least this share of the margin
 * by which the document's own examples told the two apart (mrz-glyphs.ts `margin`). Set on the
 * generated set (seed 7, not the one reported): its glyphs voted for the right character wherever
 * this was met (334 of 334) and the two votes against the truth stood at 0.19 or had no examples
 * of one kind to learn from.
 */
const VOTE_MARGIN = 0.5;
/** A name the pixels contradict is as sure as this (below MIN_FIELD_CONFIDENCE: another capture). */
const NAME_VOTE_DOUBT = 0.5;
/** A name's K is in doubt where the recogniser gave a chevron at least this at its place (and no vote saw a K). */
const K_CHEVRON_CHANCE = 0.05;
/** What is left to the character the pixels voted against: enough for a check digit to bring it back, with little confidence. */
const OUTVOTED = 0.05;

/**
 * Moves the probability of each position the pixels decided to the character they chose, leaving
 * at most OUTVOTED of it to the other. Returns what the pixels saw at each decided position ("line:pos" →
 * character), which keeps the O/0 double-swap doubt away from glyphs they told apart.
 */
function applyVotes(post: Posteriors, votes: readonly GlyphVote[]): Map<string, string> {
	const seen = new Map<string, string>();
	for (const v of votes) {
		if (!v.verdict || v.margin < VOTE_MARGIN) continue;
		const row = post[v.line][v.position];
		const win = idx(v.verdict);
		const lose = idx(Object.keys(v.scores).find((c) => c !== v.verdict)!);
		const pair = row[win] + row[lose];
		// Agreeing with the recogniser changes nothing (it must not lend the other character weight).
		if (row[lose] > pair * OUTVOTED) {
			row[win] = pair * (1 - OUTVOTED);
			row[lose] = pair * OUTVOTED;
		}
		seen.set(`${v.line}:${v.position}`, v.verdict);
	}
	return seen;
}

/** What a glyph unlike the document's 0's (mrz-glyphs.ts GlyphVote `unlike`) leaves to the 0: a check digit may keep it. */
const UNLIKE_LEFT = 0.2;
/**
 * What a glyph unlike both the O's and the 0's of its document (no verdict: MAX_SHORTFALL) leaves
 * at least to the one the recogniser did not read: its print is damaged, and so is the recogniser's
 * preference. Seed 3737 #55 (2026-12-06), a stamp across `DIL8OBD0W`, O and 0 at places weighted 3
 * and 3: the 0 was clearly voted 0, the O's glyph met neither kind (0.76 against examples meeting
 * each other at 0.94 and better), and the recogniser's sure 0 there put the O at the voted 0's place.
 */
const DAMAGED_LEFT = 0.3;

/** Places ("line:pos") `weakenUnlike` changed, and the lines decoded without the change (passing their checks or not). */
interface Weakened {
	places: readonly string[];
	plain: readonly string[];
	plainValid: boolean;
}

/**
 * Weakens the recogniser where the pixels doubt it without a verdict the margin rules accept: a
 * glyph read 0 and unlike every 0 of a document that teaches no O (`unlike`) leans to O, and an O/0
 * unlike both kinds' examples is left to the check digits. Returns the places changed.
 */
function weakenUnlike(post: Posteriors, votes: readonly GlyphVote[]): string[] {
	const places: string[] = [];
	for (const v of votes) {
		const row = post[v.line][v.position];
		if (v.unlike && MRZ_ALPHABET[argmax(row)] === '0') {
			// "Not a 0": OCR-B's O, the glyph nearest a 0 (the recogniser's own second choice, often Q
			// or D, is no likelier for it: seed 3737 #198 gave Q). D and Q keep what they had.
			const win = idx('O'), lose = idx('0');
			const pair = row[win] + row[lose];
			if (row[win] >= pair * (1 - UNLIKE_LEFT)) continue;
			row[win] = pair * (1 - UNLIKE_LEFT);
			row[lose] = pair * UNLIKE_LEFT;
		} else if (v.verdict === null && !v.standIn && !v.taught && (v.shortfall ?? 0) > MAX_SHORTFALL && v.scores.O !== undefined && v.scores['0'] !== undefined) {
			const o = idx('O'), zero = idx('0');
			const pair = row[o] + row[zero];
			if (Math.min(row[o], row[zero]) >= pair * DAMAGED_LEFT) continue;
			const [more, less] = row[o] > row[zero] ? [o, zero] : [zero, o];
			row[more] = pair * (1 - DAMAGED_LEFT);
			row[less] = pair * DAMAGED_LEFT;
		} else continue;
		places.push(`${v.line}:${v.position}`);
	}
	return places;
}

const isLetterChar = (ch: string) => ch >= 'A' && ch <= 'Z';

/** An example glyph must be read at least this surely to teach the pixels what its character looks like. */
const EXAMPLE_CONFIDENCE = 0.95;
const lineText = (line: readonly Float64Array[]) => line.map((row) => MRZ_ALPHABET[argmax(row)]).join('');

/**
 * The pixels' say on look-alikes (mrz-glyphs.ts): positions that may hold a letter or a digit whose
 * reading is one of a look-alike pair, compared with glyphs the grammar fixed as letters or digits.
 */
function lookalikeVotes(layout: MrzLayout, post: Posteriors, entrySteps: readonly Float64Array[], scores: readonly MrzLineScores[]): GlyphVote[] {
	if (scores.some((s) => !s.strip)) return [];
	const shapes = SHAPES[layout];
	const doubtful: DoubtfulGlyph[] = [];
	const examples: GlyphExample[] = [];
	const unsure: UnsureGlyph[] = [];
	for (const [l, shape] of shapes.entries())
		for (let i = 0; i < shape.length; i++) {
			const row = post[l][i];
			const best = argmax(row);
			const ch = MRZ_ALPHABET[best];
			// A name's K or filler may be doubted and still teach the others (a glyph is never its own
			// example). A sure filler teaches wherever it stands: a number's or optional data's trailing
			// fillers are often the document's only sure chevrons when its name's are read as K.
			if ((shape[i] === 'n' || shape[i] === 'a' || shape[i] === 'l' || shape[i] === 'd' || best === FILLER) && row[best] >= EXAMPLE_CONFIDENCE) examples.push({ line: l, position: i, char: ch });
			if (shape[i] === 'x' && ch === 'K') {
				// A filler of a number or optional data read as K (stamps, guilloche): as in a name, below.
				doubtful.push({ line: l, position: i, pair: ['K', '<'], standIn: isLetterChar });
			} else if (shape[i] === 'x') {
				const pairs = GLYPH_PAIRS.filter((p) => p.includes(ch));
				if (pairs.length === 0) continue;
				const other = (p: readonly [string, string]) => row[idx(p[0] === ch ? p[1] : p[0])];
				doubtful.push({ line: l, position: i, pair: pairs.reduce((a, b) => (other(b) > other(a) ? b : a)) });
			} else if (shape[i] === 'a' && (ch === 'K' || (best === FILLER && /[A-Z]/.test(lineText(post[l]).slice(i))))) {
				// The recogniser reads OCR-B's chevron as K (a stamp's stroke makes it likelier), and is sure of
				// it: so every K and inner filler of a name is compared, whatever the other character scored.
				doubtful.push({ line: l, position: i, pair: ['K', '<'], standIn: isLetterChar });
			} else if (shape[i] === 'a' && isLetterChar(ch) && row[best] < EXAMPLE_CONFIDENCE && inNameField(layout, l, i)) {
				// Any other letter of a name the recogniser was unsure of: no check digit covers it.
				unsure.push({ line: l, position: i, char: ch, alphabet: isNameChar });
			}
		}
	const lines: GlyphLine[] = scores.map((s, l) => ({ strip: s.strip!, steps: s.steps, entrySteps: entrySteps[l] }));
	return [...glyphVotes(lines, doubtful, examples), ...taughtVotes(lines, unsure, examples)];
}

/** Where a layout's names are: [line, start, end) of the name field. */
export const nameField = (layout: MrzLayout): Range => FIELDS[layout].names;

/**
 * The fields with a glyph on one of `lines` (its check digit counts): those whose value a cut line
 * can have changed. The composite is left out: it is no field of extractedData, and its digit's
 * failure shows in the checks.
 */
export function fieldsOnLines(layout: MrzLayout, lines: readonly number[]): MrzConfidenceField[] {
	const spec = FIELDS[layout];
	const on = (line: number) => lines.includes(line);
	const out = new Set<MrzConfidenceField>();
	for (const f of spec.checked) if (on(f.range[0]) || on(f.digit[0])) out.add(f.name);
	for (const s of spec.states) if (on(s.range[0])) out.add(s.name);
	for (const f of spec.free) if (on(f.range[0])) out.add(f.name);
	if (on(spec.names[0])) (out.add('lastName'), out.add('firstName'));
	if (on(spec.sex[0])) out.add('sex');
	return [...out];
}

/**
 * The fields in which no check digit tells a K from a filler (optional data, a passport's personal
 * number: a K weighs 20, nothing modulo 10) where `other` differs from `target` only by K's in the
 * target's trailing fillers: each such K stands where the target has a filler, after a filler, with
 * nothing but fillers after it to the field's end. A greedy reading of a blurred run of fillers reads
 * every other one a K (seed 5050 #466, combined damage: `<<<<K<<<<<<<<<<` for empty optional data,
 * every check digit passing). No data stands alone past a field's fillers, so such K's are no second
 * opinion on the field; a K right after the data, or first in the field, may be data, and is one.
 */
export function fillersReadAsK(layout: MrzLayout, target: readonly string[], other: readonly string[]): MrzConfidenceField[] {
	if (target.length !== other.length || target.some((l, i) => l.length !== other[i].length)) return [];
	const spec = FIELDS[layout];
	const fields = [...spec.free.filter((f) => f.name === 'optionalData'), ...spec.checked.filter((f) => f.name === 'personalNumber')];
	const out: MrzConfidenceField[] = [];
	for (const name of new Set(fields.map((f) => f.name))) {
		let differs = false, only = true;
		for (const { range: [l, s, e] } of fields.filter((f) => f.name === name))
			for (let i = s; i < e; i++) {
				if (target[l][i] === other[l][i]) continue;
				differs = true;
				const trailing = i > s && target[l][i - 1] === '<' && /^<*$/.test(target[l].slice(i, e));
				if (other[l][i] !== 'K' || !trailing) only = false;
			}
		if (differs && only) out.push(name);
	}
	return out;
}

const isNameChar = (ch: string) => isLetterChar(ch) || ch === '<';
function inNameField(layout: MrzLayout, line: number, position: number): boolean {
	const [l, s, e] = FIELDS[layout].names;
	return line === l && position >= s && position < e;
}

/**
 * Decodes an MRZ from its lines' recogniser scores (top to bottom). Three lines are TD1; two are
 * TD3/MRV-A (2 × 44) or TD2/MRV-B (2 × 36), whichever shape explains the scores better, and a visa
 * when the first character is a `V`. Null when no layout fits.
 */
export function decodeMrz(scores: readonly MrzLineScores[], options: { readLengths?: readonly number[]; views?: readonly (readonly MrzLineScores[])[] } = {}): DecodedMrz | null {
	const all: MrzLayout[] = scores.length === 3 ? ['TD1'] : scores.length === 2 ? ['TD3', 'TD2'] : [];
	// With the greedy reading's lengths, only layouts within a few characters of them are worth the search.
	const near = (layout: MrzLayout) => !options.readLengths || options.readLengths.every((n) => Math.abs(n - SHAPES[layout][0].length) <= MAX_LENGTH_GAP);
	const layouts = all.filter(near);
	// The shape (line length) that explains the scores best, by likelihood alone; then the full pass.
	let chosen: MrzLayout | null = null;
	let bestLikelihood = -Infinity;
	for (const layout of layouts) {
		const m = layouts.length > 1 ? marginalsFor(layout, scores, true) : { logLikelihood: 0 };
		if (m && m.logLikelihood > bestLikelihood) (bestLikelihood = m.logLikelihood), (chosen = layout);
	}
	if (!chosen) return null;
	let layout: MrzLayout = chosen;
	let m = marginalsFor(layout, scores);
	if (!m) return null;
	// Visas share the first line's shape; their second line has no optional-data check digits.
	if (layout !== 'TD1' && argmax(m.post[0][0]) === idx('V')) {
		const visa: MrzLayout = layout === 'TD3' ? 'MRV-A' : 'MRV-B';
		const mv = marginalsFor(visa, scores);
		if (mv) (layout = visa), (m = mv);
	}
	// Doc 9303 prints a passport (document code P) only as a TD3 (Part 4); a TD2's code is A, C or I
	// (Part 6). Seed 9001 #85 (2026-11-28): glare across a TD3 whose personal number is empty; its lines
	// read as 2 × 36, the given name lost under the glare, and every check digit passed (the composite
	// of a TD3 with an empty personal number is a TD2's). A TD2 that reads P is read as a TD3, or not at all.
	if (layout === 'TD2' && argmax(m.post[0][0]) === idx('P')) {
		const passport = marginalsFor('TD3', scores);
		if (!passport) return null;
		(layout = 'TD3'), (m = passport);
	}
	const post = options.views?.length ? fuseViews(layout, m.post, options.views) : m.post;
	const votes = lookalikeVotes(layout, post, m.entrySteps, scores);
	// The pixels' weaker word (`weakenUnlike`) decides only what the check digits leave open, and a
	// reading it changed is doubted: decoded with and without it, a field that differs is in doubt.
	const weak = post.map((line) => line.map((row) => Float64Array.from(row)));
	const places = weakenUnlike(weak, votes);
	if (places.length === 0) return { layout, logLikelihood: m.logLikelihood, ...decodeFields(layout, post, votes) };
	const plain = decodeFields(layout, post, votes);
	const read = decodeFields(layout, weak, votes, { places, plain: plain.lines, plainValid: plain.checksValid });
	// Only a reading the check digits, composite included, accept: a field no check digit of its own
	// covers takes the weakened glyph as it stands, and a true 0 under a stamp is unlike the others
	// too (Serbia's specimen card: a 0 of its optional data 0.16 short of the card's 0's).
	// And one it changed: else the recogniser's own reading stands, confidences and all.
	if (!read.checksValid || read.lines.join('\n') === plain.lines.join('\n')) return { layout, logLikelihood: m.logLikelihood, ...plain };
	// Nor is it surer than the recogniser's own reading where that passed its checks too (a D the
	// pixels find unlike every 0 is no surer a D: a 0 under a stamp's ink is unlike them too), nor
	// lifts that reading's doubt over O and 0.
	if (plain.checksValid) {
		for (const [field, p] of Object.entries(plain.fieldConfidence) as [MrzConfidenceField, number][]) read.fieldConfidence[field] = Math.min(read.fieldConfidence[field] ?? p, p);
		for (const field of plain.lookalikeDoubt) if (!read.lookalikeDoubt.includes(field)) read.lookalikeDoubt.push(field);
	}
	return { layout, logLikelihood: m.logLikelihood, ...read };
}

/**
 * The position probabilities of the same lines read again another way (another stretch, in windows),
 * averaged with the first reading's, position by position: the layout fixes every position, so the
 * readings line up although their time steps do not. A glyph one look lost (`JANE` read `JAN` with a
 * filler shifted in) keeps its weight from the looks that saw it, and a position the looks disagree
 * on is as unsure as they are. A view the layout does not fit is left out.
 */
function fuseViews(layout: MrzLayout, first: Posteriors, views: readonly (readonly MrzLineScores[])[]): Posteriors {
	const fused = first.map((line) => line.map((row) => Float64Array.from(row)));
	let count = 1;
	for (const view of views) {
		const m = marginalsFor(layout, view);
		if (!m) continue;
		count++;
		for (const [l, line] of m.post.entries()) for (const [i, row] of line.entries()) for (let c = 0; c < K; c++) fused[l][i][c] += row[c];
	}
	for (const line of fused) for (const row of line) for (let c = 0; c < K; c++) row[c] /= count;
	return fused;
}

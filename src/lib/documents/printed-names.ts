/**
 * A name the MRZ's glyphs could not settle, spelled as the data page prints it — when the MRZ's own
 * recogniser scores allow that spelling. No check digit covers a name: where an overprint or a stamp
 * crosses it, the MRZ decoding can only be unsure (`BOB` read `BBB`, `ACSUBO` read `ACSUB`, the O
 * under a SPECIMEN's red letters), and the node asks for another capture, which the same overprint
 * spoils the same way. The printed name above it is another print of the same name, read by
 * another pass of the recogniser in another font. So each doubted name the page prints under its
 * caption, every glyph read surely, is tried in the MRZ line as the page spells it (9303
 * transliteration), and taken when the line's scores find that spelling at least
 * PRINTED_NAME_ODDS as likely as the decoded one, and no spelling one glyph of the name away from
 * it (a glyph changed, put in or taken out) 1/PRINTED_NAME_ODDS times likelier: the MRZ does not
 * contradict the print anywhere, not even where the print's recogniser ran two words together. Where the
 * MRZ's glyphs are clear and say otherwise (a tampered page), putting back the glyph the MRZ shows
 * is that much likelier, and the decoded name stays, contradicted (MRZ_VIZ_MISMATCH).
 *
 * Pure: the server reads the page and the lines, this only weighs spellings.
 */
import { MRZ_ALPHABET } from './ctc-decode.ts';
import { lineMarginals } from './ctc-marginals.ts';
import { nameField, type MrzLineScores } from './mrz-decode.ts';
import type { MrzLayout } from './mrz-lines.ts';
import { AGREE_CHAR_CONFIDENCE, mrzFormsOf, normaliseVizName, type VizText } from './viz-compare.ts';

export type PrintedNameField = 'lastName' | 'firstName';

/**
 * How likely, at least, the line spelled as printed must be against the line as decoded (the ratio
 * of their probabilities under the recogniser's scores, over every alignment). At 1/20 the MRZ's
 * evidence against the print is weaker than 20:1: a glyph hidden under an overprint (the decoded
 * glyph at 0.5, the printed one at 0.3: odds 0.6) passes; a clear glyph the print contradicts (0.99
 * against 0.005: odds 0.005) does not. Chosen a priori from those two cases, not fitted.
 */
export const PRINTED_NAME_ODDS = 0.05;

/** Transliteration choices tried per name at most (each Ä, Ö, Ü, Å, Ñ doubles them). */
const MAX_SPELLINGS = 8;

/** log P(the recogniser's output is exactly `text`) under one line's scores; null when it cannot be (a length the time steps cannot hold, a glyph outside the MRZ's alphabet). */
export function lineLogLikelihood(scores: MrzLineScores, text: string): number | null {
	const masks = oneHot(text);
	return masks && (lineMarginals(scores.probs, scores.steps, MRZ_ALPHABET.length, masks, { likelihoodOnly: true })?.logLikelihood ?? null);
}

/** Each glyph of `text` as a mask allowing only it; null for a glyph outside the MRZ's alphabet. */
function oneHot(text: string): Uint8Array[] | null {
	const masks: Uint8Array[] = [];
	for (const ch of text) {
		const c = MRZ_ALPHABET.indexOf(ch);
		if (c < 0) return null;
		const m = new Uint8Array(MRZ_ALPHABET.length);
		m[c] = 1;
		masks.push(m);
	}
	return masks;
}

/**
 * The MRZ spellings of a printed name (`Müller-Lüdenscheidt` → `MUELLER<LUEDENSCHEIDT`, `MULLER<…`),
 * or null when the print cannot vouch for one: a glyph read below AGREE_CHAR_CONFIDENCE, a
 * character with no MRZ form that is not punctuation, no letter at all.
 */
export function mrzSpellings(printed: VizText): string[] | null {
	const text = normaliseVizName(printed.text);
	if (!/[A-Z]/i.test(text)) return null;
	// The confidence of each normalised glyph (normalising drops and merges characters).
	const upper = printed.text.toUpperCase();
	let k = 0;
	let spellings = [''];
	for (const ch of text) {
		while (k < upper.length && upper[k] !== ch && !(ch === ' ' && /[\s\-,‐–<]/.test(upper[k]))) k++;
		const p = ch === ' ' ? 1 : (printed.charConfidences[k] ?? 0);
		k++;
		if (p < AGREE_CHAR_CONFIDENCE) return null;
		const forms = ch === ' ' ? ['<'] : mrzFormsOf(ch);
		if (forms.length === 0) {
			if (/[\p{L}\p{N}]/u.test(ch)) return null;
			continue;
		}
		if (forms.some((f) => /[0-9]/.test(f))) return null;
		spellings = spellings.flatMap((s) => forms.map((f) => s + f)).slice(0, MAX_SPELLINGS);
	}
	return spellings.filter((s) => s.length > 0);
}

/**
 * A line one glyph of the name field away from `line` that the scores find more than
 * 1/PRINTED_NAME_ODDS times likelier, as `position:glyph` (another letter or a filler in its place),
 * `+position:glyph` (one put in, the rest of the field moved on a place) or `-position` (one taken
 * out); or why the line has no neighbours to weigh; null when there is none. The decoded line is no
 * yardstick for the print on its own: decoded position by position, a name whose glyphs the
 * alignment smeared can be far less likely than the truth (seed 1031 #336: `XATHSKPEE<OOOLLE<E<<NN`
 * for `XATHSKPE<<ODILE`, 3·10¹⁰ times less), so a print altered in one clear glyph would still beat
 * it. Against its own neighbours it cannot: putting back the glyph the MRZ shows makes the line
 * likelier by as much as that glyph is clear.
 * A glyph put in or taken out is weighed too: the print's recogniser drops the space between two
 * given names (seed 5252 #67, 2026-12-07: `WI WI` printed, read `WIWI`, under a `SPECIMEN` over the
 * MRZ; the line with that name was 10⁶ times likelier than the smeared decoding and no letter away
 * from it likelier, and it passed with its given name wrong, while `WI<WI`, a filler put in, was 433
 * times likelier still), and a glyph missing from the print is a name altered as surely as one
 * changed.
 */
function likelierNeighbour(scores: MrzLineScores, line: string, start: number, end: number): string | null {
	const masks = oneHot(line);
	// A line the MRZ cannot spell has no say against it (never a pass).
	if (!masks) return 'not an MRZ line';
	const own = lineLogLikelihood(scores, line);
	if (own === null) return 'not an MRZ line';
	const bar = own - Math.log(PRINTED_NAME_ODDS);
	// A glyph in place of the line's own at i (every name glyph allowed there, the rest of the line fixed).
	for (let i = start; i < end; i++) {
		const fixed = masks[i];
		masks[i] = NAME_MASK;
		const c = glyphOver(scores, masks, i, bar);
		masks[i] = fixed;
		if (c) return `${i}:${c}`;
	}
	// A glyph put in at i, the field's last filler falling off its end; only where the field ends in
	// one, and not within its last run of fillers, where a filler put in changes nothing.
	const used = start + line.slice(start, end).replace(/<+$/, '').length;
	if (line[end - 1] === '<') {
		for (let i = start; i <= Math.min(used, end - 1); i++) {
			const c = glyphOver(scores, [...masks.slice(0, i), NAME_MASK, ...masks.slice(i, end - 1), ...masks.slice(end)], i, bar);
			if (c) return `+${i}:${c}`;
		}
	}
	// A glyph taken out at i, a filler closing the field.
	for (let i = start; i < used; i++) {
		const ll = lineLogLikelihood(scores, line.slice(0, i) + line.slice(i + 1, end) + '<' + line.slice(end));
		if (ll !== null && ll > bar) return `-${i}`;
	}
	return null;
}

/**
 * The name glyph at `i` (where `masks` allows every one) whose line has a log-likelihood over `bar`,
 * or null. The lines' likelihoods summed come first, from the forward pass alone: where even the sum
 * is under the bar (a clear glyph, a shift that misaligns the rest), no glyph can pass, and the
 * backward pass that tells the glyphs apart is not run.
 */
function glyphOver(scores: MrzLineScores, masks: readonly Uint8Array[], i: number, bar: number): string | null {
	const k = MRZ_ALPHABET.length;
	const sum = lineMarginals(scores.probs, scores.steps, k, masks, { likelihoodOnly: true });
	if (!sum || sum.logLikelihood <= bar) return null;
	const m = lineMarginals(scores.probs, scores.steps, k, masks);
	if (!m) return null;
	const row = m.posteriors[i];
	for (let c = 0; c < k; c++) if (NAME_MASK[c] && row[c] > 0 && Math.log(row[c]) + m.logLikelihood > bar) return MRZ_ALPHABET[c];
	return null;
}

const NAME_MASK = Uint8Array.from(MRZ_ALPHABET, (ch) => (/[A-Z<]/.test(ch) ? 1 : 0));

/** The name field's surname and given names as the line spells them (`<` between words). */
function splitNames(field: string): { lastName: string; firstName: string } {
	const trimmed = field.replace(/<+$/, '');
	const split = trimmed.indexOf('<<');
	return split < 0 ? { lastName: trimmed, firstName: '' } : { lastName: trimmed.slice(0, split), firstName: trimmed.slice(split + 2) };
}

export interface PrintedNames {
	/** The lines with the names as printed. */
	lines: string[];
	/** The names taken from the print. */
	fields: PrintedNameField[];
	/** The new line's probability against the decoded one's (≥ PRINTED_NAME_ODDS). */
	odds: number;
}

/**
 * The decoded `lines` with each of the `doubted` names spelled as `printed`, where the MRZ's scores
 * allow it (see above); null when no printed spelling differs from the decoding and is likely enough.
 * Both names are tried together and each alone; the likeliest line that passes is taken. A spelling
 * that does not fit the field (9303 truncates long names) is not tried.
 */
export function printedNames(
	layout: MrzLayout,
	lines: readonly string[],
	scores: readonly MrzLineScores[],
	printed: Partial<Record<PrintedNameField, VizText>>,
	doubted: readonly string[]
): PrintedNames | null {
	const [l, start, end] = nameField(layout);
	const line = lines[l];
	const lineScores = scores[l];
	if (!line || !lineScores || line.length < end) return null;
	const read = splitNames(line.slice(start, end));
	const options = (f: PrintedNameField) => {
		const text = doubted.includes(f) ? printed[f] : undefined;
		const spelled = text ? mrzSpellings(text) : null;
		return spelled?.filter((s) => s !== read[f]) ?? [];
	};
	const last = options('lastName');
	const first = options('firstName');
	const tries: { names: { lastName: string; firstName: string }; fields: PrintedNameField[] }[] = [
		...last.flatMap((lastName) => first.map((firstName) => ({ names: { lastName, firstName }, fields: ['lastName', 'firstName'] as PrintedNameField[] }))),
		...last.map((lastName) => ({ names: { ...read, lastName }, fields: ['lastName'] as PrintedNameField[] })),
		...first.map((firstName) => ({ names: { ...read, firstName }, fields: ['firstName'] as PrintedNameField[] }))
	];
	if (tries.length === 0) return null;
	const base = lineLogLikelihood(lineScores, line);
	if (base === null) return null;
	// Each spelling's odds first (one pass each), then the likeliest that passes is taken: its
	// neighbours (about a hundred passes) are weighed for as few spellings as need it.
	const likely: { candidate: string; fields: PrintedNameField[]; odds: number }[] = [];
	for (const t of tries) {
		const field = t.names.firstName ? `${t.names.lastName}<<${t.names.firstName}` : t.names.lastName;
		if (field.length > end - start) continue;
		const candidate = line.slice(0, start) + field.padEnd(end - start, '<') + line.slice(end);
		const ll = lineLogLikelihood(lineScores, candidate);
		if (ll === null) continue;
		const odds = Math.exp(ll - base);
		if (odds >= PRINTED_NAME_ODDS) likely.push({ candidate, fields: t.fields, odds });
	}
	// Stable: among spellings as likely, the first tried wins.
	for (const { candidate, fields, odds } of likely.sort((a, b) => b.odds - a.odds)) {
		if (likelierNeighbour(lineScores, candidate, start, end)) continue;
		const out = lines.slice();
		out[l] = candidate;
		return { lines: out, fields, odds };
	}
	return null;
}

/**
 * Whether the MRZ leaves room for a word break inside `field`'s name that the print cannot show: a
 * line with a filler put in between two of its letters (the rest of the field moved on a place) at
 * least PRINTED_NAME_ODDS as likely as `lines`. The print's recogniser runs words together
 * (`CLAUDE IB` read `CLAUDEIB`, `IB IOANNIS` read `IBIOANNIS`: 3 of the 8 clean pages of seed 5252
 * whose names have more than one word), so a print that agrees with a name read without a filler
 * says nothing of whether one stood there; where the MRZ's own glyphs do not rule it out either,
 * the print cannot vouch for the name. A field that fills its place to the end (a truncated name) has no filler to move.
 */
export function breakInDoubt(layout: MrzLayout, lines: readonly string[], scores: readonly MrzLineScores[], field: PrintedNameField): boolean {
	const [l, start, end] = nameField(layout);
	const line = lines[l];
	const lineScores = scores[l];
	if (!line || !lineScores || line.length < end || line[end - 1] !== '<') return false;
	// The field's glyphs before its closing fillers, split at the `<<` between surname and given names.
	const names = line.slice(start, end);
	const used = names.replace(/<+$/, '').length;
	const split = names.indexOf('<<');
	const [from, to] = field === 'lastName' ? [0, split < 0 ? used : split] : [split < 0 ? used : split + 2, used];
	const base = lineLogLikelihood(lineScores, line);
	if (base === null) return false;
	const floor = base + Math.log(PRINTED_NAME_ODDS);
	for (let i = start + from + 1; i < start + to; i++) {
		if (line[i - 1] === '<' || line[i] === '<') continue;
		const ll = lineLogLikelihood(lineScores, line.slice(0, i) + '<' + line.slice(i, end - 1) + line.slice(end));
		if (ll !== null && ll >= floor) return true;
	}
	return false;
}

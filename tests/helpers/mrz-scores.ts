import { MRZ_ALPHABET } from '../../src/lib/documents/ctc-decode.ts';
import type { MrzLineScores } from '../../src/lib/documents/mrz-decode.ts';

const K = MRZ_ALPHABET.length;

/** What the recogniser is made to see at one glyph: character → probability (the rest spread thin). */
export type Glyph = Record<string, number>;

/**
 * A [T, 1 + K] score matrix for `text`: two frames per glyph then a blank frame. `glyphs` replaces
 * a position's distribution; `noBlankAfter` drops the blank frame after a position (as when two
 * equal glyphs run together); `blankShare` is the blank's share in those frames instead.
 */
export function scores(text: string, glyphs: Record<number, Glyph> = {}, joined: Record<number, number> = {}): MrzLineScores {
	const rows: number[][] = [];
	const frame = (dist: Record<string, number>, blank = 0) => {
		const row = new Array<number>(1 + K).fill(0);
		const spread = Math.max(0, 1 - blank - Object.values(dist).reduce((a, b) => a + b, 0));
		for (let c = 0; c <= K; c++) row[c] = spread / (K + 1);
		row[0] += blank;
		for (const [ch, p] of Object.entries(dist)) row[1 + MRZ_ALPHABET.indexOf(ch)] += p;
		rows.push(row);
	};
	for (let i = 0; i < text.length; i++) {
		const dist = glyphs[i] ?? { [text[i]]: 0.999 };
		frame(dist);
		frame(dist);
		if (joined[i] === undefined) frame({}, 0.999);
		else frame(dist.constructor === Object ? Object.fromEntries(Object.entries(dist).map(([c, p]) => [c, p * (1 - joined[i])])) : dist, joined[i]);
	}
	return { steps: rows.length, probs: Float32Array.from(rows.flat()) };
}


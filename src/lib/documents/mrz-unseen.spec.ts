import { describe, expect, it } from 'vitest';
import { MRZ_ALPHABET } from './ctc-decode.ts';
import type { MrzLineScores } from './mrz-decode.ts';
import { linesNotSeen, MAX_UNSEEN_GLYPHS, unseenGlyphs } from './mrz-unseen.ts';
import { scores } from '../../../tests/helpers/mrz-scores.ts';

const LINE = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const CLASSES = 1 + MRZ_ALPHABET.length;

/** `text`'s scores with the glyphs from `from` to `to` (exclusive) hidden: the recogniser sees blank there (a thumb). */
function hidden(text: string, from: number, to: number): MrzLineScores {
	const s = scores(text);
	const probs = s.probs.slice();
	// scores(): three frames a glyph (two of it, one blank).
	for (let t = 3 * from; t < 3 * to; t++) {
		probs.fill(0.001 / CLASSES, t * CLASSES, (t + 1) * CLASSES);
		probs[t * CLASSES] = 0.999;
	}
	return { steps: s.steps, probs };
}

describe('unseenGlyphs', () => {
	it('counts nothing unseen on a line whose every glyph was emitted, fillers included', () => {
		expect(unseenGlyphs(scores(LINE), 44)).toBe(0);
	});
	it('counts two fillers the recogniser ran together under one emission as seen', () => {
		// The filler at 20 runs into the one at 21 with no blank between (a blurred `<<`).
		expect(unseenGlyphs(scores(LINE, {}, { 20: 0 }), 44)).toBe(0);
	});
	it('counts the glyphs a thumb hid, inside the line or at its end', () => {
		expect(unseenGlyphs(hidden(LINE, 30, 35), 44)).toBe(5);
		expect(unseenGlyphs(hidden(LINE, 38, 44), 44)).toBe(6);
		expect(unseenGlyphs(hidden(LINE, 0, 3), 44)).toBe(3);
	});
	it('counts the glyphs a box that ended at the thumb left out of the strip', () => {
		expect(unseenGlyphs(scores(LINE.slice(0, 37)), 44)).toBe(7);
		expect(unseenGlyphs(scores(LINE.slice(0, 42)), 44)).toBe(2);
	});
});

describe('linesNotSeen', () => {
	it(`names the lines with more than ${MAX_UNSEEN_GLYPHS} glyphs unseen`, () => {
		expect(linesNotSeen([0, MAX_UNSEEN_GLYPHS])).toEqual([]);
		expect(linesNotSeen([MAX_UNSEEN_GLYPHS + 1, 0, 7])).toEqual([0, 2]);
		expect(linesNotSeen([])).toEqual([]);
	});
});

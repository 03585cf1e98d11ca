import { describe, expect, it } from 'vitest';
import { MRZ_ALPHABET } from './ctc-decode.ts';
import type { MrzLineScores } from './mrz-decode.ts';
import { glyphsPastLines, linesNotSeen, MAX_UNSEEN_GLYPHS, unseenGlyphs } from './mrz-unseen.ts';
import type { Quad } from './raster.ts';
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

describe('glyphsPastLines', () => {
	// A TD3 page 125 mm wide at 10 px a mm: its MRZ lines 44 glyphs of 25.4 px, from 70 px in.
	const PAGE = { width: 1250, height: 880 };
	const pitch = 25.4;
	/** A line box from glyph place `from` to `to` (exclusive) of the page's MRZ, at `y`; `down`: running down the page (read turned a quarter). */
	const box = (from: number, to: number, y = 800, down = false): Quad => {
		const [x0, x1] = [70 + from * pitch, 70 + to * pitch];
		return down
			? [
					[y, x0],
					[y, x1],
					[y - 30, x1],
					[y - 30, x0]
				]
			: [
					[x0, y - 30],
					[x1, y - 30],
					[x1, y],
					[x0, y]
				];
	};

	it('finds no room past a whole line on its own page', () => {
		expect(glyphsPastLines([box(0, 44, 760), box(0, 44)], [44, 44], 'TD3', PAGE)).toEqual([0, 0]);
		// An MRV-A's 44 glyphs on its 120-mm sticker.
		expect(glyphsPastLines([box(0, 44)], [44], 'MRV-A', { width: 1200, height: 800 })).toEqual([0]);
	});
	it("finds no room past a visa's lines on the passport page it is stuck on", () => {
		// A Schengen visa (MRV-B, 36 glyphs) whose outline found is the 125-mm passport page's.
		expect(glyphsPastLines([box(0, 36, 760), box(0, 36)], [36, 36], 'MRV-B', PAGE)).toEqual([0, 0]);
		expect(glyphsPastLines([box(0, 44)], [44], 'MRV-A', PAGE)).toEqual([0]);
	});
	it("counts a passport's glyphs a thumb hid at the start of its lines, read as a 36-glyph layout", () => {
		// Glyphs 8–43 in view, read as a TD2: the page holds a TD3's 49 pitches, a TD2's 41.
		const [first, second] = glyphsPastLines([box(8, 44, 760), box(8, 44)], [36, 36], 'TD2', PAGE);
		expect(first).toBeGreaterThan(MAX_UNSEEN_GLYPHS);
		expect(first).toBe(7);
		expect(second).toBe(7);
	});
	it('counts them on a page read turned a quarter, the text running down it', () => {
		const page = { width: PAGE.height, height: PAGE.width };
		expect(glyphsPastLines([box(8, 44, 400, true)], [36], 'TD2', page)).toEqual([7]);
	});
	it('counts the glyphs of a layout read whole whose box a thumb cut short', () => {
		// 30 glyphs read from a box over 26 of a TD1's: 4 hidden, counted 5 (the 30 squeezed into 26 pitches make each narrower).
		expect(glyphsPastLines([box(4, 30, 500)], [30], 'TD1', { width: 856, height: 540 })).toEqual([5]);
	});
	it('measures no line whose both ends lie far inside the outline: the outline is not its page', () => {
		// A TD1 card lying in the middle of a larger sheet the outline was found around.
		expect(glyphsPastLines([box(10, 40, 500)], [30], 'TD1', { width: 2100, height: 1480 })).toEqual([0]);
	});
	it('measures nothing for a layout of no known page', () => {
		expect(glyphsPastLines([box(8, 44)], [36], 'FRENCH_NATIONAL_ID', PAGE)).toEqual([0]);
	});
});

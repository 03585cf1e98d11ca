import { describe, expect, it } from 'vitest';
import { glyphsCutAtEdge, mrzCutLines, mrzReachesEdge } from './mrz-edge.ts';
import { createRaster, type Quad, type Raster } from './raster.ts';

const line = (x0: number, x1: number, y = 400, h = 24): Quad => [[x0, y], [x1, y], [x1, y + h], [x0, y + h]];

describe('mrzReachesEdge', () => {
	it('marks MRZ lines that all end on one side edge, or whose outer line reaches the bottom edge', () => {
		const image = { width: 1000, height: 700 };
		expect(mrzReachesEdge([line(40, 960), line(40, 960, 440)], image)).toBe(false);
		expect(mrzReachesEdge([line(0, 960), line(1, 960, 440)], image)).toBe(true);
		expect(mrzReachesEdge([line(40, 998), line(40, 999, 440)], image)).toBe(true);
		// One line only: a box the detector stretched, not a cut.
		expect(mrzReachesEdge([line(0, 960), line(40, 960, 440)], image)).toBe(false);
		// The last line cut through its glyphs: its box stops on the bottom edge, or is sized past it.
		expect(mrzReachesEdge([line(40, 960), line(40, 960, 680, 20)], image)).toBe(true);
		expect(mrzReachesEdge([line(40, 960), line(40, 960, 670, 45)], image)).toBe(true);
		// A box merged with an overprint, ending 11 px above the bottom: whole.
		expect(mrzReachesEdge([line(40, 960, 560), line(40, 960, 630, 70)], { width: 1000, height: 711 })).toBe(false);
		expect(mrzReachesEdge([], image)).toBe(false);
	});

	it('judges a photo stored sideways along its text, which runs up the image', () => {
		// The text runs bottom to top (a page turned a quarter anticlockwise): each box's first corner
		// is at its bottom left, seen upright.
		const up = (y0: number, y1: number, x: number, h = 24): Quad => [[x, y0], [x, y1], [x + h, y1], [x + h, y0]];
		const image = { width: 700, height: 1000 };
		expect(mrzReachesEdge([up(960, 40, 400), up(960, 40, 440)], image)).toBe(false);
		// Both lines run off the top of the photo: the end of the text.
		expect(mrzReachesEdge([up(960, 1, 400), up(960, 0, 440)], image)).toBe(true);
		// The outer line's box reaches the right edge: the cut runs along the text.
		expect(mrzReachesEdge([up(960, 40, 640), up(960, 40, 680, 20)], image)).toBe(true);
		// One line alone starting at the bottom edge is no cut, as on an upright page.
		expect(mrzReachesEdge([up(999, 40, 400), up(960, 40, 440)], image)).toBe(false);
		expect(mrzReachesEdge([up(999, 40, 400), up(998, 40, 440)], image)).toBe(true);
	});
});

/** A light page with two MRZ lines of dark vertical strokes, their glyphs' stems, at a 20-px pitch. */
function page(width: number, height: number, lines: readonly { y: number; h: number }[], background?: { from: number; luma: number }): Raster {
	const r = createRaster(width, height, 3, 235);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = (y * width + x) * 3;
			if (background && y >= background.from) r.data.fill(background.luma, i, i + 3);
			const stem = lines.some((l) => y >= l.y && y < l.y + l.h) && x >= 40 && x < 920 && x % 20 < 4;
			if (stem) r.data.fill(20, i, i + 3);
		}
	}
	return r;
}

describe('glyphsCutAtEdge', () => {
	const boxes = [line(36, 924, 300, 24), line(36, 924, 340, 24)];
	it('marks a photo whose bottom edge runs through the last line’s glyphs, its box short of the edge', () => {
		// The glyphs run on to row 359, the last; the reader's box stopped at 352 (sized from their tops).
		const cut = page(960, 360, [{ y: 300, h: 24 }, { y: 340, h: 20 }]);
		expect(glyphsCutAtEdge([line(36, 924, 300, 24), line(36, 924, 340, 12)], cut)).toBe(true);
		// Their stems touch the top edge instead (the first line cut, the page upside down).
		const top = page(960, 360, [{ y: 0, h: 10 }, { y: 40, h: 24 }]);
		expect(glyphsCutAtEdge([line(36, 924, 2, 8), line(36, 924, 40, 24)], top)).toBe(true);
	});
	it('leaves a whole page alone: a margin, a plain background or a line far from the edge', () => {
		// The last line ends 12 px above the edge: the margin's paper below it.
		expect(glyphsCutAtEdge(boxes, page(960, 376, [{ y: 300, h: 24 }, { y: 340, h: 24 }]))).toBe(false);
		// The page ends just under the MRZ and the table it lies on fills the last rows: one dark run, no strokes.
		expect(glyphsCutAtEdge(boxes, page(960, 372, [{ y: 300, h: 24 }, { y: 340, h: 24 }], { from: 368, luma: 40 }))).toBe(false);
		// Strokes at the edge, but the MRZ ends far above it (a barcode, the print below the MRZ).
		const far = page(960, 600, [{ y: 300, h: 24 }, { y: 340, h: 24 }, { y: 560, h: 40 }]);
		expect(glyphsCutAtEdge(boxes, far)).toBe(false);
		// The tops of the next print cut by the edge, 1.4 line heights under the MRZ (a specimen's scan).
		expect(glyphsCutAtEdge(boxes, page(960, 398, [{ y: 300, h: 24 }, { y: 340, h: 24 }, { y: 394, h: 4 }]))).toBe(false);
		expect(glyphsCutAtEdge(boxes, page(960, 380, [{ y: 300, h: 24 }, { y: 340, h: 24 }, { y: 376, h: 4 }]))).toBe(true);
		expect(glyphsCutAtEdge([], far)).toBe(false);
	});
});

describe('mrzCutLines', () => {
	it('puts every line in question when the cut runs across their ends', () => {
		const image = page(1000, 700, []);
		expect(mrzCutLines([line(40, 998), line(40, 999, 440)], 2, image)).toEqual([0, 1]);
		expect(mrzCutLines([line(0, 960), line(1, 960, 440), line(1, 960, 480)], 3, image)).toEqual([0, 1, 2]);
		expect(mrzCutLines([line(40, 960), line(40, 960, 440)], 2, image)).toEqual([]);
	});
	it('names only the line the edge above or below cut, by its box or by its glyphs', () => {
		expect(mrzCutLines([line(40, 960), line(40, 960, 680, 20)], 2, page(1000, 700, []))).toEqual([1]);
		// The glyphs run on to the last row; the reader's box of the last line stopped short of it.
		const cut = page(960, 360, [{ y: 300, h: 24 }, { y: 340, h: 20 }]);
		expect(mrzCutLines([line(36, 924, 300, 24), line(36, 924, 340, 12)], 2, cut)).toEqual([1]);
		const top = page(960, 360, [{ y: 0, h: 10 }, { y: 40, h: 24 }]);
		expect(mrzCutLines([line(36, 924, 2, 8), line(36, 924, 40, 24)], 2, top)).toEqual([0]);
	});
	it('puts the whole reading in question when the cut lies on a line seated below it', () => {
		// Two lines read; a third seated under them to look for a lost one lies on the cut glyphs.
		const cut = page(960, 360, [{ y: 260, h: 24 }, { y: 300, h: 24 }, { y: 340, h: 20 }]);
		expect(mrzCutLines([line(36, 924, 260, 24), line(36, 924, 300, 24), line(36, 924, 340, 12)], 2, cut)).toEqual([0, 1]);
		// The same seated line on a whole page: nothing cut.
		const whole = page(960, 376, [{ y: 260, h: 24 }, { y: 300, h: 24 }]);
		expect(mrzCutLines([line(36, 924, 260, 24), line(36, 924, 300, 24), line(36, 924, 340, 24)], 2, whole)).toEqual([]);
		expect(mrzCutLines([], 0, whole)).toEqual([]);
	});
});

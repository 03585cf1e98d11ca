import { describe, expect, it } from 'vitest';
import { classIndices, ctcGreedyDecode, MRZ_ALPHABET } from './ctc-decode.ts';
import { rectCorners } from './polygon.ts';
import { createRaster } from './raster.ts';
import { boxesAlong, skewByProjection, skewFromBoxes, skewHypotheses } from './skew.ts';
import { dbPostprocess, type TextBox } from './text-detection.ts';
import { alignBlock, fillLineGaps, flipQuad, groupTextLines, lineInBoxBelow, lineOfQuad, linesAround, oneLinePerRow, startTogether } from './text-lines.ts';
import { rotateRaster } from './warp.ts';

function box(cx: number, cy: number, width: number, height: number, angle = 0): TextBox {
	const rect = { cx, cy, width, height, angle };
	return { quad: rectCorners(rect), rect, score: 0.9 };
}

describe('ctcGreedyDecode', () => {
	const labels = ['A', 'B', '<', '中'];
	const probs = (rows: number[][]) => new Float32Array(rows.flat());

	it('collapses repeats, drops blanks, keeps doubled letters split by a blank', () => {
		// classes: 0 blank, 1 A, 2 B, 3 <, 4 中
		const p = probs([
			[0.1, 0.8, 0.1, 0, 0],
			[0.1, 0.8, 0.1, 0, 0],
			[0.9, 0.1, 0, 0, 0],
			[0.1, 0.8, 0.1, 0, 0],
			[0.1, 0, 0.1, 0.8, 0],
			[0.1, 0, 0.1, 0.8, 0]
		]);
		expect(ctcGreedyDecode(p, 6, 5, labels).text).toBe('AA<');
	});

	it('lets only the allowed characters compete', () => {
		const p = probs([[0.1, 0, 0.2, 0.1, 0.6]]);
		expect(ctcGreedyDecode(p, 1, 5, labels).text).toBe('中');
		expect(ctcGreedyDecode(p, 1, 5, labels, classIndices(labels, 'AB<')).text).toBe('B');
		expect(classIndices(labels, MRZ_ALPHABET)).toEqual(new Set([1, 2, 3]));
	});
});

describe('dbPostprocess', () => {
	it('turns a tilted bar of text probability into one unclipped, rotated box', () => {
		const w = 200, h = 120;
		const prob = new Float32Array(w * h);
		const a = (8 * Math.PI) / 180;
		for (let y = 0; y < h; y++)
			for (let x = 0; x < w; x++) {
				const u = (x - 100) * Math.cos(a) + (y - 60) * Math.sin(a);
				const v = -(x - 100) * Math.sin(a) + (y - 60) * Math.cos(a);
				if (Math.abs(u) < 70 && Math.abs(v) < 6) prob[y * w + x] = 0.95;
			}
		const boxes = dbPostprocess(prob, w, h, 2, 2);
		expect(boxes).toHaveLength(1);
		const r = boxes[0].rect;
		expect(r.angle).toBeCloseTo(8, 0);
		// Unclip grows each side by area × 1.5 / perimeter; pixel rasterisation adds about a pixel.
		const d = (140 * 12 * 1.5) / (2 * 152);
		expect(Math.abs(r.width - 2 * (140 + 2 * d)) / (2 * (140 + 2 * d))).toBeLessThan(0.03);
		expect(Math.abs(r.height - 2 * (12 + 2 * d)) / (2 * (12 + 2 * d))).toBeLessThan(0.12);
		expect(r.cx).toBeCloseTo(200, -1);
	});

	it('drops weak regions', () => {
		const prob = new Float32Array(50 * 50);
		for (let i = 0; i < 400; i++) prob[1000 + i] = 0.4;
		expect(dbPostprocess(prob, 50, 50, 1, 1)).toHaveLength(0);
	});
});

describe('skew', () => {
	it('takes the length-weighted angle of elongated boxes', () => {
		expect(skewFromBoxes([box(100, 50, 300, 20, 6), box(100, 90, 280, 20, 6.4), box(50, 10, 30, 25, 40)])).toBeCloseTo(6.2, 0);
		expect(skewFromBoxes([box(0, 0, 10, 9)])).toBeNull();
	});

	it('does not average lines near ±90° to zero', () => {
		expect(Math.abs(skewFromBoxes([box(0, 0, 200, 10, 89), box(0, 40, 200, 10, -89)])!)).toBeGreaterThan(85);
	});

	it('keeps to the MRZ band when a facing page brings more vertical text', () => {
		// Two MRZ lines (the page's longest) at 1.5°, and nine long vertical lines of a facing page
		// whose squared lengths outweigh them (an average took the estimate to about −89.6°).
		const mrz = [box(600, 800, 1100, 35, 1.5), box(600, 860, 1100, 35, 1.6)];
		const facing = Array.from({ length: 9 }, (_, k) => box(100 + k * 110, 300, 800, 30, -89.6));
		const boxes = [...facing, ...mrz, box(300, 700, 200, 30, 1.2)];
		expect(skewFromBoxes(boxes)).toBeCloseTo(1.5, 0);
		const [first, second] = skewHypotheses(boxes);
		expect(first).toBeCloseTo(1.5, 0);
		// The other direction is still offered (a page photographed turned 90° has its MRZ there).
		expect(Math.abs(second)).toBeGreaterThan(85);
		// Lines are built from the boxes along the chosen direction only.
		expect(boxesAlong(boxes, first)).toHaveLength(3);
	});

	it('finds the angle of rows of dark marks by projection profile', () => {
		const page = createRaster(400, 300, 1, 240);
		for (let row = 0; row < 6; row++) for (let y = 40 + row * 40; y < 48 + row * 40; y++) for (let x = 40; x < 360; x += 1) if (x % 12 < 8) page.data[y * 400 + x] = 20;
		const tilted = rotateRaster(page, -7, { fill: [240] }).raster;
		expect(skewByProjection(tilted)).toBeCloseTo(7, 0);
	});
});

describe('groupTextLines', () => {
	it('merges pieces of one line along the skew and orders lines top to bottom', () => {
		const a = (5 * Math.PI) / 180;
		const at = (u: number, v: number): [number, number] => [u * Math.cos(a) - v * Math.sin(a), u * Math.sin(a) + v * Math.cos(a)];
		const [c1x, c1y] = at(100, 200);
		const [c2x, c2y] = at(300, 200);
		const [c3x, c3y] = at(200, 100);
		const lines = groupTextLines([box(c1x, c1y, 150, 20, 5), box(c2x, c2y, 150, 20, 5), box(c3x, c3y, 300, 20, 5)], 5);
		expect(lines).toHaveLength(2);
		expect(lines[1].boxes).toBe(2);
		// 350 of boxes plus a quarter of the line height at each end.
		expect(lines[1].width).toBeCloseTo(360, 0);
		expect(lines[0].y).toBeLessThan(lines[1].y);
		expect(flipQuad(lines[0].quad)[0]).toEqual(lines[0].quad[2]);
	});

	it('with splitRows, keeps apart print on one row that stands far apart: a card\'s front beside its back', () => {
		// The Serbian card scan: the front's date `24.07.2008.` (110 wide) level with the back's first
		// MRZ line (430 wide), 165 px of empty row between them at a line height of 16.
		const row = [box(145, 150, 110, 16), box(580, 151, 430, 16)];
		expect(groupTextLines(row, 0)).toHaveLength(1);
		const split = groupTextLines(row, 0, { splitRows: true });
		expect(split.map((l) => [l.boxes, Math.round(l.x0)])).toEqual([
			[1, 86],
			[1, 361]
		]);
		// The pieces of one line a glyph or two apart stay one line.
		expect(groupTextLines([box(200, 150, 300, 16), box(400, 150, 60, 16), box(560, 150, 200, 16)], 0, { splitRows: true })).toHaveLength(1);
	});

	it('takes a line\'s height from its long pieces, not from short thin runs of fillers', () => {
		// An MRZ name line: the capitals in one 600-long box 30 high, two filler runs in short boxes 18 high.
		const lines = groupTextLines([box(300, 100, 600, 30), box(640, 101, 40, 18), box(700, 101, 40, 18)], 0);
		expect(lines).toHaveLength(1);
		expect(lines[0].boxes).toBe(3);
		// Unweighted, the three pieces averaged 22: the crop cut the capitals at top and bottom.
		expect(lines[0].height).toBeGreaterThan(28);
		expect(lines[0].height).toBeLessThan(30);
		expect(lines[0].y0).toBeCloseTo(85.7, 0);
	});

	it('keeps a filler run boxed chevron by chevron in its line, not as a thin line of its own on the same row', () => {
		// A TD1 name line as the detector boxed it on a generated card: the name and the last fillers in
		// two long boxes 28 and 24 high, the fillers between them one by one, 8–17 high. They gathered
		// into a second, thin line on the row, read as `DOSUR<BOVAQUYEE<<ZZZ` and decoded instead.
		const chevrons = [290, 313, 339, 364, 389, 494, 520, 544, 570, 596, 620, 643, 666].map((x, i) => box(x, 1026 + (i % 3) * 0.5, 12, 8 + (i % 4) * 3));
		const lines = groupTextLines([box(168, 1027, 238, 28), ...chevrons, box(739, 1026, 132, 24), box(300, 976, 700, 28)], 0);
		expect(lines).toHaveLength(2);
		expect(lines[1].boxes).toBe(15);
		// Height from the long pieces (length-weighted 26.7) and the chevrons at least 0.6 of the tallest:
		// 25.7. All the chevrons counted, 22.3, which cuts the capitals.
		expect(lines[1].height).toBeGreaterThan(25);
		expect(lines[1].height).toBeLessThan(27);
	});

	it('keeps chevrons and short runs in their line when they average barely thinner than it', () => {
		// A TD1 number line on a generated card (seed 5151 #51): the line's start 30 high; its fillers and
		// check digit in a tiny chevron boxed first, short runs and single glyphs up to 26 high, averaging
		// over 0.7 of the line. Left as a line of their own, the row was read twice.
		const pieces = [box(646, 975, 10, 10), box(466, 978, 16, 16), box(670, 978, 23, 22), box(767, 978, 80, 26), box(719, 978, 24, 24), box(696, 978, 31, 24), box(442, 978, 17, 26)];
		const lines = groupTextLines([box(242, 977, 383, 30), ...pieces, box(240, 926, 390, 30)], 0);
		expect(lines).toHaveLength(2);
		expect(lines[1].boxes).toBe(8);
		expect(lines[1].x1).toBeGreaterThan(800);
	});

	it('leaves a whole piece of MRZ beside a line merged with an overprint as a line of its own', () => {
		// A name line under SPECIMEN: the overprint merged with the line's start into one box 75 high;
		// the rest of the line, 32 high, is no lone glyph and reads better on its own.
		const lines = groupTextLines([box(400, 775, 720, 75), box(950, 766, 472, 32)], 0);
		expect(lines).toHaveLength(2);
	});

	it('still keeps apart two lines of a block, and a small word between them', () => {
		const lines = groupTextLines([box(300, 100, 600, 28), box(300, 152, 600, 28), box(300, 126, 60, 14)], 0);
		expect(lines).toHaveLength(3);
	});
});

describe('oneLinePerRow', () => {
	it('makes one line of two on the same row, the taller lengthened over the other, and keeps the rows apart', () => {
		// Pieces the grouping left apart on one row (it only joins a thin group into a taller line).
		const [first, a, b, last] = [box(240, 926, 390, 30), box(242, 977, 383, 30), box(700, 978, 200, 24), box(400, 1028, 720, 28)].map((x) => groupTextLines([x], 0)[0]);
		const lines = oneLinePerRow([first, a, b, last]);
		expect(lines.map((l) => Math.round(l.y))).toEqual([926, 977, 1028]);
		expect(lines[1].height).toBeCloseTo(a.height, 5);
		expect(lines[1].x1).toBeCloseTo(b.x1, 5);
		expect(lines[1].x0).toBeCloseTo(a.x0, 5);
		expect(lines[1].boxes).toBe(2);
	});
});

describe('fillLineGaps', () => {
	// A TD1 block whose lines stand 52 px apart and 27 px high; the middle one lost to an overprint.
	const block = (ys: number[], widths: number[]) => groupTextLines(ys.map((y, i) => box(40 + widths[i] / 2, y, widths[i], 27, 0)), 0);

	it('puts the lost middle line half way between, as long as the longer of the two', () => {
		const lines = fillLineGaps(block([386, 490], [440, 770]));
		expect(lines).toHaveLength(3);
		expect(lines[1].y).toBeCloseTo(438, 0);
		expect(lines[1].boxes).toBe(0);
		// Along the text: from the leftmost start to the rightmost end of its neighbours.
		expect(lines[1].x0).toBeCloseTo(Math.min(lines[0].x0, lines[2].x0), 5);
		expect(lines[1].x1).toBeCloseTo(Math.max(lines[0].x1, lines[2].x1), 5);
		expect(lines[1].height).toBeCloseTo((lines[0].height + lines[2].height) / 2, 5);
	});

	it('adds nothing between lines one spacing apart, or further apart than two', () => {
		expect(fillLineGaps(block([386, 438, 490], [770, 770, 770]))).toHaveLength(3);
		expect(fillLineGaps(block([200, 490], [770, 770]))).toHaveLength(2);
	});

	it("measures two spacings by the block's own spacing where its lines show one", () => {
		// Seed 8282 #128 (a generated TD1 under combined damage): the front's print 74 px above the
		// second MRZ line, 2.89 of its heights (short of 2.9), the first line lost in an overprint's box,
		// the last two lines 39 px apart. Between print and second line, one spacing above the second.
		const lines = fillLineGaps([...groupTextLines([box(250, 253, 420, 21, 0)], 0), ...block([327, 366], [600, 600])]);
		expect(lines).toHaveLength(4);
		expect(lines[1].boxes).toBe(0);
		expect(lines[1].y).toBeCloseTo(290, 0);
		// Without the block's spacing below (one line under the print), heights alone decide: nothing.
		expect(fillLineGaps([...groupTextLines([box(250, 253, 420, 21, 0)], 0), ...block([327], [600])])).toHaveLength(2);
		// One and a half spacings apart is not two.
		expect(fillLineGaps([...groupTextLines([box(250, 269, 420, 21, 0)], 0), ...block([327, 366], [600, 600])])).toHaveLength(3);
	});
});

describe('lineInBoxBelow', () => {
	// Seed 2468 #154 (a generated TD1 under combined damage): its last two found lines 38 px apart,
	// 22 px high; the third line merged with a SPECIMEN overprint into a box 67 px high below them.
	const block = (ys: number[], heights: number[]) => groupTextLines(ys.map((y, i) => box(330, y, 594, heights[i], 0)), 0);

	it('puts the last line where it must stand inside the tall box below', () => {
		const found = block([295, 333], [22, 23.5]);
		const overprint = block([363], [66.7]);
		const lines = lineInBoxBelow(found, [...found, ...overprint]);
		expect(lines).toHaveLength(3);
		expect(lines[2].boxes).toBe(0);
		expect(lines[2].y).toBeCloseTo(371, 0);
		expect(lines[2].height).toBeCloseTo(found[1].height, 5);
	});

	it('puts nothing without such a box there, or without two lines one spacing apart', () => {
		const found = block([295, 333], [22, 23.5]);
		// A line of the block's own height below is a line, found already or not of the block.
		expect(lineInBoxBelow(found, [...found, ...block([371], [23])])).toHaveLength(2);
		// A tall box further down than one spacing (the overprint over print below the MRZ).
		expect(lineInBoxBelow(found, [...found, ...block([440], [66.7])])).toHaveLength(2);
		// The bottom two lines three heights apart: no spacing to go by.
		const apart = block([260, 333], [22, 23.5]);
		expect(lineInBoxBelow(apart, [...apart, ...block([400], [66.7])])).toHaveLength(2);
	});
});

describe('linesAround: an MRZ block seated on its one clean line', () => {
	const [anchor] = groupTextLines([box(600, 825, 1130, 35, 0)], 0);

	it('puts lines one pitch (1.9 heights) apart above and below, as long as the anchor, a little taller', () => {
		const lines = linesAround(anchor, 2, 1);
		expect(lines).toHaveLength(4);
		expect(lines[2]).toBe(anchor);
		const height = anchor.height;
		expect(lines.map((l) => Math.round(l.y))).toEqual([-2, -1, 0, 1].map((k) => Math.round(anchor.y + k * 1.9 * height)));
		for (const l of [lines[0], lines[1], lines[3]]) {
			expect(l.boxes).toBe(0);
			expect([l.x0, l.x1]).toEqual([anchor.x0, anchor.x1]);
			expect(l.height).toBeCloseTo(1.2 * height, 5);
			// Centred where the pitch puts it.
			expect((l.y0 + l.y1) / 2 - (anchor.y0 + anchor.y1) / 2).toBeCloseTo(l.y - anchor.y, 5);
		}
	});

	it('follows the anchor along a tilted page', () => {
		const [tilted] = groupTextLines([box(600, 825, 1130, 35, 5)], 5);
		const [above] = linesAround(tilted, 1, 0);
		// One pitch across the text: up and a little to the right for a line running down to the right.
		const dx = above.quad[0][0] - tilted.quad[0][0];
		const dy = above.quad[0][1] - tilted.quad[0][1];
		expect(Math.atan2(dx, -dy) * (180 / Math.PI)).toBeCloseTo(5, 0);
	});
});

describe('startTogether: print beside an MRZ block in its rows', () => {
	// A card's back beside its front: the MRZ lines start at x 400; the name line's row also holds the
	// front's signature from x 240, and alignBlock carried the block to it.
	const lineAt = (x0: number, x1: number, y: number, angle = 0) => groupTextLines([box((x0 + x1) / 2, y, x1 - x0, 14, angle)], angle)[0];
	const own = [lineAt(400, 720, 158), lineAt(401, 719, 173), lineAt(240, 719, 193)];
	const block = alignBlock(own);
	// Where the MRZ lines start (the first of those starting together), less a margin of a quarter of
	// each line's height; a line is cut, never lengthened.
	const from = Math.min(own[0].x0, own[1].x0);
	const startOf = (l: (typeof block)[number]) => Math.round(Math.max(l.x0, from - 0.25 * l.height));

	it('cuts every line of the block to where the last found lines start, less a margin', () => {
		// alignBlock carried the lower lines to the signature's start.
		expect(block.slice(1).map((l) => Math.round(l.x0))).toEqual([Math.round(own[2].x0), Math.round(own[2].x0)]);
		expect(from).toBeGreaterThan(395);
		const cut = startTogether(block, own);
		expect(cut?.map((l) => Math.round(l.x0))).toEqual(block.map(startOf));
		for (const l of cut!) expect(l.x0).toBeGreaterThan(from - 5);
		expect(cut?.map((l) => Math.round(l.x1))).toEqual(block.map((l) => Math.round(l.x1)));
		// The quads follow the cut extent.
		expect(Math.round(cut![2].quad[0][0])).toBe(startOf(block[2]));
	});

	it('cuts lines seated where no line was found, by the found lines of the other rows', () => {
		// A line seated one pitch below the block (no found line in its row) is cut with the others.
		const seated = linesAround(block[2], 0, 1)[1];
		const cut = startTogether([...block, seated], own);
		expect(cut?.map((l) => Math.round(l.x0))).toEqual([...block, seated].map(startOf));
	});

	it('leaves a block whose lines start within a glyph or so of each other', () => {
		expect(startTogether(alignBlock([lineAt(400, 720, 158), lineAt(415, 719, 173)]), [lineAt(400, 720, 158), lineAt(415, 719, 173)])).toBeNull();
	});

	it('works along a tilted page, from quads alone (lineOfQuad)', () => {
		const tilted = [lineAt(400, 720, 158, 4), lineAt(240, 719, 178, 4)];
		const cut = startTogether(alignBlock(tilted).map((l) => lineOfQuad(l.quad)), tilted);
		expect(cut).not.toBeNull();
		for (const l of cut!) expect(l.x0).toBeCloseTo(tilted[0].x0 - 0.25 * l.height, 0);
	});
});

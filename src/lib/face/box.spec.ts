import { describe, expect, it } from 'vitest';
import { clipBox, iou, nms, scaleBox, shiftInside, squareBox } from './box.ts';

const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

describe('iou', () => {
	it('is 1 for the same box, 0 for disjoint boxes, and the overlap ratio otherwise', () => {
		expect(iou(box(0, 0, 10, 10), box(0, 0, 10, 10))).toBe(1);
		expect(iou(box(0, 0, 10, 10), box(20, 20, 5, 5))).toBe(0);
		// 5×10 overlap, union 150.
		expect(iou(box(0, 0, 10, 10), box(5, 0, 10, 10))).toBeCloseTo(50 / 150, 10);
		expect(iou(box(0, 0, 0, 0), box(0, 0, 0, 0))).toBe(0);
	});
});

describe('nms', () => {
	it('keeps the best box of each overlapping group, best first', () => {
		const items = [
			{ box: box(0, 0, 10, 10), score: 0.7 },
			{ box: box(1, 1, 10, 10), score: 0.9 },
			{ box: box(50, 50, 10, 10), score: 0.8 },
			{ box: box(6, 0, 10, 10), score: 0.95 }
		];
		const kept = nms(items, 0.4);
		expect(kept.map((k) => k.score)).toEqual([0.95, 0.9, 0.8]);
		expect(nms(items, 0.1).map((k) => k.score)).toEqual([0.95, 0.8]);
	});
});

describe('box helpers', () => {
	it('squares on the height, keeping the centre', () => {
		expect(squareBox(box(10, 20, 40, 60))).toEqual(box(0, 20, 60, 60));
	});
	it('scales about the centre', () => {
		expect(scaleBox(box(10, 10, 20, 40), 2)).toEqual(box(0, -10, 40, 80));
	});
	it('shifts a box inside the image without resizing, and shrinks one that cannot fit', () => {
		expect(shiftInside(box(-5, 90, 20, 20), 100, 100)).toEqual(box(0, 80, 20, 20));
		expect(shiftInside(box(10, 10, 20, 20), 100, 100)).toEqual(box(10, 10, 20, 20));
		expect(shiftInside(box(-50, 0, 200, 50), 100, 100)).toEqual(box(0, 0, 100, 50));
	});
	it('clips to the image', () => {
		expect(clipBox(box(-5, 90, 20, 20), 100, 100)).toEqual(box(0, 90, 15, 10));
		expect(clipBox(box(200, 0, 20, 20), 100, 100).width).toBe(0);
	});
});

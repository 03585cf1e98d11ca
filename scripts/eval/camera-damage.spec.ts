import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/lib/documents/raster.ts';
import { hologramAt, lowLight, motionBlur, seededRandom } from './camera-damage.ts';

/** White paper, 60 × 60, with a black bar `bar` px wide down the middle (vertical: x) or across it. */
function bar(vertical: boolean, width = 4): Raster {
	const w = 60, h = 60, c = 3;
	const data = new Uint8Array(w * h * c).fill(240);
	for (let y = 0; y < h; y++)
		for (let x = 0; x < w; x++) if (vertical ? Math.abs(x - 30) < width / 2 : Math.abs(y - 30) < width / 2) data.fill(20, (y * w + x) * c, (y * w + x) * c + c);
	return { width: w, height: h, channels: c, data };
}

const at = (r: Raster, x: number, y: number) => r.data[(y * r.width + x) * r.channels];

describe('motionBlur', () => {
	it('smears strokes across the motion and keeps strokes along it', () => {
		const across = motionBlur(bar(true), 10, 0);
		// A 4-px bar smeared over 10 px: its middle no longer black, ink 5 px off it.
		expect(at(across, 30, 30)).toBeGreaterThan(100);
		expect(at(across, 35, 30)).toBeLessThan(220);
		const along = motionBlur(bar(false), 10, 0);
		// Moving along a horizontal bar leaves it as black and as sharp as it was.
		expect(at(along, 30, 30)).toBe(20);
		expect(at(along, 30, 33)).toBe(240);
	});

	it('smears in the direction given', () => {
		const down = motionBlur(bar(false), 10, 90);
		expect(at(down, 30, 30)).toBeGreaterThan(100);
		expect(at(down, 30, 35)).toBeLessThan(220);
		expect(at(motionBlur(bar(true), 10, 90), 30, 30)).toBe(20);
	});
});

describe('lowLight', () => {
	it('keeps paper and ink apart by about what the light and the gain leave, under grain', () => {
		const page = bar(true, 20);
		const dim = lowLight(page, 0.25, [1, 1, 1], 4, 3, seededRandom(1));
		const column = (x0: number, x1: number) => Array.from({ length: 60 * (x1 - x0) }, (_, k) => at(dim, x0 + (k % (x1 - x0)), Math.floor(k / (x1 - x0))));
		const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
		const paper = column(0, 15);
		// Paper 240 × 0.25 × 3 = 180, ink 20 × 0.25 × 3 = 15.
		expect(mean(paper)).toBeCloseTo(180, -1);
		expect(mean(column(25, 35))).toBeCloseTo(15, -1);
		// The grain is gained up with the page: σ 4 × 3 = 12.
		const sigma = Math.sqrt(mean(paper.map((v) => (v - 180) ** 2)));
		expect(sigma).toBeGreaterThan(9);
		expect(sigma).toBeLessThan(15);
	});

	it('tints by channel: tungsten light keeps red and loses blue', () => {
		const dim = lowLight(bar(true), 0.3, [1, 0.8, 0.5], 0, 2, seededRandom(2));
		const [r, g, b] = dim.data.subarray(0, 3);
		expect(r).toBe(Math.round(240 * 0.3 * 2));
		expect(g).toBe(Math.round(240 * 0.3 * 0.8 * 2));
		expect(b).toBe(Math.round(240 * 0.3 * 0.5 * 2));
	});
});

describe('hologramAt', () => {
	it('colours the ink under the patch, changes the colour along it, and stops at the film', () => {
		const page = bar(false, 60);
		const film = { x0: 0, y0: 0, x1: 40, y1: 60 };
		const holo = hologramAt(page, 20, 30, 30, 30, 6, 0, 0.6, film);
		const rgb = (x: number, y: number) => Array.from(holo.data.subarray((y * 60 + x) * 3, (y * 60 + x) * 3 + 3));
		// Black ink under the patch's middle is lifted towards a light colour, unevenly per channel.
		const mid = rgb(20, 30);
		expect(Math.max(...mid)).toBeGreaterThan(60);
		expect(Math.max(...mid) - Math.min(...mid)).toBeGreaterThan(10);
		// Another place along the patch shows another colour.
		const other = rgb(32, 30);
		expect(other.map((v, i) => Math.abs(v - mid[i])).some((d) => d > 10)).toBe(true);
		// Past the film's edge (the card's), nothing changes.
		expect(rgb(45, 30)).toEqual([20, 20, 20]);
	});
});

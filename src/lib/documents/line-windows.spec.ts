import { describe, expect, it } from 'vitest';
import { windowCuts } from './line-windows.ts';
import { createRaster, type Raster } from './raster.ts';

/** A white strip with dark glyph blocks `ink` px wide standing every `pitch` px from `start`. */
function glyphStrip(width: number, pitch: number, ink: number, start: number): { strip: Raster; glyphs: [number, number][] } {
	const strip = createRaster(width, 48, 3, 255);
	const glyphs: [number, number][] = [];
	for (let x0 = start; x0 + ink <= width; x0 += pitch) {
		glyphs.push([x0, x0 + ink]);
		for (let y = 10; y < 38; y++) strip.data.fill(30, (y * width + x0) * 3, (y * width + x0 + ink) * 3);
	}
	return { strip, glyphs };
}

describe('windowCuts: where a text line is cut into windows', () => {
	it('cuts in the paper between glyphs, near the equal divisions, on whole time steps', () => {
		// 44 glyphs in 1500 px (a TD3 line at the recogniser's height): glyph cells of ~34 px.
		const { strip, glyphs } = glyphStrip(1500, 34, 22, 6);
		const cuts = windowCuts(strip, 3, { reach: 1500 / 12, step: 8 });
		expect(cuts[0]).toBe(0);
		expect(cuts.at(-1)).toBe(1500);
		expect(cuts).toHaveLength(4);
		for (const cut of cuts.slice(1, -1)) {
			expect(cut % 8).toBe(0);
			// Not inside a glyph, nor touching one (the column and both neighbours are paper).
			expect(glyphs.some(([a, b]) => cut + 1 >= a && cut - 1 < b)).toBe(false);
		}
		expect(Math.abs(cuts[1] - 500)).toBeLessThanOrEqual(1500 / 12);
		expect(Math.abs(cuts[2] - 1000)).toBeLessThanOrEqual(1500 / 12);
	});

	it('gives the whole strip back as one window when asked for one', () => {
		const { strip } = glyphStrip(400, 30, 18, 4);
		expect(windowCuts(strip, 1, { reach: 50, step: 8 })).toEqual([0, 400]);
	});
});

import type { Raster } from './raster.ts';

/**
 * Where to cut a text-line strip into `count` windows read one at a time. The recogniser (PP-OCRv4,
 * whose SVTR blocks attend across the whole line) loses the glyphs of a line that is mostly one
 * repeated character: a TD3 name line `POSLBZEDI` followed by 35 fillers was read `SBE<<<…` however
 * it was cropped, while its first third alone read right. A cut must not split a glyph, so near each
 * equal division the column with the least ink (a gap between glyphs: MRZ glyphs stand in evenly
 * spaced cells with paper between them) is taken, within `reach` pixels, on multiples of `step`
 * (the recogniser's width per time step, so that the windows' steps laid end to end still map onto
 * the strip at one step per `step` pixels). Returns the cut columns, 0 and the width included.
 */
export function windowCuts(strip: Raster, count: number, { reach, step }: { reach: number; step: number }): number[] {
	const { width, height, channels: c, data } = strip;
	// Darkness per column (sum over rows of 255 − the channels' mean).
	const ink = new Float64Array(width);
	for (let y = 0; y < height; y++) {
		for (let x = 0, o = y * width * c; x < width; x++, o += c) {
			let v = 0;
			for (let k = 0; k < Math.min(c, 3); k++) v += data[o + k];
			ink[x] += 255 - v / Math.min(c, 3);
		}
	}
	const cuts = [0];
	for (let i = 1; i < count; i++) {
		const target = (width * i) / count;
		let best = -1;
		let bestInk = Infinity;
		for (let x = Math.ceil((target - reach) / step) * step; x <= target + reach; x += step) {
			if (x <= cuts[cuts.length - 1] + step || x >= width - step) continue;
			// The column and its neighbours: one clean column inside a glyph's counter is not a gap.
			const around = ink[x - 1] + ink[x] + ink[x + 1];
			if (around < bestInk) {
				bestInk = around;
				best = x;
			}
		}
		if (best > 0) cuts.push(best);
	}
	cuts.push(width);
	return cuts;
}

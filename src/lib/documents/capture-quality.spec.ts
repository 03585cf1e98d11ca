import { describe, expect, it } from 'vitest';
import { assessCapture } from './capture-quality.ts';
import { createRaster, type Raster } from './raster.ts';

function page(): Raster {
	const r = createRaster(400, 280, 3, 225);
	// Rows of small dark marks, like print.
	for (let y = 20; y < 260; y += 16) for (let yy = y; yy < y + 8; yy++) for (let x = 20; x < 380; x++) if (x % 9 < 5) r.data.fill(30, (yy * 400 + x) * 3, (yy * 400 + x) * 3 + 3);
	return r;
}

function boxBlur(src: Raster, radius: number): Raster {
	const out = createRaster(src.width, src.height, 3);
	for (let y = 0; y < src.height; y++)
		for (let x = 0; x < src.width; x++)
			for (let c = 0; c < 3; c++) {
				let s = 0, n = 0;
				for (let dy = -radius; dy <= radius; dy++)
					for (let dx = -radius; dx <= radius; dx++) {
						const yy = Math.min(src.height - 1, Math.max(0, y + dy)), xx = Math.min(src.width - 1, Math.max(0, x + dx));
						s += src.data[(yy * src.width + xx) * 3 + c];
						n++;
					}
				out.data[(y * src.width + x) * 3 + c] = Math.round(s / n);
			}
	return out;
}

describe('assessCapture', () => {
	it('scores a sharp page above a blurred copy and flags the blurred one', () => {
		const sharp = assessCapture(page());
		const soft = assessCapture(boxBlur(page(), 3));
		expect(sharp.sharpness).toBeGreaterThan(soft.sharpness * 5);
		expect(sharp.blurry).toBe(false);
		expect(soft.blurry).toBe(true);
	});

	it('flags a reflection blob but not thin white print', () => {
		const glare = page();
		for (let y = 60; y < 140; y++) for (let x = 100; x < 220; x++) glare.data.fill(255, (y * 400 + x) * 3, (y * 400 + x) * 3 + 3);
		expect(assessCapture(glare).glary).toBe(true);
		const lines = page();
		for (let y = 0; y < 280; y += 6) for (let yy = y; yy < y + 3 && yy < 280; yy++) for (let x = 0; x < 400; x++) lines.data.fill(255, (yy * 400 + x) * 3, (yy * 400 + x) * 3 + 3);
		expect(assessCapture(lines).glary).toBe(false);
	});
});

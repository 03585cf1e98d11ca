import { describe, expect, it } from 'vitest';
import { createRgba } from './image.ts';
import { boxToGrid, cropResize, DETECT_FORMAT, GRAY_FORMAT, LIVENESS_FORMAT, sampleAffine, type TensorFormat } from './sample.ts';

function gradient(width: number, height: number) {
	const image = createRgba(width, height);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = (y * width + x) * 4;
			image.data.set([x * 10, y * 10, 200, 255], i);
		}
	}
	return image;
}

describe('sampleAffine / cropResize', () => {
	it('reproduces pixels exactly at scale 1, planes in the requested order', () => {
		const image = gradient(8, 6);
		const rgb = cropResize(image, { x: 0, y: 0, width: 8, height: 6 }, 8, 6, { channels: 'rgb', mean: 0, scale: 1 }, new Float32Array(3 * 48));
		const bgr = cropResize(image, { x: 0, y: 0, width: 8, height: 6 }, 8, 6, LIVENESS_FORMAT, new Float32Array(3 * 48));
		const i = 3 * 8 + 5;
		expect([rgb[i], rgb[48 + i], rgb[96 + i]]).toEqual([50, 30, 200]);
		expect([bgr[i], bgr[48 + i], bgr[96 + i]]).toEqual([200, 30, 50]);
	});

	it('normalises as (v − mean) · scale and converts to grey with BT.601 weights', () => {
		const image = gradient(4, 4);
		const det = cropResize(image, { x: 0, y: 0, width: 4, height: 4 }, 4, 4, DETECT_FORMAT, new Float32Array(48));
		expect(det[32 + 5]).toBeCloseTo((200 - 127) / 128, 6);
		const grey = cropResize(image, { x: 0, y: 0, width: 4, height: 4 }, 4, 4, GRAY_FORMAT, new Float32Array(16));
		expect(grey[5]).toBeCloseTo(0.299 * 10 + 0.587 * 10 + 0.114 * 200, 4);
	});

	it('interpolates bilinearly between pixel centres', () => {
		const image = gradient(4, 1);
		const out = sampleAffine(image, [1, 0, 0.5, 0, 1, 0], 3, 1, { channels: 'rgb', mean: 0, scale: 1 }, new Float32Array(9));
		expect(Array.from(out.subarray(0, 3))).toEqual([5, 15, 25]);
	});

	it('is black outside the image', () => {
		const image = gradient(4, 4);
		const out = sampleAffine(image, [1, 0, 100, 0, 1, 100], 2, 2, { channels: 'rgb', mean: 0, scale: 1 }, new Float32Array(12));
		expect(Array.from(out)).toEqual(new Array(12).fill(0));
	});

	it('averages when shrinking, so a fine checkerboard becomes grey instead of aliasing', () => {
		const image = createRgba(64, 64);
		for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) {
			const v = (x + y) % 2 ? 255 : 0;
			image.data.set([v, v, v, 255], (y * 64 + x) * 4);
		}
		const out = cropResize(image, { x: 0, y: 0, width: 64, height: 64 }, 8, 8, GRAY_FORMAT, new Float32Array(64));
		for (const v of out) expect(Math.abs(v - 127.5)).toBeLessThan(20);
		// Without anti-aliasing (OpenCV INTER_LINEAR, what fr_liveness expects) it reads 2×2 pixels only.
		// 63 → 9 puts every sample on a pixel centre (3, 10, 17, …): each output is a single checker square.
		const aliased = cropResize(image, { x: 0, y: 0, width: 63, height: 63 }, 9, 9, { ...GRAY_FORMAT, antialias: false }, new Float32Array(81));
		expect(Math.max(...aliased.map((v) => Math.abs(v - 127.5)))).toBeGreaterThan(100);
		expect(LIVENESS_FORMAT.antialias).toBe(false);
	});

	it('shrinks a box in two passes (rows, then columns) to what the direct k×k average gives', () => {
		// A noisy image, so that any tap given the wrong weight or the wrong pixel shows.
		let seed = 7;
		const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) & 255;
		const image = createRgba(211, 157);
		for (let i = 0; i < image.data.length; i++) image.data[i] = i % 4 === 3 ? 255 : rand();
		const cases: [{ x: number; y: number; width: number; height: number }, number, number, TensorFormat][] = [
			[{ x: 0, y: 0, width: 211, height: 157 }, 48, 36, DETECT_FORMAT], // the whole frame, 4.4×
			[{ x: 30.5, y: 12.25, width: 120, height: 120 }, 28, 28, GRAY_FORMAT], // a face crop, 4.3×
			[{ x: -40, y: -25, width: 180, height: 200 }, 40, 25, { channels: 'bgr', mean: 127, scale: 1 / 128 }], // over the border, unequal scales
			[{ x: 150, y: 100, width: 100, height: 100 }, 12, 12, GRAY_FORMAT], // mostly outside
			[{ x: 0, y: 0, width: 211, height: 157 }, 5, 4, DETECT_FORMAT] // more than 8× (k capped at 8)
		];
		for (const [box, w, h, format] of cases) {
			const planes = format.channels === 'gray' ? 1 : 3;
			const fast = cropResize(image, box, w, h, format, new Float32Array(planes * w * h));
			const direct = sampleAffine(image, boxToGrid(box, w, h), w, h, format, new Float32Array(planes * w * h));
			let worst = 0;
			for (let i = 0; i < fast.length; i++) worst = Math.max(worst, Math.abs(fast[i] - direct[i]));
			expect(worst).toBeLessThan(1e-4 * (format.scale === 1 ? 1 : format.scale));
		}
	});

	it('refuses a buffer that does not match the size, or a too small output', () => {
		expect(() => cropResize({ data: new Uint8Array(10), width: 4, height: 4 }, { x: 0, y: 0, width: 4, height: 4 }, 2, 2, GRAY_FORMAT, new Float32Array(4))).toThrow();
		expect(() => cropResize(gradient(4, 4), { x: 0, y: 0, width: 4, height: 4 }, 4, 4, DETECT_FORMAT, new Float32Array(4))).toThrow();
	});
});

import { describe, expect, it } from 'vitest';
import { invertMatrix3, rotationAbout, type Matrix3 } from './homography.ts';
import { colouredInkShare, inkOnly, quarterTurn, resize, sampleBilinear, toGray, type Raster } from './raster.ts';
import { warpPerspective } from './warp.ts';

/** The definitions, a pixel at a time: the box average of the source pixels an output pixel covers, or the bilinear sample at its centre. */
function reference(src: Raster, width: number, height: number): Raster {
	const w = Math.max(1, Math.round(width));
	const h = Math.max(1, Math.round(height));
	const { channels: c, data } = src;
	const out = new Uint8Array(w * h * c);
	const sx = src.width / w;
	const sy = src.height / h;
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (sx >= 1 && sy >= 1) {
				const y0 = Math.floor(y * sy);
				const y1 = Math.max(y0 + 1, Math.min(src.height, Math.floor((y + 1) * sy)));
				const x0 = Math.floor(x * sx);
				const x1 = Math.max(x0 + 1, Math.min(src.width, Math.floor((x + 1) * sx)));
				for (let ch = 0; ch < c; ch++) {
					let sum = 0;
					for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) sum += data[(yy * src.width + xx) * c + ch];
					out[(y * w + x) * c + ch] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
				}
			} else {
				const fx = Math.min(src.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
				const fy = Math.min(src.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
				sampleBilinear(src, fx, fy, out, (y * w + x) * c);
			}
		}
	}
	return { width: w, height: h, channels: c, data: out };
}

function noise(width: number, height: number, channels: 1 | 3 | 4, seed: number): Raster {
	let s = seed;
	const data = new Uint8Array(width * height * channels);
	for (let i = 0; i < data.length; i++) {
		s = (s * 1103515245 + 12345) >>> 0;
		data[i] = s >>> 24;
	}
	return { width, height, channels, data };
}

describe('resize', () => {
	const cases: [number, number, 1 | 3 | 4, number, number][] = [
		[640, 480, 3, 320, 240],
		[641, 479, 3, 97.4, 53.6],
		[1426, 1056, 3, 736, 544],
		[333, 48, 1, 100, 48],
		[50, 20, 1, 163.7, 48],
		[37, 29, 4, 111, 87],
		[200, 10, 3, 120, 48],
		[10, 200, 1, 48, 30],
		[1, 1, 3, 5, 5],
		[7, 3, 1, 1, 1]
	];
	it.each(cases)('%i×%i×%i → %f×%f gives the definition\'s values exactly', (w, h, c, tw, th) => {
		const src = noise(w, h, c, w * 31 + h);
		const got = resize(src, tw, th);
		const want = reference(src, tw, th);
		expect([got.width, got.height, got.channels]).toEqual([want.width, want.height, want.channels]);
		expect(Buffer.from(got.data).equals(Buffer.from(want.data))).toBe(true);
	});

	it('averages a shrink and interpolates a growth', () => {
		const src: Raster = { width: 2, height: 1, channels: 1, data: Uint8Array.from([0, 200]) };
		expect([...resize(src, 1, 1).data]).toEqual([100]);
		expect([...resize(src, 4, 1).data]).toEqual([0, 50, 150, 200]);
	});
});

describe('warpPerspective', () => {
	/** The definition: each destination pixel is the bilinear sample of where it comes from, or the fill. */
	function reference(src: Raster, h: Matrix3, w: number, hh: number, fill: number[]): Uint8Array {
		const [a, b, cc, d, e, f, g, k, l] = invertMatrix3(h)!;
		const out = new Uint8Array(w * hh * src.channels);
		for (let y = 0; y < hh; y++) {
			for (let x = 0; x < w; x++) {
				const den = g * x + k * y + l;
				const o = (y * w + x) * src.channels;
				if (!sampleBilinear(src, (a * x + b * y + cc) / den, (d * x + e * y + f) / den, out, o)) for (let ch = 0; ch < src.channels; ch++) out[o + ch] = fill[ch] ?? 255;
			}
		}
		return out;
	}
	const rotated = rotationAbout(17, 60, 40);
	const perspective: Matrix3 = [0.9, 0.12, 8, -0.05, 1.1, -3, 0.0009, -0.0004, 1];
	it.each([
		['a rotation, 3 channels', rotated, 3 as const],
		['a perspective, 1 channel', perspective, 1 as const],
		['a perspective, 4 channels', perspective, 4 as const]
	])('%s: the definition\'s values exactly, fill outside', (_, h, c) => {
		const src = noise(120, 80, c, 7);
		const got = warpPerspective(src, h, 130, 90, [10, 20, 30, 40]);
		const want = reference(src, h, 130, 90, [10, 20, 30, 40]);
		expect(Buffer.from(got.data).equals(Buffer.from(want))).toBe(true);
		// Some of the output lies outside the source: the fill is exercised too.
		expect(got.data[0]).toBe(10);
	});
});

describe('inkOnly: coloured ink lifted to the paper by its own measure', () => {
	/** A strip of paper with black glyph columns, a band of one translucent ink across it (alpha over the pixels). */
	const strip = (ink: readonly [number, number, number], alpha: number): Raster => {
		const width = 200;
		const height = 20;
		const data = new Uint8Array(width * height * 3);
		for (let y = 0; y < height; y++)
			for (let x = 0; x < width; x++) {
				const glyph = x % 10 < 3;
				const base = glyph ? [15, 15, 15] : [240, 238, 232];
				const inked = x >= 100 && x < 160;
				for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.round(inked ? base[c] * (1 - alpha) + ink[c] * alpha : base[c]);
			}
		return { width, height, channels: 3, data };
	};
	const at = (r: Raster, x: number) => r.data[5 * r.width + x];

	it.each([
		['blue', [0x3a, 0x3f, 0x9f]],
		['purple', [0x7a, 0x2f, 0x8f]],
		['green', [0x2f, 0x6f, 0x4f]],
		['red', [0xc0, 0x39, 0x2b]]
	] as const)('a %s stamp on paper comes out within 8 of the paper; glyphs under it stay dark', (_, ink) => {
		const src = strip(ink, 0.55);
		const out = inkOnly(src);
		const paper = at(out, 5);
		expect(Math.abs(at(out, 105) - paper)).toBeLessThanOrEqual(8);
		// Its brightest channel alone stays far from the paper for a dark ink (green): the lift is fitted.
		if (ink[1] === 0x6f) expect(paper - Math.max(...src.data.subarray((5 * src.width + 105) * 3, (5 * src.width + 106) * 3))).toBeGreaterThan(60);
		expect(at(out, 101)).toBeLessThan(paper - 80);
		expect(at(out, 1)).toBeLessThan(30);
	});

	it('measures the share of coloured ink: the band of a stamp, none on a grey strip', () => {
		// The band is 60 of 200 columns, its glyph columns too: black under blue ink at 0.55 is blue enough.
		expect(colouredInkShare(strip([0x3a, 0x3f, 0x9f], 0.55))).toBeCloseTo(60 / 200, 3);
		expect(colouredInkShare(strip([128, 128, 128], 0.5))).toBe(0);
		expect(colouredInkShare(toGray(strip([0x3a, 0x3f, 0x9f], 0.55)))).toBe(0);
	});

	it('leaves a grey strip as its brightest channel (nothing coloured to fit)', () => {
		const src = strip([128, 128, 128], 0.5);
		const brightest = Array.from({ length: src.width * src.height }, (_, i) => Math.max(src.data[3 * i], src.data[3 * i + 1], src.data[3 * i + 2]));
		expect(Array.from(inkOnly(src).data)).toEqual(brightest);
	});

	it('keeps the black ink of a line with no colour at all as dark as it was', () => {
		const src: Raster = { width: 2, height: 1, channels: 3, data: Uint8Array.from([240, 238, 232, 20, 20, 22]) };
		expect(Array.from(inkOnly(src).data)).toEqual([240, 22]);
		expect(toGray(src).data[1]).toBeLessThanOrEqual(22);
	});
});

describe('quarterTurn', () => {
	// 3 wide, 2 high, grey: a b c / d e f.
	const src: Raster = { width: 3, height: 2, channels: 1, data: Uint8Array.from([1, 2, 3, 4, 5, 6]) };
	it('turns clockwise as the picture is seen: the left column becomes the top row, read upwards', () => {
		expect(quarterTurn(src, true)).toEqual({ width: 2, height: 3, channels: 1, data: Uint8Array.from([4, 1, 5, 2, 6, 3]) });
	});
	it('turns anticlockwise, and the two turns undo each other on every channel', () => {
		expect(quarterTurn(src, false)).toEqual({ width: 2, height: 3, channels: 1, data: Uint8Array.from([3, 6, 2, 5, 1, 4]) });
		const rgb: Raster = { width: 2, height: 2, channels: 3, data: Uint8Array.from({ length: 12 }, (_, i) => i) };
		expect(quarterTurn(quarterTurn(rgb, true), false)).toEqual(rgb);
	});
});

import { describe, expect, it } from 'vitest';
import { evenLight } from './even-light.ts';
import type { Raster } from './raster.ts';

const W = 480;
const H = 48;
const PAPER = 230;
const INK = 40;

/**
 * A strip of "glyphs" (`stroke`-px strokes `pitch` px apart, rows 10–37, or `top`–`bottom`) on paper;
 * `light(x, y)` scales it.
 */
function strip(light: (x: number, y: number) => number, paper: (x: number, y: number) => number = () => PAPER, { stroke = 4, pitch = 12, top = 10, bottom = 38 } = {}): Raster {
	const data = new Uint8Array(W * H * 3);
	for (let y = 0; y < H; y++)
		for (let x = 0; x < W; x++) {
			const ink = y >= top && y < bottom && x % pitch < stroke;
			const v = (ink ? INK : paper(x, y)) * light(x, y);
			data.fill(Math.round(v), (y * W + x) * 3, (y * W + x) * 3 + 3);
		}
	return { width: W, height: H, channels: 3, data };
}

const at = (r: Raster, x: number, y: number) => r.data[(y * r.width + x) * r.channels];

describe('evenLight', () => {
	it('lifts a shadowed part of the line to the lit paper, glyphs with it', () => {
		// A hard shadow, half the light, over the right part, its edge slanting across the strip.
		const shadowed = strip((x, y) => (x > 260 + y ? 0.5 : 1));
		const even = evenLight(shadowed);
		expect(even).not.toBe(shadowed);
		// In the shadow: paper and ink as in the light (both were halved).
		expect(at(shadowed, 405, 5)).toBe(115);
		expect(at(even, 405, 5)).toBeGreaterThanOrEqual(PAPER - 8);
		expect(at(even, 396, 20)).toBeLessThanOrEqual(INK + 10);
		// In the light: untouched.
		expect(at(even, 100, 5)).toBeGreaterThanOrEqual(PAPER - 4);
		expect(at(even, 96, 20)).toBe(INK);
	});

	it('leaves an evenly lit strip as it is, a pale guilloche on it included', () => {
		const plain = strip(() => 1);
		expect(evenLight(plain)).toBe(plain);
		const guilloche = strip(() => 1, (x, y) => PAPER - 12 + 12 * Math.sin(x / 9 + y / 5));
		expect(evenLight(guilloche)).toBe(guilloche);
	});

	it('leaves bold print that fills the strip as it is (no glyph taken for a shadow)', () => {
		// A blurred visa MRZ scaled up: strokes 22 px wide, 6 px apart, from row 3 to row 45.
		const bold = strip(() => 1, () => PAPER, { stroke: 22, pitch: 28, top: 3, bottom: 45 });
		expect(evenLight(bold)).toBe(bold);
	});

	it('lifts a shadow over bold print without fading its glyphs', () => {
		const bold = strip((x) => (x > 240 ? 0.5 : 1), () => PAPER, { stroke: 22, pitch: 28, top: 3, bottom: 45 });
		const even = evenLight(bold);
		// A stroke deep in the shadow (x 392–413) keeps its ink dark; the gap after it is paper again.
		expect(at(even, 400, 24)).toBeLessThanOrEqual(INK + 10);
		expect(at(even, 418, 24)).toBeGreaterThanOrEqual(PAPER - 8);
	});

	it('evens the colour of an RGBA strip and keeps its alpha', () => {
		const rgb = strip((x) => (x > 300 ? 0.45 : 1));
		const data = new Uint8Array(W * H * 4);
		for (let i = 0; i < W * H; i++) data.set([...rgb.data.subarray(3 * i, 3 * i + 3), 200], 4 * i);
		const even = evenLight({ width: W, height: H, channels: 4, data });
		expect(even.data[(5 * W + 405) * 4]).toBeGreaterThanOrEqual(PAPER - 8);
		expect(even.data.filter((_, i) => i % 4 === 3).every((a) => a === 200)).toBe(true);
	});

	it('keeps a grey strip grey', () => {
		const rgb = strip((x) => (x > 300 ? 0.45 : 1));
		const grey: Raster = { width: W, height: H, channels: 1, data: rgb.data.filter((_, i) => i % 3 === 0) };
		const even = evenLight(grey);
		expect(even.channels).toBe(1);
		expect(at(even, 405, 5)).toBeGreaterThanOrEqual(PAPER - 8);
	});
});

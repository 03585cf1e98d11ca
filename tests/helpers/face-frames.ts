// Test frames made from the fixture stills: a portrait "turned" about the vertical axis (the photo's
// plane rotated in front of a pinhole camera), zoomed or shifted a little so frames are not identical,
// and eyes "closed" by painting the lids. Enough to exercise the server's checks in tests; the real
// challenge measurement is tested on landmark sequences in src/lib/face/challenge.spec.ts.
import sharp from 'sharp';

export interface Raw {
	data: Uint8Array;
	width: number;
	height: number;
}

export async function decodeRaw(bytes: Uint8Array, width = 640, height = 480): Promise<Raw> {
	const { data, info } = await sharp(bytes).rotate().resize({ width, height, fit: 'cover', position: 'north' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	return { data: new Uint8Array(data), width: info.width, height: info.height };
}

export async function encodeJpeg(raw: Raw, quality = 90): Promise<Uint8Array> {
	return new Uint8Array(await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } }).jpeg({ quality }).toBuffer());
}

/**
 * The image's plane rotated by `degrees` about its vertical centre line, seen by a pinhole camera at
 * distance `focal` (pixels); then scaled by `zoom` and shifted by (dx, dy) pixels. Bilinear, grey outside.
 */
export function warp(src: Raw, { degrees = 0, zoom = 1, dx = 0, dy = 0, focal = 900 }: { degrees?: number; zoom?: number; dx?: number; dy?: number; focal?: number } = {}): Raw {
	const { width: w, height: h, data } = src;
	const out = new Uint8Array(w * h * 3).fill(128);
	const a = (degrees * Math.PI) / 180;
	const cos = Math.cos(a);
	const sin = Math.sin(a);
	const cx = w / 2;
	const cy = h / 2;
	for (let v = 0; v < h; v++) {
		for (let u = 0; u < w; u++) {
			// Output pixel → ray → point on the rotated plane → source pixel.
			const x = (u - cx - dx) / zoom;
			const y = (v - cy - dy) / zoom;
			// Plane through (0,0,focal) with normal (sin, 0, cos) (rotated about y). Ray (x, y, focal)·t.
			const t = focal / (x * sin + focal * cos);
			if (!(t > 0)) continue;
			const px = x * t;
			const pz = focal * t - focal;
			const sx = px * cos + pz * sin + cx;
			const sy = y * t + cy;
			const x0 = Math.floor(sx);
			const y0 = Math.floor(sy);
			if (x0 < 0 || y0 < 0 || x0 >= w - 1 || y0 >= h - 1) continue;
			const fx = sx - x0;
			const fy = sy - y0;
			const i = (v * w + u) * 3;
			const p = (y0 * w + x0) * 3;
			const q = p + w * 3;
			for (let c = 0; c < 3; c++) {
				out[i + c] = Math.round((1 - fx) * (1 - fy) * data[p + c] + fx * (1 - fy) * data[p + 3 + c] + (1 - fx) * fy * data[q + c] + fx * fy * data[q + 3 + c]);
			}
		}
	}
	return { data: out, width: w, height: h };
}

/** Adds mild sensor-like noise (a camera never repeats a frame exactly). */
export function noise(src: Raw, seed = 1, amplitude = 6): Raw {
	let s = seed >>> 0 || 1;
	const out = new Uint8Array(src.data.length);
	for (let i = 0; i < out.length; i++) {
		s ^= s << 13;
		s ^= s >>> 17;
		s ^= s << 5;
		out[i] = Math.max(0, Math.min(255, src.data[i] + ((s >>> 0) % (2 * amplitude + 1)) - amplitude));
	}
	return { ...src, data: out };
}

const FIXTURES = new URL('../fixtures/faces/', import.meta.url);

/** A fixture photo letterboxed into a 640×480 frame (as a camera would frame it), optionally mirrored. */
export async function fixtureFrame(name: string, { flip = false, width = 640, height = 480 }: { flip?: boolean; width?: number; height?: number } = {}): Promise<Raw> {
	const { readFileSync } = await import('node:fs');
	let s = sharp(readFileSync(new URL(name, FIXTURES))).rotate().resize({ width, height, fit: 'contain', background: '#6f7378' });
	if (flip) s = s.flop();
	const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
	return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** Shifts by whole pixels (no resampling: passive liveness reads texture, and resampling blurs it). */
export function shift(src: Raw, dx: number, dy = 0): Raw {
	const { width: w, height: h } = src;
	const out = new Uint8Array(w * h * 3).fill(111);
	for (let y = 0; y < h; y++) {
		const sy = y - dy;
		if (sy < 0 || sy >= h) continue;
		for (let x = 0; x < w; x++) {
			const sx = x - dx;
			if (sx < 0 || sx >= w) continue;
			const i = (y * w + x) * 3;
			const p = (sy * w + sx) * 3;
			out[i] = src.data[p];
			out[i + 1] = src.data[p + 1];
			out[i + 2] = src.data[p + 2];
		}
	}
	return { data: out, width: w, height: h };
}

export interface TestFrame {
	image: string;
	t: number;
}

/**
 * `count` frames of one still, each moved a few pixels (a hand-held camera), 150 ms apart, as the page
 * uploads them. `variant` moves them a few pixels more: other pictures of the same scene (the server
 * recognises the very same pictures posted into another session as a replay).
 */
export async function stillFrames(name: string, count = 4, options: { flip?: boolean; start?: number; variant?: number } = {}): Promise<TestFrame[]> {
	const base = await fixtureFrame(name, options);
	const v = options.variant ?? 0;
	const frames: TestFrame[] = [];
	for (let i = 0; i < count; i++) frames.push({ image: Buffer.from(await encodeJpeg(shift(base, 2 * i + v, (i + v) % 2))).toString('base64'), t: (options.start ?? 0) + 150 * i });
	return frames;
}

/**
 * A "head turn" from stills: a three-quarter portrait mirrored, then as taken. barack_obama_2 reads
 * yaw −16° (turned to his right); mirrored, +18°. So mirrored → original is a turn to the user's right
 * of about 33°, and original → mirrored a turn to the left. (A flat photo turned in front of the camera
 * does not change the landmark yaw: that is what the challenge relies on.)
 */
export async function turnFrames(direction: 'turnLeft' | 'turnRight', name = 'barack_obama_2.jpg', variant = 0): Promise<TestFrame[]> {
	const first = await stillFrames(name, 3, { flip: direction === 'turnRight', variant });
	const second = await stillFrames(name, 3, { flip: direction === 'turnLeft', start: 450, variant });
	return [...first, ...second];
}

/** A fixture file as base64 (a reference image for providedData). */
export async function fixtureBase64(name: string): Promise<string> {
	const { readFileSync } = await import('node:fs');
	return readFileSync(new URL(name, FIXTURES)).toString('base64');
}

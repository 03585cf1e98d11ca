// Frames lit by a simulated screen, for the light challenge's tests. Reflectance model, in linear
// light: a pixel is albedo × (ambient + k·screen), with k large on the face (the screen is ~30 cm
// away) and small on the background (the wall is far); the camera adds exposure drift and noise.
import { hexToRgb, lightDuration, lightStepAt, lightStepStarts, LIGHT_FADE_MS, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import type { Box } from '#lib/face/image.ts';
import type { Raw } from './face-frames.ts';

export const toLinear = (v: number) => {
	const c = v / 255;
	return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const toSrgb = (l: number) => 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055);

/** A seeded random source in [0, 1) (tests must not depend on luck). */
export function seeded(seed: number): () => number {
	let s = seed >>> 0 || 1;
	return () => {
		s ^= s << 13;
		s ^= s >>> 17;
		s ^= s << 5;
		return (s >>> 0) / 4294967296;
	};
}

/**
 * The screen's colour (linear light) that a camera `lagMs` late sees at `t` ms after the sequence
 * started, the page's 100 ms fade included; before and after the sequence, the page's light grey.
 */
export function screenAt(sequence: LightSequence, t: number, lagMs = 0): number[] {
	const lit = (k: number) => (k < 0 || k >= sequence.steps.length ? [0.85, 0.85, 0.85] : hexToRgb(sequence.steps[k].colour).map(toLinear));
	const seen = t - lagMs;
	const k = lightStepAt(sequence, seen);
	const into = seen - (k >= 0 && k < sequence.steps.length ? lightStepStarts(sequence)[k] : k < 0 ? -Infinity : lightDuration(sequence));
	const now = lit(k);
	if (into >= LIGHT_FADE_MS) return now;
	const before = lit(k - 1);
	const a = Math.max(0, into) / LIGHT_FADE_MS;
	return now.map((v, c) => a * v + (1 - a) * before[c]);
}

/** `base` lit by `screen`: k inside a soft ellipse around the face box, kBackground elsewhere. */
export function lightUp(
	base: Raw,
	box: Box,
	screen: number[],
	{ k = 0.3, kBackground = 0.02, exposure = 1, seed = 1, noise = 8, faceTint = [1, 1, 1] }: { k?: number; kBackground?: number; exposure?: number; seed?: number; noise?: number; faceTint?: number[] } = {}
): Raw {
	const { width, height, data } = base;
	const out = new Uint8Array(width * height * 3);
	const cx = box.x + box.width / 2;
	const cy = box.y + box.height / 2;
	const rand = seeded(seed);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const d = Math.hypot((x - cx) / (0.75 * box.width), (y - cy) / (0.85 * box.height));
			// Soft edge: the screen's light falls off over the head's outline, not at a hard line.
			const w = d <= 0.8 ? 1 : d >= 1.2 ? 0 : (1.2 - d) / 0.4;
			const kk = kBackground + w * (k - kBackground);
			const i = 3 * (y * width + x);
			for (let c = 0; c < 3; c++) {
				// faceTint: the face region's own colour changing (a turned head shows more cheek or hair).
				const own = 1 + w * (faceTint[c] - 1);
				const lin = (toLinear(data[i + c]) * own * exposure * (1 + kk * screen[c])) / (1 + kk * 0.5);
				out[i + c] = Math.max(0, Math.min(255, Math.round(toSrgb(lin) + (rand() - 0.5) * noise)));
			}
		}
	}
	return { data: out, width, height };
}

/**
 * The times the page uploads for a sequence started at `startedAt`: one ~280 ms after each change (a
 * late response shows there) and one near each step's end.
 */
export function pageTimes(sequence: LightSequence, startedAt: number): number[] {
	const times: number[] = [];
	for (const [i, start] of lightStepStarts(sequence).entries()) {
		times.push(start + 280);
		times.push(start + sequence.steps[i].ms - 40);
	}
	return times.filter((t, i, all) => i === 0 || t - all[i - 1] >= 30).map((t) => startedAt + t);
}

import { resize, toGray, type Raster } from './raster.ts';

/**
 * Below this Laplacian variance a document photo is soft ("hold still"). On the synthetic fixtures
 * the renders score 1,900–12,500 and the evaluation's box blur 170–1,300 (still readable).
 */
export const SHARPNESS_MIN = 500;
/**
 * Above this share of blown-out blob pixels a reflection likely hides part of the document
 * ("tilt away from the light"). Fixtures: clean 0–0.15 %, the evaluation's glare blob 0.6–2.9 %.
 */
export const GLARE_MAX = 0.003;

const WORK_SIDE = 640;

export interface CaptureQuality {
	/** Variance of the Laplacian on a 640-pixel copy: higher is sharper. */
	sharpness: number;
	/** Share of pixels that are blown out (near white, colourless). */
	glare: number;
	blurry: boolean;
	glary: boolean;
}

/**
 * Blur and glare measures of a (rectified) document image, for capture guidance ("hold still",
 * "tilt away from the light") and for the server's record of what it read.
 */
export function assessCapture(src: Raster): CaptureQuality {
	const scale = Math.min(1, WORK_SIDE / Math.max(src.width, src.height));
	const small = scale < 1 ? resize(src, src.width * scale, src.height * scale) : src;
	const g = toGray(small);
	const { width: w, height: h, data } = g;
	let sum = 0, sum2 = 0, n = 0;
	for (let y = 1; y < h - 1; y++)
		for (let x = 1; x < w - 1; x++) {
			const i = y * w + x;
			const lap = data[i - 1] + data[i + 1] + data[i - w] + data[i + w] - 4 * data[i];
			sum += lap;
			sum2 += lap * lap;
			n++;
		}
	const mean = n ? sum / n : 0;
	const sharpness = n ? sum2 / n - mean * mean : 0;
	const c = small.channels;
	const white = new Uint8Array(w * h);
	for (let i = 0; i < w * h; i++) {
		const k = i * c;
		const r = small.data[k], gg = c === 1 ? r : small.data[k + 1], b = c === 1 ? r : small.data[k + 2];
		white[i] = Math.min(r, gg, b) >= 248 ? 1 : 0;
	}
	// Only the inside of large blown-out patches counts: printed white (a barcode's modules and
	// quiet zone, white lettering) is thin, a reflection is a blob.
	const R = 4;
	const rows = new Uint16Array(w * h);
	for (let y = 0; y < h; y++) {
		let run = 0;
		for (let x = 0; x < w; x++) {
			run = white[y * w + x] ? run + 1 : 0;
			rows[y * w + x] = run;
		}
	}
	let blown = 0;
	for (let y = R; y < h - R; y++)
		for (let x = 2 * R; x < w; x++) {
			let ok = true;
			for (let dy = -R; dy <= R && ok; dy++) if (rows[(y + dy) * w + x] < 2 * R + 1) ok = false;
			if (ok) blown++;
		}
	const glare = blown / (w * h);
	return { sharpness, glare, blurry: sharpness < SHARPNESS_MIN, glary: glare > GLARE_MAX };
}

// Whether what a face detector found has the colour of skin. fr_detect fires on round, face-sized
// shapes: Chromium's fake camera shows a saturated green disc that it scored 0.80–0.91 in 3 of 80
// frames at 1280×720, and a capture passed on it. Skin of every tone, under any ordinary light, has
// about as much red as green or more (ln R/G 0.02–0.55 over 29 faces × 4 renderings: as taken, dark,
// blurred, small JPEG) and less blue than green (ln B/G −0.27…+0.02); the disc is ln R/G −1.27,
// ln B/G −2.46. The bounds leave a wide margin for colour casts, the light challenge's screen colours
// (which move skin by ≲ 0.15) and grey cameras (0, 0), so only colours no face has are refused.
import type { Box, RgbaImage } from './image.ts';

/** Lowest ln(R/G) of skin: far below any face measured (0.02), above a green object (−1.27). */
export const SKIN_MIN_LOG_RG = -0.4;
/** Highest ln(B/G) of skin: far above any face measured (+0.02); a blue or violet object is above it. */
export const SKIN_MAX_LOG_BG = 0.5;

export interface SkinTone {
	/** ln(R/G) and ln(B/G) of the mean sRGB colour of the face's middle (cheeks, nose, mouth). */
	logRg: number;
	logBg: number;
}

/** Mean chromaticity of the middle of the face box (a 16×16 sample: cheeks, nose, mouth). */
export function skinTone(image: RgbaImage, box: Box): SkinTone | null {
	let r = 0;
	let g = 0;
	let b = 0;
	let n = 0;
	for (let j = 0; j < 16; j++) {
		for (let i = 0; i < 16; i++) {
			const x = Math.round(box.x + box.width * (0.25 + (0.5 * (i + 0.5)) / 16));
			const y = Math.round(box.y + box.height * (0.35 + (0.5 * (j + 0.5)) / 16));
			if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
			const k = 4 * (y * image.width + x);
			r += image.data[k];
			g += image.data[k + 1];
			b += image.data[k + 2];
			n++;
		}
	}
	if (n < 16) return null;
	return { logRg: Math.log((r + n) / (g + n)), logBg: Math.log((b + n) / (g + n)) };
}

/** False when the box's middle has a colour no skin has (a green or blue object the detector took for a face). */
export function looksLikeSkin(image: RgbaImage, box: Box): boolean {
	const tone = skinTone(image, box);
	// A box mostly outside the picture is judged by the detector alone.
	if (!tone) return true;
	return tone.logRg >= SKIN_MIN_LOG_RG && tone.logBg <= SKIN_MAX_LOG_BG;
}

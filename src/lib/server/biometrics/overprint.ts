// Text printed across a reference face: a stock photo's watermark (`alamy`, `Getty Images`,
// `PREVIEW`), a `COPY` or `SPECIMEN` overprint on a scanned document photo. The embedding reads the
// letters as part of the face: on 61 photos never seen here a pale `SAMPLE` across the face made 29
// of 280 genuine pairs miss (10.4 %), while no stranger matched. Found by the document reader's own
// text detector and recogniser, run on the face's surroundings.
import type { Quad, Raster } from '#lib/documents/raster.ts';
import type { TextBox } from '#lib/documents/text-detection.ts';
import type { Box, RgbaImage } from '#lib/face/image.ts';

/** What finds and reads text: the document reader's OCR engine (ocr-engine.ts) has this shape. */
export interface TextEngine {
	detect(image: Raster): Promise<TextBox[]>;
	recognize(image: Raster, quad: Quad, options?: { evenLight?: boolean }): Promise<{ text: string; confidence: number }>;
}

/** The region looked at: the face box grown by this share of its width on every side (a word runs past the face). */
const MARGIN = 0.15;
/**
 * A word across the face spans at least this share of the face's width. The detector also boxes a
 * face's eyes, brows and mouth as text, and now and then the whole face; what tells them from a word
 * is mostly what the recogniser makes of them, but a smiling mouth's teeth can read as letters: on
 * a fixture portrait stored upside down (Eileen Collins, a face 90 px wide) the mouth, a box 0.32 of
 * the face wide, read `aar` at 0.54. Words across a face spanned 0.42 of its width and more.
 */
const MIN_SPAN = 0.4;
/**
 * Read as a word: at least MIN_LETTERS letters (of any script; digits do not count) at this mean
 * confidence. Measured before it was set, on 124 bare faces (deepface's test set, face_recognition's
 * and openface's examples, the fixtures; 2026-12-01): what the recogniser read of their eyes and
 * mouths was one or two signs, or digits (`186886` at 0.59, `1006` at 0.65: an eye's O, a mouth's 8),
 * or three letters or more at 0.54 at most (the mouth above). Of 122 words drawn across the same
 * faces (7 words, 3 fonts, white or black, 0.3–0.65 opaque, turned up to 30°), 93 were read so at
 * 0.7 or more on a box at least MIN_SPAN wide; the others were boxed with the face or the brows as
 * one, or read as one or two letters.
 */
const MIN_CONFIDENCE = 0.7;
const MIN_LETTERS = 3;

/**
 * The text printed across `face` (a box in `image`), as read, or null when there is none. Only boxes
 * whose middle lies on the face count: a caption below the chin or a date in the photo's corner
 * does not change the face.
 */
export async function textAcrossFace(engine: TextEngine, image: RgbaImage, face: Box): Promise<string | null> {
	const pad = MARGIN * face.width;
	const x = Math.max(0, Math.floor(face.x - pad));
	const y = Math.max(0, Math.floor(face.y - pad));
	const width = Math.min(image.width, Math.ceil(face.x + face.width + pad)) - x;
	const height = Math.min(image.height, Math.ceil(face.y + face.height + pad)) - y;
	if (width < 8 || height < 8) return null;
	const region = rgbCrop(image, x, y, width, height);
	const onFace = (b: TextBox) => {
		const cx = b.rect.cx + x, cy = b.rect.cy + y;
		return cx >= face.x && cx <= face.x + face.width && cy >= face.y && cy <= face.y + face.height;
	};
	const candidates = (await engine.detect(region)).filter((b) => onFace(b) && Math.max(b.rect.width, b.rect.height) >= MIN_SPAN * face.width);
	for (const b of candidates) {
		const { text, confidence } = await engine.recognize(region, b.quad, { evenLight: false });
		if ((text.match(/\p{L}/gu)?.length ?? 0) >= MIN_LETTERS && confidence >= MIN_CONFIDENCE) return text;
	}
	return null;
}

/** The part of an RGBA image at (x, y), as the RGB raster the OCR engine reads. */
function rgbCrop(image: RgbaImage, x: number, y: number, width: number, height: number): Raster {
	const data = new Uint8Array(width * height * 3);
	for (let row = 0; row < height; row++) {
		let from = ((y + row) * image.width + x) * 4;
		let to = row * width * 3;
		for (let col = 0; col < width; col++, from += 4, to += 3) {
			data[to] = image.data[from];
			data[to + 1] = image.data[from + 1];
			data[to + 2] = image.data[from + 2];
		}
	}
	return { width, height, channels: 3, data };
}

// Uploaded evidence (JPEG, PNG, WebP) → RGBA pixels for the face pipeline.
import sharp from 'sharp';
import type { RgbaImage } from '#lib/face/image.ts';

export interface DecodedImage extends RgbaImage {
	readonly data: Uint8Array;
}

/** Evidence larger than this on its longer side is scaled down first: detection runs at 320×240 anyway. */
export const MAX_DECODE_SIDE = 2048;

/**
 * Decodes an image to RGBA, turned upright by its EXIF orientation (phones store pixels sideways).
 * Throws on anything sharp cannot decode; the caller turns that into a 4xx.
 */
export async function decodeImage(bytes: Uint8Array, maxSide = MAX_DECODE_SIDE, maxInputPixels = 64_000_000): Promise<DecodedImage> {
	// sharp checks the pixel limit from the header, before decoding.
	const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: maxInputPixels })
		.rotate()
		.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
		.ensureAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
	if (info.channels !== 4) throw new Error(`expected 4 channels, got ${info.channels}`);
	return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

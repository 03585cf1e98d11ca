import sharp from 'sharp';
import type { Raster } from '#lib/documents/raster.ts';

/** Largest side kept after decoding: enough for MRZ glyphs, bounded for CPU time. */
export const MAX_DECODE_SIDE = 2000;

/** Decodes any image sharp reads (JPEG, PNG, WebP, HEIF…) to RGB, EXIF orientation applied. */
export async function decodeImage(input: Buffer | Uint8Array, maxSide = MAX_DECODE_SIDE): Promise<Raster> {
	const { data, info } = await sharp(input)
		.rotate()
		.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
		.removeAlpha()
		.toColourspace('srgb')
		.raw()
		.toBuffer({ resolveWithObject: true });
	return { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

export async function encodeJpeg(raster: Raster, quality = 90): Promise<Buffer> {
	return sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), {
		raw: { width: raster.width, height: raster.height, channels: raster.channels }
	})
		.jpeg({ quality })
		.toBuffer();
}

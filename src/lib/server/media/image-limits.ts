import sharp from 'sharp';

/**
 * Face evidence is camera frames: a 4K UHD frame (3840×2160) is the most any camera the page opens
 * delivers, and detection runs at 320×240 anyway. Anything larger is refused from its header, before
 * a single pixel is decoded: a small PNG can declare 64 megapixels and cost seconds to inflate.
 */
export const MAX_FRAME_PIXELS = 3840 * 2160;
export const MAX_FRAME_SIDE = 4096;

/** The image's size from its header alone, or null when the header cannot be read. */
export async function imageHeaderSize(bytes: Uint8Array): Promise<{ width: number; height: number } | null> {
	try {
		const { width, height } = await sharp(bytes).metadata();
		return width && height ? { width, height } : null;
	} catch {
		return null;
	}
}

/** Why a frame is too large to decode, or null when it is within the limits. */
export function frameSizeProblem(size: { width: number; height: number }): string | null {
	if (Math.max(size.width, size.height) > MAX_FRAME_SIDE || size.width * size.height > MAX_FRAME_PIXELS) {
		return `is ${size.width}×${size.height}: a camera frame may have at most ${MAX_FRAME_SIDE} pixels a side and ${(MAX_FRAME_PIXELS / 1e6).toFixed(1)} megapixels`;
	}
	return null;
}

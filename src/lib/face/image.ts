/** An RGBA pixel view (ImageData and decoded server images both fit): 4 bytes a pixel, row-major. */
export interface RgbaImage {
	readonly data: Uint8ClampedArray | Uint8Array;
	readonly width: number;
	readonly height: number;
}

export interface Point {
	x: number;
	y: number;
}

/** Axis-aligned box in pixels: top-left corner and size. */
export interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** A 2×3 affine matrix [a, b, c, d, e, f]: x' = a·x + b·y + c, y' = d·x + e·y + f. */
export type Affine = [number, number, number, number, number, number];

/** Checks that the pixel buffer matches the stated size, so that sampling cannot read out of bounds. */
export function assertRgba(image: RgbaImage): void {
	if (image.width <= 0 || image.height <= 0 || image.data.length < image.width * image.height * 4) {
		throw new RangeError(`not an RGBA image of ${image.width}×${image.height}`);
	}
}

/** Makes a blank RGBA image (tests and synthetic inputs). */
export function createRgba(width: number, height: number): { data: Uint8ClampedArray; width: number; height: number } {
	return { data: new Uint8ClampedArray(width * height * 4), width, height };
}

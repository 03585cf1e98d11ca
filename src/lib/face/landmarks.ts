// fr_landmark: 68 points in the iBUG 300-W order (0-based: jaw 0–16, brows 17–26, nose 27–35,
// eyes 36–41 and 42–47, mouth 48–67). Points 36–41 are the eye on the image's left.
import type { Box, Point } from './image.ts';

/** 68 landmarks as x0, y0, x1, y1, … in image pixels. */
export type Landmarks68 = Float32Array;
/** Left eye, right eye, nose tip, left and right mouth corners (image left/right), as ArcFace expects. */
export type Landmarks5 = [Point, Point, Point, Point, Point];

/** Maps fr_landmark's output (136 values, 0–1 of the crop) to image pixels of `crop`. */
export function decodeLandmarks(output: ArrayLike<number>, crop: Box, out: Landmarks68 = new Float32Array(136)): Landmarks68 {
	if (output.length < 136) throw new RangeError('fr_landmark output must hold 136 values');
	for (let i = 0; i < 68; i++) {
		out[2 * i] = crop.x + output[2 * i] * crop.width;
		out[2 * i + 1] = crop.y + output[2 * i + 1] * crop.height;
	}
	return out;
}

/** Point `i` (0-based) of 68 landmarks. */
export function point(l: Landmarks68, i: number): Point {
	return { x: l[2 * i], y: l[2 * i + 1] };
}

/** Mean of the given landmark indices. */
export function meanPoint(l: Landmarks68, indices: readonly number[]): Point {
	let x = 0;
	let y = 0;
	for (const i of indices) {
		x += l[2 * i];
		y += l[2 * i + 1];
	}
	return { x: x / indices.length, y: y / indices.length };
}

/**
 * The five alignment points from 68 landmarks, as measured best for fr_feature: eye centres from the
 * lids (37, 38, 40, 41 and 43, 44, 46, 47; corners left out because they drift with gaze), nose tip 30,
 * and mouth corners as the mean of the outer and inner corner (48/60, 54/64).
 */
export function fivePoints(l: Landmarks68): Landmarks5 {
	return [
		meanPoint(l, [37, 38, 40, 41]),
		meanPoint(l, [43, 44, 46, 47]),
		point(l, 30),
		meanPoint(l, [48, 60]),
		meanPoint(l, [54, 64])
	];
}

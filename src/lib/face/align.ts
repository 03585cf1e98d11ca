// Face alignment for fr_feature: a least-squares similarity transform of 5 points onto the standard
// ArcFace 112×112 template, then a bilinear warp. The package's own 3-point affine is clearly worse.
import { FEATURE_SIZE } from './face-thresholds.ts';
import type { Affine, Point, RgbaImage } from './image.ts';
import type { Landmarks5 } from './landmarks.ts';
import { FEATURE_FORMAT, sampleAffine, type TensorFormat } from './sample.ts';

/** Where ArcFace-family models expect left eye, right eye, nose tip and mouth corners in a 112×112 crop. */
export const ARCFACE_REFERENCE: Landmarks5 = [
	{ x: 38.2946, y: 51.6963 },
	{ x: 73.5318, y: 51.5014 },
	{ x: 56.0252, y: 71.7366 },
	{ x: 41.5493, y: 92.3655 },
	{ x: 70.7299, y: 92.2041 }
];

/**
 * The similarity (scale, rotation, translation; no reflection) that maps `src` onto `dst` with least
 * squared error. In 2D, Umeyama's SVD solution reduces to this closed form: with centred points and
 * M = [[a, −b], [b, a]], a = Σ(s·d) / Σ|s|², b = Σ(s×d) / Σ|s|².
 */
export function similarityTransform(src: readonly Point[], dst: readonly Point[]): Affine {
	const n = src.length;
	if (n < 2 || dst.length !== n) throw new RangeError('need at least two point pairs');
	let msx = 0, msy = 0, mdx = 0, mdy = 0;
	for (let i = 0; i < n; i++) {
		msx += src[i].x; msy += src[i].y; mdx += dst[i].x; mdy += dst[i].y;
	}
	msx /= n; msy /= n; mdx /= n; mdy /= n;
	let dot = 0, cross = 0, norm = 0;
	for (let i = 0; i < n; i++) {
		const sx = src[i].x - msx, sy = src[i].y - msy;
		const dx = dst[i].x - mdx, dy = dst[i].y - mdy;
		dot += sx * dx + sy * dy;
		cross += sx * dy - sy * dx;
		norm += sx * sx + sy * sy;
	}
	if (norm === 0) throw new RangeError('source points coincide');
	const a = dot / norm;
	const b = cross / norm;
	return [a, -b, mdx - (a * msx - b * msy), b, a, mdy - (b * msx + a * msy)];
}

/** Inverse of an affine map. */
export function invertAffine([a, b, c, d, e, f]: Affine): Affine {
	const det = a * e - b * d;
	if (det === 0) throw new RangeError('singular affine map');
	return [e / det, -b / det, (b * f - c * e) / det, -d / det, a / det, (c * d - a * f) / det];
}

/** Applies an affine map to a point. */
export function applyAffine([a, b, c, d, e, f]: Affine, p: Point): Point {
	return { x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f };
}

/**
 * Warps the face with landmarks `five` onto the 112×112 template into `out` (CHW). Default format is
 * fr_feature's: BGR, (v − 127) / 128.
 */
export function alignFace(
	image: RgbaImage,
	five: Landmarks5,
	out: Float32Array = new Float32Array(3 * FEATURE_SIZE * FEATURE_SIZE),
	format: TensorFormat = FEATURE_FORMAT,
	size = FEATURE_SIZE
): Float32Array {
	const scale = size / FEATURE_SIZE;
	const reference = ARCFACE_REFERENCE.map((p) => ({ x: p.x * scale, y: p.y * scale }));
	const toTemplate = similarityTransform(five, reference);
	return sampleAffine(image, invertAffine(toTemplate), size, size, format, out);
}

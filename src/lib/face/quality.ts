// Per-frame quality measurements of a face. All cheap enough to run on every frame on a 128×128 crop.
import { shiftInside, squareBox } from './box.ts';
import { FACE_SIZE_REFERENCE_WIDTH, QUALITY_CROP_SIZE } from './face-thresholds.ts';
import type { Box, Point, RgbaImage } from './image.ts';
import { meanPoint, point, type Landmarks68 } from './landmarks.ts';
import { cropResize, GRAY_FORMAT } from './sample.ts';

export interface HeadPose {
	/** Degrees; positive when the face turns towards the image's right. */
	yaw: number;
	/** Degrees; positive when the face tilts down (chin towards the chest). */
	pitch: number;
	/** Degrees; positive when the eye line rises towards the image's left (clockwise in image coordinates). */
	roll: number;
}

export interface FaceQualityMetrics extends HeadPose {
	/** Face-box width in pixels of the frame scaled to FACE_SIZE_REFERENCE_WIDTH (compare with minFaceSize/maxFaceSize). */
	faceSize: number;
	/** Distance of the face centre from the frame centre, the larger of |dx|/width and |dy|/height (0 = centred). */
	centreOffset: number;
	/** Variance of the Laplacian of the grey face crop (compare with blurThreshold): low = blurred. */
	sharpness: number;
	/** Mean grey level, 0–255, of the face crop. */
	luminance: number;
	/** Mean eye aspect ratio of both eyes (≈0.25–0.35 open, below 0.2 closed). */
	eyeAspectRatio: number;
}

export interface FrameQuality {
	faceCount: number;
	/** Metrics of the largest face, or null when there is none. */
	face: FaceQualityMetrics | null;
}

/**
 * Variance of the 4-neighbour Laplacian over the interior of a grey image (as OpenCV's
 * `Laplacian(gray, CV_64F).var()`). Blur removes high frequencies, so the variance drops.
 */
export function laplacianVariance(gray: ArrayLike<number>, width: number, height: number): number {
	let sum = 0;
	let sumSq = 0;
	let n = 0;
	for (let y = 1; y < height - 1; y++) {
		for (let x = 1; x < width - 1; x++) {
			const i = y * width + x;
			const l = gray[i - 1] + gray[i + 1] + gray[i - width] + gray[i + width] - 4 * gray[i];
			sum += l;
			sumSq += l * l;
			n++;
		}
	}
	if (n === 0) return 0;
	const mean = sum / n;
	return sumSq / n - mean * mean;
}

/** The four directions (→, ↓, ↘, ↗) along which `sharpnessBalance` measures detail. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
	[1, 0],
	[0, 1],
	[1, 1],
	[1, -1]
];

/**
 * Mean square of the second difference along each of four directions over the interior of a grey
 * image, the weakest over the strongest. A face has detail every way (sharp faces: 0.20–0.54 on 72
 * photos); a blur along one direction removes that direction's and leaves the others' (a 15-px
 * horizontal motion blur: 0.04–0.42, 0.04–0.10 on the faces it made miss their owner).
 */
export function sharpnessBalance(gray: ArrayLike<number>, width: number, height: number): number {
	const energy = DIRECTIONS.map(([dx, dy]) => {
		const offset = dy * width + dx;
		let sumSq = 0;
		let n = 0;
		for (let y = 1; y < height - 1; y++)
			for (let x = 1; x < width - 1; x++) {
				const i = y * width + x;
				const d = gray[i - offset] + gray[i + offset] - 2 * gray[i];
				sumSq += d * d;
				n++;
			}
		return n ? sumSq / n : 0;
	});
	const strongest = Math.max(...energy);
	return strongest > 0 ? Math.min(...energy) / strongest : 0;
}

/** Arithmetic mean of the first `length` values. */
export function mean(values: ArrayLike<number>, length = values.length): number {
	let sum = 0;
	for (let i = 0; i < length; i++) sum += values[i];
	return length > 0 ? sum / length : 0;
}

const dist = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y);

/**
 * Eye aspect ratio (Soukupová & Čech 2016) of the eye with landmarks `first`…`first + 5`:
 * (|p2 − p6| + |p3 − p5|) / (2 |p1 − p4|). It falls towards 0 when the lids close, so a dip
 * over a few frames is a blink.
 */
export function eyeAspectRatio(l: Landmarks68, first: 36 | 42): number {
	const p = (k: number) => point(l, first + k);
	const horizontal = dist(p(0), p(3));
	return horizontal > 0 ? (dist(p(1), p(5)) + dist(p(2), p(4))) / (2 * horizontal) : 0;
}

/**
 * Head pose estimated from 2D landmarks without a 3D model. Good enough to gate "is the face roughly
 * frontal" and to tell the user which way to turn; not a measurement of angles (errors of 5–10° are
 * normal, and they grow with the angle).
 * - roll: angle of the line between the eye centres;
 * - yaw: where the nose tip sits between the cheek contours (jaw points 2 and 14) in the roll-corrected
 *   frame; 0.5 is frontal, and asin(2r − 1), scaled, turns the ratio into an angle;
 * - pitch: where the nose tip sits between the eye line and the mouth; about 0.55 when frontal,
 *   and the offset is turned into an angle the same way. Pitch is the weakest of the three (it also
 *   moves with face shape and expression): gate on it loosely.
 */
export function headPose(l: Landmarks68): HeadPose {
	const leftEye = meanPoint(l, [36, 37, 38, 39, 40, 41]);
	const rightEye = meanPoint(l, [42, 43, 44, 45, 46, 47]);
	const rollRad = Math.atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x);
	const cos = Math.cos(-rollRad);
	const sin = Math.sin(-rollRad);
	const origin = { x: (leftEye.x + rightEye.x) / 2, y: (leftEye.y + rightEye.y) / 2 };
	const upright = (p: Point): Point => ({
		x: cos * (p.x - origin.x) - sin * (p.y - origin.y),
		y: sin * (p.x - origin.x) + cos * (p.y - origin.y)
	});
	const nose = upright(point(l, 30));
	const left = upright(point(l, 2));
	const right = upright(point(l, 14));
	const mouth = upright(meanPoint(l, [48, 54]));
	const toDegrees = (v: number) => (Math.asin(Math.max(-1, Math.min(1, v))) * 180) / Math.PI;
	const width = right.x - left.x;
	const yaw = width > 0 ? YAW_GAIN * toDegrees(2 * ((nose.x - left.x) / width) - 1) : 0;
	const pitch = mouth.y > 0 ? PITCH_GAIN * toDegrees(2 * (nose.y / mouth.y - PITCH_NEUTRAL)) : 0;
	return { yaw, pitch, roll: (rollRad * 180) / Math.PI };
}

/** Nose-tip height between eye line (0) and mouth (1) of a frontal face. */
const PITCH_NEUTRAL = 0.55;
/**
 * Gains that bring the ratios to the angles of a trained head-pose model (faceplugin fr_pose, a
 * Hopenet) on the 26 fixture faces: yaw correlates at 0.97 (|r|), pitch at 0.78, roll at 0.97.
 */
const YAW_GAIN = 0.68;
const PITCH_GAIN = 0.78;

/** Position metrics of a face box in a frame. */
export function placement(box: Box, width: number, height: number): Pick<FaceQualityMetrics, 'faceSize' | 'centreOffset'> {
	const cx = box.x + box.width / 2;
	const cy = box.y + box.height / 2;
	return {
		faceSize: (box.width * FACE_SIZE_REFERENCE_WIDTH) / width,
		centreOffset: Math.max(Math.abs(cx / width - 0.5), Math.abs(cy / height - 0.5))
	};
}

/**
 * Reusable scratch for `measureFace`, so that per-frame measurement allocates nothing.
 */
export function createQualityScratch(size = QUALITY_CROP_SIZE): Float32Array {
	return new Float32Array(size * size);
}

/**
 * All quality metrics of one face: sharpness and luminance on the square face box resampled to a
 * fixed 128×128 grey crop (so that blurThreshold means the same for small and large faces), pose and
 * eye aspect ratio from the landmarks, size and centring from the box.
 */
export function measureFace(
	image: RgbaImage,
	box: Box,
	landmarks: Landmarks68,
	scratch: Float32Array = createQualityScratch()
): FaceQualityMetrics {
	const size = Math.round(Math.sqrt(scratch.length));
	const crop = shiftInside(squareBox(box), image.width, image.height);
	cropResize(image, crop, size, size, GRAY_FORMAT, scratch);
	return {
		...placement(box, image.width, image.height),
		...headPose(landmarks),
		sharpness: laplacianVariance(scratch, size, size),
		luminance: mean(scratch, size * size),
		eyeAspectRatio: (eyeAspectRatio(landmarks, 36) + eyeAspectRatio(landmarks, 42)) / 2
	};
}

/**
 * `sharpnessBalance` of a face on the same 128×128 grey crop `measureFace` measures sharpness on.
 * Only reference photos need it (face-reference.ts), so it is not part of the per-frame metrics.
 */
export function faceSharpnessBalance(image: RgbaImage, box: Box, scratch: Float32Array = createQualityScratch()): number {
	const size = Math.round(Math.sqrt(scratch.length));
	cropResize(image, shiftInside(squareBox(box), image.width, image.height), size, size, GRAY_FORMAT, scratch);
	return sharpnessBalance(scratch, size, size);
}

// The quality gate on a live frame: BlazeFace's box and keypoints give size, centring and pose; a
// 128×128 grey crop of the face (drawn from the video by the caller: a few KB, not the whole frame)
// gives sharpness and exposure, measured exactly as the server measures them.
import { scaleBox } from '#lib/face/box.ts';
import { distinctFaces } from '#lib/face/distinct-faces.ts';
import { BLAZE_TO_FR_WIDTH } from '#lib/face/face-thresholds.ts';
import type { Box } from '#lib/face/image.ts';
import { laplacianVariance, mean, placement, type FrameQuality } from '#lib/face/quality.ts';
import { qualityGate, type QualitySettings, type QualityVerdict } from '#lib/face/quality-gate.ts';
import { frBoxFromBlaze } from './box-from.ts';
import type { DetectorFrame } from './detector.ts';
import { plausibleFaces } from './face-plausibility.ts';
import { keypointPose } from './keypoint-pose.ts';

export interface LiveCheck {
	quality: FrameQuality;
	verdict: QualityVerdict;
	/** The largest face's box (detector pixels) and its fr_detect-like square, or null. */
	box: Box | null;
	frBox: Box | null;
	/** Too dark with bright surroundings: the light is behind the user (a window), not missing. */
	lightBehind?: boolean;
}

/** Reads a grey crop of `box` from the current frame into `out` (size × size, 0–255). */
export type CropReader = (box: Box, size: number, out: Float32Array) => void;

/**
 * The face crop's last measurement, kept across frames: while the face box stays where it was
 * measured, its sharpness and exposure are taken as they were for up to MAX_REUSED_FRAMES frames
 * (reading the crop is a third of a frame's work on a slow phone).
 */
export interface CropMemo {
	box: Box | null;
	sharpness: number;
	luminance: number;
	/** Frames since the crop was last read. */
	reused: number;
}

export const createCropMemo = (): CropMemo => ({ box: null, sharpness: 0, luminance: 128, reused: 0 });

/** Re-read the crop at least every this many frames + 1 even when nothing moved (light can change). */
export const MAX_REUSED_FRAMES = 3;
/** "Did not move": no side of the box moved by more than this share of its width. */
export const STILL_BOX_SHARE = 0.02;

export function isStill(a: Box, b: Box): boolean {
	const limit = STILL_BOX_SHARE * a.width;
	return Math.abs(a.x - b.x) <= limit && Math.abs(a.y - b.y) <= limit && Math.abs(a.x + a.width - b.x - b.width) <= limit && Math.abs(a.y + a.height - b.y - b.height) <= limit;
}

/**
 * Measures the largest face of a detector frame and gates it. `readCrop` is called only when there is
 * exactly one face (otherwise the verdict is already decided) and, with a `memo`, only when the face
 * moved or the last reading is MAX_REUSED_FRAMES frames old. `scratch` is reused across frames.
 */
export function checkFrame(frame: DetectorFrame, settings: Partial<QualitySettings>, readCrop: CropReader, scratch: Float32Array, memo?: CropMemo): LiveCheck {
	// People, as the server counts them: a box nested in the face or a speck far smaller is not one;
	// and a detection without a face's confidence and keypoints (a coffee cup) is no one at all.
	const faces = distinctFaces(plausibleFaces(frame.faces));
	if (!faces.length) {
		if (memo) memo.box = null;
		return { quality: { faceCount: 0, face: null }, verdict: qualityGate({ faceCount: 0, face: null }, settings), box: null, frBox: null };
	}
	const largest = faces[0]!;
	const frBox = frBoxFromBlaze(largest.box);
	const size = Math.round(Math.sqrt(scratch.length));
	let sharpness = 0;
	let luminance = 128;
	if (faces.length === 1) {
		if (memo?.box && memo.reused < MAX_REUSED_FRAMES && isStill(memo.box, frBox)) {
			memo.reused++;
			({ sharpness, luminance } = memo);
		} else {
			readCrop(frBox, size, scratch);
			sharpness = laplacianVariance(scratch, size, size);
			luminance = mean(scratch, size * size);
			if (memo) Object.assign(memo, { box: frBox, sharpness, luminance, reused: 0 });
		}
	} else if (memo) memo.box = null;
	const quality: FrameQuality = {
		faceCount: faces.length,
		face: {
			...placement(scaleBox(largest.box, BLAZE_TO_FR_WIDTH), frame.width, frame.height),
			...keypointPose(largest.keypoints),
			sharpness,
			luminance,
			// The keypoints have no eyelids; eye state comes from the landmark model in the worker.
			eyeAspectRatio: NaN
		}
	};
	const verdict = qualityGate(quality, settings);
	const lightBehind = faces.length === 1 && verdict.reasons.includes('tooDark') && surroundingsOutshine(frBox, luminance, readCrop);
	return { quality, verdict, box: largest.box, frBox, ...(lightBehind ? { lightBehind } : {}) };
}

/** Side of the grey crop of the face's surroundings (the face is its middle third). */
const SURROUNDINGS_SIZE = 24;
const surroundings = new Float32Array(SURROUNDINGS_SIZE * SURROUNDINGS_SIZE);
/**
 * Surroundings that outshine a too-dark face: at least twice as bright, by at least 50 (0–255), and
 * bright in themselves (≥ 100). A dark room is dark all round (face 40, around 45); a portrait in a
 * dark room before a bright window read face 27, around 109 (light-behind-is-named.e2e.ts), the ring
 * also holding the shoulders and the room near the head.
 */
const BACKLIGHT_RATIO = 2;
const BACKLIGHT_MARGIN = 50;
const BACKLIGHT_MIN = 100;

/**
 * Whether what is around a too-dark face is bright: a window or a lamp behind the user, whose camera
 * then exposes for the light and leaves the face dark. "Find a brighter place" would send them towards
 * the window; they need to turn so the light falls on their face. Read only for a face already too dark.
 */
function surroundingsOutshine(face: Box, faceLuminance: number, readCrop: CropReader): boolean {
	const side = 3 * Math.max(face.width, face.height);
	readCrop({ x: face.x + face.width / 2 - side / 2, y: face.y + face.height / 2 - side / 2, width: side, height: side }, SURROUNDINGS_SIZE, surroundings);
	const third = SURROUNDINGS_SIZE / 3;
	let sum = 0;
	let n = 0;
	for (let y = 0; y < SURROUNDINGS_SIZE; y++) {
		for (let x = 0; x < SURROUNDINGS_SIZE; x++) {
			// The middle third is the face itself.
			if (x >= third && x < 2 * third && y >= third && y < 2 * third) continue;
			sum += surroundings[y * SURROUNDINGS_SIZE + x];
			n++;
		}
	}
	const around = sum / n;
	return around >= BACKLIGHT_MIN && around >= BACKLIGHT_RATIO * faceLuminance && around >= faceLuminance + BACKLIGHT_MARGIN;
}

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
import { keypointPose } from './keypoint-pose.ts';

export interface LiveCheck {
	quality: FrameQuality;
	verdict: QualityVerdict;
	/** The largest face's box (detector pixels) and its fr_detect-like square, or null. */
	box: Box | null;
	frBox: Box | null;
}

/** Reads a grey crop of `box` from the current frame into `out` (size × size, 0–255). */
export type CropReader = (box: Box, size: number, out: Float32Array) => void;

/**
 * Measures the largest face of a detector frame and gates it. `readCrop` is called only when there is
 * exactly one face (otherwise the verdict is already decided). `scratch` is reused across frames.
 */
export function checkFrame(frame: DetectorFrame, settings: Partial<QualitySettings>, readCrop: CropReader, scratch: Float32Array): LiveCheck {
	// People, as the server counts them: a box nested in the face or a speck far smaller is not one.
	const faces = distinctFaces(frame.faces);
	if (!faces.length) return { quality: { faceCount: 0, face: null }, verdict: qualityGate({ faceCount: 0, face: null }, settings), box: null, frBox: null };
	const largest = faces[0]!;
	const frBox = frBoxFromBlaze(largest.box);
	const size = Math.round(Math.sqrt(scratch.length));
	let sharpness = 0;
	let luminance = 128;
	if (faces.length === 1) {
		readCrop(frBox, size, scratch);
		sharpness = laplacianVariance(scratch, size, size);
		luminance = mean(scratch, size * size);
	}
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
	return { quality, verdict: qualityGate(quality, settings), box: largest.box, frBox };
}

// The face_scan quality gate: which frames are good enough to capture, and what to tell the user.
import { FACE_SCAN_DEFAULTS } from '#lib/domain/face/thresholds.ts';
import {
	MAX_CENTRE_OFFSET,
	MAX_LUMINANCE,
	MAX_PITCH,
	MAX_ROLL,
	MAX_YAW,
	MIN_LUMINANCE
} from './face-thresholds.ts';
import type { FrameQuality } from './quality.ts';

/** Why a frame fails, in a fixed vocabulary the UI translates (tooSmall = "move closer"). */
export const QUALITY_REASONS = [
	'noFace',
	'multipleFaces',
	'tooSmall',
	'tooLarge',
	'offCentre',
	'notFrontal',
	// Light before blur: a dark face has little contrast, so it also reads as blurry, and "hold
	// still" is no help to someone who needs light (seen with a face in front of a window).
	'tooDark',
	'tooBright',
	'blurry'
] as const;
export type QualityReason = (typeof QUALITY_REASONS)[number];

/** The face_scan node settings that the gate uses (names as in the interface spec). */
export interface QualitySettings {
	minFaceSize: number;
	maxFaceSize: number;
	blurThreshold: number;
	qualityThreshold: number;
}

export interface QualityVerdict {
	pass: boolean;
	/** Failed checks, most actionable first (in QUALITY_REASONS order). */
	reasons: QualityReason[];
	/** Overall quality 0–1: mean of the per-check scores, each 1 when ideal and 0.5 at its limit. */
	score: number;
	/** Per-check scores, for choosing the best frames. */
	scores: Record<'size' | 'centre' | 'pose' | 'sharpness' | 'exposure', number>;
}

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/**
 * Decides whether a frame passes: exactly one face, size within [minFaceSize, maxFaceSize], centred,
 * frontal, sharp (Laplacian variance ≥ blurThreshold), well lit, and overall score ≥ qualityThreshold.
 * When only the overall score fails, the weakest check is given as the reason.
 */
export function qualityGate(frame: FrameQuality, settings: Partial<QualitySettings> = {}): QualityVerdict {
	const s = { ...FACE_SCAN_DEFAULTS, ...settings };
	const face = frame.face;
	if (frame.faceCount === 0 || !face) {
		return { pass: false, reasons: ['noFace'], score: 0, scores: { size: 0, centre: 0, pose: 0, sharpness: 0, exposure: 0 } };
	}
	const failed = new Set<QualityReason>();
	if (frame.faceCount > 1) failed.add('multipleFaces');
	if (face.faceSize < s.minFaceSize) failed.add('tooSmall');
	if (face.faceSize > s.maxFaceSize) failed.add('tooLarge');
	if (face.centreOffset > MAX_CENTRE_OFFSET) failed.add('offCentre');
	const poseRatio = Math.max(Math.abs(face.yaw) / MAX_YAW, Math.abs(face.pitch) / MAX_PITCH, Math.abs(face.roll) / MAX_ROLL);
	if (poseRatio > 1) failed.add('notFrontal');
	if (face.sharpness < s.blurThreshold) failed.add('blurry');
	if (face.luminance < MIN_LUMINANCE) failed.add('tooDark');
	if (face.luminance > MAX_LUMINANCE) failed.add('tooBright');

	const mid = 128;
	const scores = {
		size:
			face.faceSize < s.minFaceSize
				? 0.5 * (face.faceSize / s.minFaceSize)
				: face.faceSize > s.maxFaceSize
					? 0.5 * (s.maxFaceSize / face.faceSize)
					: 1,
		centre: clamp01(1 - (0.5 * face.centreOffset) / MAX_CENTRE_OFFSET),
		pose: clamp01(1 - 0.5 * poseRatio),
		sharpness: clamp01((0.5 * face.sharpness) / s.blurThreshold),
		exposure: clamp01(
			1 -
				(face.luminance < mid
					? (0.5 * (mid - face.luminance)) / (mid - MIN_LUMINANCE)
					: (0.5 * (face.luminance - mid)) / (MAX_LUMINANCE - mid))
		)
	};
	const values = Object.values(scores);
	const score = values.reduce((a, b) => a + b, 0) / values.length;
	if (failed.size === 0 && score < s.qualityThreshold) failed.add(weakest(scores, face.luminance < mid));
	const reasons = QUALITY_REASONS.filter((r) => failed.has(r));
	return { pass: reasons.length === 0, reasons, score, scores };
}

function weakest(scores: QualityVerdict['scores'], dark: boolean): QualityReason {
	const [name] = Object.entries(scores).sort((a, b) => a[1] - b[1])[0];
	switch (name) {
		case 'size': return 'tooSmall';
		case 'centre': return 'offCentre';
		case 'pose': return 'notFrontal';
		case 'sharpness': return 'blurry';
		default: return dark ? 'tooDark' : 'tooBright';
	}
}

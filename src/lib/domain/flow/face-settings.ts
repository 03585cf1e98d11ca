import { FACE_SCAN_DEFAULTS, MATCH_THRESHOLD } from '../face/thresholds.ts';
import { isChallenge, type Challenge } from '../face/challenge.ts';
import type { NodeOf } from './flow.schema.ts';

type FaceNode = NodeOf<'face_scan'> | NodeOf<'liveness_detection'> | NodeOf<'face_compare'> | NodeOf<'recognition'>;

/** The face_scan fields, as any face node may carry them (nodes are loose objects). */
interface FaceNodeFields {
	type: FaceNode['type'];
	mode?: 'capture' | 'compare';
	captureInstructions?: string;
	captureDelay?: number;
	detectionInterval?: number;
	qualityThreshold?: number;
	blurThreshold?: number;
	minFaceSize?: number;
	maxFaceSize?: number;
	enableSound?: boolean;
	enableHaptics?: boolean;
	useWebGL?: boolean;
	maxRetries?: number;
	similarityThreshold?: number;
	requireLiveness?: boolean;
	timeoutSeconds?: number;
	testMode?: { challenge?: unknown };
}

/** A face node's settings with the interface spec's defaults applied (the flow keeps what was sent). */
export interface FaceSettings {
	mode: 'capture' | 'compare' | null;
	captureInstructions: string | null;
	captureDelay: number;
	detectionInterval: number;
	quality: { qualityThreshold: number; blurThreshold: number; minFaceSize: number; maxFaceSize: number };
	enableSound: boolean;
	enableHaptics: boolean;
	useWebGL: boolean;
	maxRetries: number;
	similarityThreshold: number;
	/** Passive liveness and a challenge decide (always for liveness_detection; face_scan when requireLiveness). */
	requireLiveness: boolean;
	/** Seconds the page may spend before it reports what it has (null: no limit of the node's own). */
	timeoutSeconds: number | null;
	/** Sandbox sessions only: the challenge to issue instead of a random one (tests). */
	testChallenge: Challenge | null;
}

export const FACE_NODE_DEFAULTS = {
	captureDelay: 3000,
	detectionInterval: 150,
	enableSound: true,
	enableHaptics: true,
	useWebGL: true,
	maxRetries: 3
} as const;

/** The node's settings with defaults (face_scan fields are honoured on every face node type that carries them). */
export function faceSettingsOf(node: FaceNode): FaceSettings {
	const n = node as FaceNodeFields;
	const minFaceSize = n.minFaceSize ?? FACE_SCAN_DEFAULTS.minFaceSize;
	return {
		mode: n.type === 'face_scan' ? (n.mode ?? 'capture') : n.type === 'face_compare' ? 'compare' : null,
		captureInstructions: n.captureInstructions ?? null,
		captureDelay: n.captureDelay ?? FACE_NODE_DEFAULTS.captureDelay,
		detectionInterval: n.detectionInterval ?? FACE_NODE_DEFAULTS.detectionInterval,
		quality: {
			qualityThreshold: n.qualityThreshold ?? FACE_SCAN_DEFAULTS.qualityThreshold,
			blurThreshold: n.blurThreshold ?? FACE_SCAN_DEFAULTS.blurThreshold,
			minFaceSize,
			maxFaceSize: Math.max(minFaceSize, n.maxFaceSize ?? FACE_SCAN_DEFAULTS.maxFaceSize)
		},
		enableSound: n.enableSound ?? FACE_NODE_DEFAULTS.enableSound,
		enableHaptics: n.enableHaptics ?? FACE_NODE_DEFAULTS.enableHaptics,
		useWebGL: n.useWebGL ?? FACE_NODE_DEFAULTS.useWebGL,
		maxRetries: n.maxRetries ?? FACE_NODE_DEFAULTS.maxRetries,
		similarityThreshold: n.similarityThreshold ?? MATCH_THRESHOLD,
		requireLiveness: n.type === 'liveness_detection' || (n.type === 'face_scan' && n.requireLiveness === true),
		timeoutSeconds: n.timeoutSeconds ?? null,
		testChallenge: isChallenge(n.testMode?.challenge) ? n.testMode.challenge : null
	};
}

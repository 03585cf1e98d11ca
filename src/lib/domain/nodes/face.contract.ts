// The face node types' contract (liveness_detection, face_scan, face_compare, recognition): their
// settings with defaults, their outcomes, what the page receives and what it uploads. Server and page
// both read the settings through it.
import { z } from 'zod';
import { FIXED_OUTCOME_KEYS, type FaceNodeType } from '../flow/node-types.ts';
import { FACE_SCAN_DEFAULTS, MATCH_THRESHOLD } from '../face/thresholds.ts';
import { CHALLENGES, isChallenge, type Challenge } from '../face/challenge.ts';
import { ENFORCE, lightSequenceSchema } from '../face/light-challenge.ts';
import type { NodeOf } from '../flow/flow.schema.ts';

export { faceEvidenceRequestSchema as faceEvidenceSchema, MAX_EVIDENCE_BODY_BYTES as MAX_FACE_EVIDENCE_BYTES } from '../page/face-evidence.schema.ts';

export const FACE_OUTCOMES = {
	liveness_detection: FIXED_OUTCOME_KEYS.liveness_detection,
	face_scan: FIXED_OUTCOME_KEYS.face_scan,
	face_compare: FIXED_OUTCOME_KEYS.face_compare,
	recognition: FIXED_OUTCOME_KEYS.recognition
} as const satisfies Record<FaceNodeType, readonly string[]>;

/** The settings the page's capture needs, with the defaults already applied by the server. */
export const faceViewSettingsSchema = z.object({
	captureInstructions: z.string().nullable(),
	captureDelay: z.number(),
	detectionInterval: z.number(),
	qualityThreshold: z.number(),
	blurThreshold: z.number(),
	minFaceSize: z.number(),
	maxFaceSize: z.number(),
	enableSound: z.boolean(),
	enableHaptics: z.boolean(),
	useWebGL: z.boolean(),
	maxRetries: z.int(),
	requireLiveness: z.boolean(),
	timeoutSeconds: z.number().nullable()
});
export type FaceViewSettings = z.infer<typeof faceViewSettingsSchema>;

/** What the page receives for a face node. */
export const faceViewPropsSchema = z.object({
	available: z.literal(true),
	mode: z.enum(['capture', 'compare']).nullable(),
	/** The active challenge of this try (issued by the server when the node opens or after a failed try). */
	challenge: z.enum(CHALLENGES).nullable(),
	/** The light challenge of this try: colours the page shows full-screen while it captures (null: none). */
	light: lightSequenceSchema.nullable(),
	/** Tries the user still has, this one included. */
	triesLeft: z.int().min(1),
	settings: faceViewSettingsSchema,
	/** A compare against a face captured earlier on this page: the page may preview the result. */
	referenceField: z.string().optional(),
	/** face_scan capture: the session data field the face is saved to. */
	saveToField: z.string().optional(),
	cancellable: z.boolean()
});
export type FaceViewProps = z.infer<typeof faceViewPropsSchema>;

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
	testMode?: { challenge?: unknown; injection?: unknown; lightChallenge?: unknown; continuousTurn?: unknown };
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
	/**
	 * Sandbox sessions only record camera signals, the light challenge and the turn's continuity
	 * (Chromium's fake camera trips the signals, reflects nothing and fakes turns);
	 * `testMode: { injection | lightChallenge | continuousTurn: 'enforce' }` lets a sandbox flow have
	 * them decide as live sessions do, so the attack suite can run on a sandbox key.
	 */
	testEnforce: { injection: boolean; light: boolean; continuousTurn: boolean };
}

export const FACE_NODE_DEFAULTS = {
	captureDelay: 3000,
	/**
	 * The hold before a liveness node's challenge. The spec gives `captureDelay` (3000) to face_scan
	 * only; a liveness_detection node's hold has one job, a steady frontal face for passive liveness and
	 * the embedding (three frames, half a second apart), before the turn and the light prove the face
	 * live. 1.5 s does that and keeps a cooperative user's whole node under 8 s (issue 14; face
	 * journey bench). A node that sets captureDelay gets what it set.
	 */
	livenessCaptureDelay: 1500,
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
		captureDelay: n.captureDelay ?? (n.type === 'liveness_detection' ? FACE_NODE_DEFAULTS.livenessCaptureDelay : FACE_NODE_DEFAULTS.captureDelay),
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
		testChallenge: isChallenge(n.testMode?.challenge) ? n.testMode.challenge : null,
		testEnforce: {
			injection: n.testMode?.injection === ENFORCE,
			light: n.testMode?.lightChallenge === ENFORCE,
			continuousTurn: n.testMode?.continuousTurn === ENFORCE
		}
	};
}

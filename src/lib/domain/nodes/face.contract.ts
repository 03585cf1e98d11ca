// The face node types' contract (liveness_detection, face_scan, face_compare, recognition): their
// settings with defaults, their outcomes, what the page receives and what it uploads. Server and page
// both read the settings through it.
import { z } from 'zod';
import { CHALLENGES } from '../face/challenge.ts';
import { FIXED_OUTCOME_KEYS, type FaceNodeType } from '../flow/node-types.ts';

export { faceSettingsOf, FACE_NODE_DEFAULTS, type FaceSettings } from '../flow/face-settings.ts';
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

import { z } from 'zod';
import { CHALLENGES } from '../face/challenge.ts';
import { LIGHT_MAX_STEPS } from '../face/light-challenge.ts';

/*
 * What a face node's page uploads to `POST /api/client/nodes/{nodeId}/evidence`: a few frames as
 * JPEG (never a video), the aligned crop it embedded, and its own claim. The server re-derives every
 * verdict from the frames; the claim is only compared with what the server found.
 */

/**
 * Most frames one upload may carry: the hold's three, the turn's, and at least LIGHT_MIN_FRAMES (8)
 * inside the light's window. With 12, a user who turned 600 ms after the prompt (the turn running on
 * past the colours) left the light 6–7 frames after the turn's, and failed as tooFewFrames in most
 * tries; 14 leave it 8–9 (challenge-frames.spec). 16 were tried before and cost the server 0.7 s a try
 * on the 2-core machine (about 175 ms a frame).
 */
export const MAX_EVIDENCE_FRAMES = 14;
/** Largest frame, as base64 (≈ 450 KB of JPEG: a 1280×960 frame at quality 0.9). */
export const MAX_FRAME_BASE64 = 600_000;
/** Body limit of the evidence route: every frame at its largest, the crop and the claim. */
export const MAX_EVIDENCE_BODY_BYTES = MAX_EVIDENCE_FRAMES * MAX_FRAME_BASE64 + 256 * 1024;

const base64 = (max: number) =>
	z
		.string()
		.max(max, `must be at most ${max} characters`)
		.regex(/^(data:image\/(jpeg|png|webp);base64,)?[A-Za-z0-9+/]+={0,2}$/, 'must be a base64 image');

export const evidenceFrameSchema = z.strictObject({
	/** JPEG (or PNG/WebP), base64, optionally as a data URL. */
	image: base64(MAX_FRAME_BASE64),
	/** Milliseconds since the node opened. */
	t: z.number().min(0).max(86_400_000),
	/** Why the page chose this frame (informative: the server ranks frames itself). */
	kind: z.enum(['best', 'challenge', 'passive', 'scene']).optional()
});
export type EvidenceFrameInput = z.infer<typeof evidenceFrameSchema>;

const unit = z.number().min(-1).max(1);

/** What the page believes happened. Logged against the server's findings; never trusted. */
export const faceClaimSchema = z.looseObject({
	outcome: z.string().max(40).optional(),
	reason: z.string().max(40).optional(),
	/** Median passive live probability over the frames it scored. */
	liveness: unit.optional(),
	/** Cosine similarity with a reference the page had (a capture earlier in this session). */
	similarity: unit.optional(),
	challenge: z.object({ type: z.enum(CHALLENGES), passed: z.boolean() }).optional(),
	camera: z
		.object({
			label: z.string().max(256).optional(),
			virtual: z.boolean().optional(),
			width: z.int().min(0).max(10_000).optional(),
			height: z.int().min(0).max(10_000).optional(),
			facingMode: z.string().max(32).optional()
		})
		.optional(),
	motion: z.object({ frozen: z.boolean(), looped: z.boolean(), frozenShare: z.number().min(0).max(1).optional() }).optional(),
	timing: z.object({ fps: z.number().min(0).max(1000), jitter: z.number().min(0).max(100), nonMonotonic: z.boolean() }).optional(),
	/** Frames the page looked at, and how long the node took (ms). */
	framesSeen: z.int().min(0).max(1_000_000).optional(),
	durationMs: z.int().min(0).max(86_400_000).optional()
});
export type FaceClaim = z.infer<typeof faceClaimSchema>;

export const faceEvidenceRequestSchema = z.strictObject({
	step: z.int().min(0),
	requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, _ or -').optional(),
	frames: z.array(evidenceFrameSchema).max(MAX_EVIDENCE_FRAMES),
	/** The 112×112 aligned face the page embedded (JPEG, base64). */
	alignedFace: base64(200_000).optional(),
	/** When the page began showing the light challenge's colours (the frames' clock: ms since the try started). */
	lightStartedAt: z.number().min(0).max(86_400_000).optional(),
	/**
	 * When each later colour, and then no colour, actually went on screen (same clock): a busy device's
	 * timers fire late, and the server reads the frames against these rather than the plan.
	 */
	lightChangedAt: z.array(z.number().min(0).max(86_400_000)).max(LIGHT_MAX_STEPS).optional(),
	claim: faceClaimSchema.default({})
});
export type FaceEvidenceRequest = z.input<typeof faceEvidenceRequestSchema>;

/** Why a try failed, in words the page translates (`face.failure.<reason>`). */
export const FACE_FAILURE_REASONS = [
	'noFace',
	'multipleFaces',
	'poorQuality',
	'notLive',
	'challengeFailed',
	'identityChanged',
	'injection',
	'noMatch',
	// Dark glasses or a mask over a face that did not match, or that a capture would save (occlusion.ts).
	'faceCovered',
	'referenceUnavailable',
	'noConsent',
	'timeout',
	'error'
] as const;
export type FaceFailureReason = (typeof FACE_FAILURE_REASONS)[number];

/**
 * What the user can do differently after a `challengeFailed` try, when the server knows which part
 * failed (`face.failure.<hint>`, said instead of the reason's words): the movement was seen but the
 * screen's colours did not show on the face (`lightNotSeen`: a bright room, a dim screen, too far),
 * or the turn began only after the colours (`turnLate`). "We didn't see the movement" was wrong for both.
 */
export const FACE_RETRY_HINTS = ['lightNotSeen', 'turnLate'] as const;
export type FaceRetryHint = (typeof FACE_RETRY_HINTS)[number];

/** Failures the user can fix by trying again (the others end the node at once). */
export const RETRYABLE_FAILURES: ReadonlySet<FaceFailureReason> = new Set(['noFace', 'multipleFaces', 'poorQuality', 'notLive', 'challengeFailed', 'faceCovered', 'timeout']);

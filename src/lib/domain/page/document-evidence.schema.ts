import { z } from 'zod';

/*
 * What a document_scan page uploads to `POST /api/client/nodes/{nodeId}/evidence`: the sharp frame(s)
 * it captured at full resolution (one side, or the front and the back in MULTI_SIDE) and its own
 * measurements. The server reads the images itself; its reading is the one stored.
 */

/** Largest image, as base64 (≈ 6 MB of JPEG; a 1920×1080 capture at quality 0.92 is ≈ 0.4 MB). */
export const MAX_DOCUMENT_IMAGE_BASE64 = 8_000_000;
/** Body limit of a document upload: both sides at their largest and the claim. */
export const MAX_DOCUMENT_EVIDENCE_BODY_BYTES = 2 * MAX_DOCUMENT_IMAGE_BASE64 + 64 * 1024;
/** Smallest and largest image side the server reads (a thumbnail cannot carry an MRZ; a huge one is refused before decoding). */
export const DOCUMENT_IMAGE_MIN_SIDE = 320;
export const DOCUMENT_IMAGE_MAX_SIDE = 8000;
/** Largest image in pixels: a 48-megapixel phone photo (8000 × 6000), far more than the MRZ needs. */
export const DOCUMENT_IMAGE_MAX_PIXELS = 48_000_000;

export const DOCUMENT_SIDES = ['front', 'back'] as const;
export type DocumentSideName = (typeof DOCUMENT_SIDES)[number];

export const documentImageSchema = z.strictObject({
	side: z.enum(DOCUMENT_SIDES),
	/** JPEG, PNG or WebP, base64, optionally as a data URL. */
	image: z
		.string()
		.max(MAX_DOCUMENT_IMAGE_BASE64, `must be at most ${MAX_DOCUMENT_IMAGE_BASE64} characters`)
		.regex(/^(data:image\/(jpeg|png|webp);base64,)?[A-Za-z0-9+/]+={0,2}$/, 'must be a base64 image'),
	/** Milliseconds since the node opened when this side was captured. */
	t: z.number().min(0).max(86_400_000).optional()
});

const ms = z.number().min(0).max(600_000);

/** What the page measured (kept next to the server's reading; never trusted). Unknown keys are dropped. */
export const documentClaimSchema = z.object({
	/** Sharpness (variance of the Laplacian) and glare share the page measured on the captured frame. */
	sharpness: z.number().min(0).max(1e7).optional(),
	glare: z.number().min(0).max(1).optional(),
	/** Share of the frame the document covered. */
	coverage: z.number().min(0).max(1).optional(),
	framesSeen: z.int().min(0).max(1_000_000).optional(),
	durationMs: z.int().min(0).max(86_400_000).optional(),
	/** Page-side stage times of this try (ms): per-frame check, capture and encode. */
	timings: z.object({ check: ms.optional(), capture: ms.optional(), encode: ms.optional(), firstSeenToCapture: ms.optional() }).optional(),
	camera: z
		.object({
			label: z.string().max(256).optional(),
			width: z.int().min(0).max(10_000).optional(),
			height: z.int().min(0).max(10_000).optional(),
			facingMode: z.string().max(32).optional(),
			torch: z.boolean().optional()
		})
		.optional()
});
export type DocumentClaim = z.infer<typeof documentClaimSchema>;

export const documentEvidenceRequestSchema = z
	.strictObject({
		step: z.int().min(0),
		requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, _ or -').optional(),
		images: z.array(documentImageSchema).min(1, 'must hold at least 1 image').max(2, 'must hold at most 2 images'),
		claim: documentClaimSchema.default({})
	})
	.refine((r) => new Set(r.images.map((i) => i.side)).size === r.images.length, { message: 'must not repeat a side', path: ['images'] })
	.meta({ id: 'DocumentEvidenceRequest' });
export type DocumentEvidenceRequest = z.input<typeof documentEvidenceRequestSchema>;

/** Why a try was not accepted (the page's `document.retry.*` messages). */
/** `uncertain`: read, but some characters not surely enough to pass (LOW_CONFIDENCE). */
export const DOCUMENT_RETRY_REASONS = ['unreadable', 'uncertain', 'typeNotAllowed', 'typeUnknown', 'noDocument', 'blurry', 'glare'] as const;
export type DocumentRetryReason = (typeof DOCUMENT_RETRY_REASONS)[number];

// A face node's upload (`POST /api/client/nodes/{nodeId}/evidence`): the frames checked by their bytes
// and headers, then analysed outside the session's transaction — decoding, the models, a reference
// URL, the 1:N search. The face handler decides from the `FaceEvidence` made here and nowhere else.
import { ApiError } from '#lib/domain/errors.ts';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { faceSettingsOf } from '#lib/domain/nodes/face.contract.ts';
import { faceEvidenceRequestSchema, MAX_EVIDENCE_BODY_BYTES, type FaceClaim } from '#lib/domain/page/face-evidence.schema.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import { formatZodIssues } from '#lib/domain/zod-issues.ts';
import type { AgeSexEstimator } from '../../biometrics/age-sex-estimator.ts';
import type { FaceEngine } from '../../biometrics/face-engine.ts';
import type { SafeFetchResult } from '../../http/safe-fetch.ts';
import { logger } from '../../logger.ts';
import { IMAGE_TYPES, isAllowedMedia } from '../../media/magic-bytes.ts';
import { frameSizeProblem, imageHeaderSize } from '../../media/image-limits.ts';
import { analyseEvidence, type EvidenceAnalysis, type EvidenceFrame } from './evidence-analysis.ts';
import type { FaceEvidenceSink } from './face-evidence-sink.ts';
import { base64Bytes, compareWithReference } from './face-reference.ts';
import type { FaceNodeType, RecognitionResult, ReferenceResult } from './face-verdict.ts';
import type { FaceTemplateCache } from './template-cache.ts';

export { MAX_EVIDENCE_BODY_BYTES as MAX_FACE_UPLOAD_BYTES };

/** The engines a face upload's analysis runs on (RunnerDeps.faces). */
export interface FaceEngines {
	engine: () => Promise<FaceEngine>;
	/** Age and sex, for a flow that checks the estimated age in-session (legacy ageEstimation); null when not installed. */
	ageSex?: () => Promise<AgeSexEstimator | null>;
	templates: FaceTemplateCache;
	sink: FaceEvidenceSink;
	fetchImage: (url: string) => Promise<SafeFetchResult>;
}

/** An upload whose frames are images of an accepted type and size (nothing decoded yet). */
export interface FaceUpload {
	step: number;
	requestId?: string;
	claim: FaceClaim;
	frames: EvidenceFrame[];
	alignedCrop: Uint8Array | null;
	/** When the page began showing the light challenge (frames' clock), or null. */
	lightStartedAt: number | null;
	/** When each later colour, then none, went on screen (frames' clock), or null. */
	lightChangedAt: number[] | null;
}

/** What the server found in one upload: the only thing a face handler judges on. */
export interface FaceEvidence {
	analysis: EvidenceAnalysis;
	claim: FaceClaim;
	/** When the page began showing the light challenge (frames' clock), or null when it did not say. */
	lightStartedAt: number | null;
	/** When each later colour, then none, went on screen, as the page says (null: it did not). */
	lightChangedAt: number[] | null;
	/** The best face's template under the account's rotation (to save or enrol), or null. */
	protectedTemplate: Float32Array | null;
	reference: ReferenceResult | undefined;
	recognition: RecognitionResult | undefined;
	/** Each frame's digest (evidence-analysis.ts), to recognise frames replayed from another session. */
	frameDigests: Uint8Array[];
}

/** Parses a face upload and checks each frame's type by its bytes and size by its header. */
export async function parseFaceUpload(body: unknown): Promise<FaceUpload> {
	const parsed = faceEvidenceRequestSchema.safeParse(body);
	if (!parsed.success) throw new ApiError('validation_error', formatZodIssues(parsed.error.issues));
	const request = parsed.data;
	const frames: EvidenceFrame[] = request.frames.map((f, i) => {
		const bytes = base64Bytes(f.image);
		if (!bytes || !isAllowedMedia(bytes, IMAGE_TYPES)) {
			throw new ApiError('validation_error', `frames[${i}].image is not a JPEG, PNG or WebP image`, { code: 'unsupported_media_type', status: 415 });
		}
		return { bytes, t: f.t };
	});
	// Sizes from the headers, before anything is decoded (image-limits.ts).
	for (const [i, frame] of frames.entries()) {
		const size = await imageHeaderSize(frame.bytes);
		if (!size) throw new ApiError('validation_error', `frames[${i}].image could not be read as an image`, { code: 'unsupported_media_type', status: 415 });
		const problem = frameSizeProblem(size);
		if (problem) throw new ApiError('validation_error', `frames[${i}].image ${problem}`, { code: 'unsupported_media_type', status: 400 });
	}
	return {
		step: request.step,
		...(request.requestId ? { requestId: request.requestId } : {}),
		claim: request.claim,
		frames,
		alignedCrop: request.alignedFace ? base64Bytes(request.alignedFace) : null,
		lightStartedAt: request.lightStartedAt ?? null,
		lightChangedAt: request.lightChangedAt ?? null
	};
}

/** Runs the models on an upload; for compare and recognition nodes, the reference and the 1:N search too. */
export async function analyseFaceUpload(engines: FaceEngines, session: Session, node: NodeOf<FaceNodeType>, upload: FaceUpload): Promise<FaceEvidence> {
	const settings = faceSettingsOf(node);
	const engine = await engines.engine();
	const analysis = await analyseEvidence(engine, upload.frames, {
		quality: node.type === 'face_scan' ? settings.quality : undefined,
		alignedCrop: upload.alignedCrop ?? undefined,
		...(upload.lightStartedAt !== null ? { litFrom: upload.lightStartedAt } : {})
	});
	const protect = (e: Float32Array) => engines.templates.protect(session.accountId, e);
	const protectedTemplate = analysis.embedding ? await protect(analysis.embedding) : null;
	let reference: ReferenceResult | undefined;
	if (node.type === 'face_compare' || (node.type === 'face_scan' && node.mode === 'compare')) {
		reference = await compareWithReference(node as NodeOf<'face_scan'> | NodeOf<'face_compare'>, session, session.data ?? {}, analysis.embedding, {
			engine: engines.engine,
			sink: engines.sink,
			fetchImage: engines.fetchImage,
			protect
		});
	}
	let recognition: RecognitionResult | undefined;
	if (node.type === 'recognition' && protectedTemplate) {
		recognition = { match: await engines.templates.search(session.accountId, session.env, protectedTemplate) };
	}
	logger.debug({ sessionId: session.id, nodeId: node.id, frames: upload.frames.length, ms: analysis.ms }, 'face evidence analysed');
	return { analysis, claim: upload.claim, lightStartedAt: upload.lightStartedAt, lightChangedAt: upload.lightChangedAt, protectedTemplate, reference, recognition, frameDigests: analysis.frameDigests };
}

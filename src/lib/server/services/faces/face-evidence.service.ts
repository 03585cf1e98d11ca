// `POST /api/client/nodes/{nodeId}/evidence`: a face node's try. The heavy part (decoding frames,
// running the models, fetching a reference URL, the 1:N search) happens here, before and outside the
// session's transaction; the node's handler then judges inside it, from this object only. A page
// cannot hand the handler an analysis of its own: `ServerFaceEvidence` is made here and nowhere else.
import { ApiError } from '#lib/domain/errors.ts';
import type { FlowNode, NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { faceEvidenceRequestSchema, type FaceClaim } from '#lib/domain/page/face-evidence.schema.ts';
import type { SubmitResponse } from '#lib/domain/page/page.schema.ts';
import { formatZodIssues } from '#lib/domain/zod-issues.ts';
import type { FaceEngine } from '../../biometrics/face-engine.ts';
import type { SafeFetchResult } from '../../http/safe-fetch.ts';
import { logger } from '../../logger.ts';
import { IMAGE_TYPES, isAllowedMedia } from '../../media/magic-bytes.ts';
import { frameSizeProblem, imageHeaderSize } from '../../media/image-limits.ts';
import type { UnitOfWork } from '../../repositories/index.ts';
import type { PagePrincipal, PageService } from '../page.service.ts';
import { analyseEvidence, type EvidenceAnalysis, type EvidenceFrame } from './evidence-analysis.ts';
import type { FaceEvidenceSink } from './face-evidence-sink.ts';
import { base64Bytes, compareWithReference } from './face-reference.ts';
import { faceSettingsOf } from '#lib/domain/flow/face-settings.ts';
import type { FaceNodeType, RecognitionResult, ReferenceResult } from './face-verdict.ts';
import type { FaceTemplateCache } from './template-cache.ts';

export const FACE_NODE_TYPES: readonly FaceNodeType[] = ['liveness_detection', 'face_scan', 'face_compare', 'recognition'];
export const isFaceNode = (node: FlowNode): node is NodeOf<FaceNodeType> => (FACE_NODE_TYPES as readonly string[]).includes(node.type);

/** What the server found in one upload: the only thing a face handler judges on. */
export class ServerFaceEvidence {
	constructor(
		readonly nodeId: string,
		readonly analysis: EvidenceAnalysis,
		readonly claim: FaceClaim,
		/** The best face's template under the account's rotation (to save or enrol), or null. */
		readonly protectedTemplate: Float32Array | null,
		readonly reference: ReferenceResult | undefined,
		readonly recognition: RecognitionResult | undefined
	) {}
}

/** The evidence an action was given by the evidence route, or null (a plain node result). */
export function serverEvidenceOf(ctx: { evidence?: unknown; node: { id: string } }): ServerFaceEvidence | null {
	return ctx.evidence instanceof ServerFaceEvidence && ctx.evidence.nodeId === ctx.node.id ? ctx.evidence : null;
}

export interface FaceEvidenceDeps {
	uow: UnitOfWork;
	pages: PageService;
	engine: () => Promise<FaceEngine>;
	templates: FaceTemplateCache;
	sink: FaceEvidenceSink;
	fetchImage: (url: string) => Promise<SafeFetchResult>;
}

export class FaceEvidenceService {
	constructor(private readonly deps: FaceEvidenceDeps) {}

	async submit(principal: PagePrincipal, nodeId: string, body: unknown): Promise<SubmitResponse> {
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
		const alignedCrop = request.alignedFace ? base64Bytes(request.alignedFace) : null;
		const submit = (evidence?: ServerFaceEvidence) =>
			this.deps.pages.submit(principal, nodeId, { step: request.step, ...(request.requestId ? { requestId: request.requestId } : {}), action: 'evidence', payload: { claim: request.claim } }, evidence ? { evidence } : {});

		// Not a current face node (or a retry already answered): the page service gives the right error
		// or the first answer without the models having to run.
		const session = await this.deps.uow.repos.sessions.findById(principal.sessionId);
		const node = session?.currentNodeId === nodeId ? (session.flow as FlowNode[]).find((n) => n.id === nodeId) : undefined;
		if (!session || !node || !isFaceNode(node) || session.status !== 'inProgress' || principal.role !== 'primary') return submit();
		if (request.requestId && (await this.deps.uow.repos.runner.findSubmission(session.id, request.requestId))) return submit();

		const settings = faceSettingsOf(node);
		const engine = await this.deps.engine();
		const analysis = await analyseEvidence(engine, frames, {
			quality: node.type === 'face_scan' ? settings.quality : undefined,
			alignedCrop: alignedCrop ?? undefined
		});
		const protect = (e: Float32Array) => this.deps.templates.protect(session.accountId, e);
		const protectedTemplate = analysis.embedding ? await protect(analysis.embedding) : null;
		let reference: ReferenceResult | undefined;
		if (node.type === 'face_compare' || (node.type === 'face_scan' && node.mode === 'compare')) {
			reference = await compareWithReference(node as NodeOf<'face_scan'> | NodeOf<'face_compare'>, session, session.data ?? {}, analysis.embedding, {
				engine: this.deps.engine,
				sink: this.deps.sink,
				fetchImage: this.deps.fetchImage,
				protect
			});
		}
		let recognition: RecognitionResult | undefined;
		if (node.type === 'recognition' && protectedTemplate) {
			recognition = { match: await this.deps.templates.search(session.accountId, session.env, protectedTemplate) };
		}
		logger.debug({ sessionId: session.id, nodeId, frames: frames.length, ms: analysis.ms }, 'face evidence analysed');
		return submit(new ServerFaceEvidence(nodeId, analysis, request.claim, protectedTemplate, reference, recognition));
	}
}

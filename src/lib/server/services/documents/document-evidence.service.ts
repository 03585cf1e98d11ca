// `POST /api/client/nodes/{nodeId}/evidence` for a document_scan node: the captured side(s). The
// heavy part (decoding, finding the edges, OCR, barcodes, the portrait) runs here, before and outside
// the session's transaction; the handler then judges and stores inside it, from this object only. A
// page cannot hand the handler a reading of its own: `ServerDocumentEvidence` is made here and nowhere else.
import sharp from 'sharp';
import { ApiError } from '#lib/domain/errors.ts';
import type { FlowNode, NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { documentSettingsOf, sidesFor } from '#lib/domain/flow/document-settings.ts';
import {
	DOCUMENT_IMAGE_MAX_PIXELS,
	DOCUMENT_IMAGE_MAX_SIDE,
	DOCUMENT_IMAGE_MIN_SIDE,
	documentEvidenceRequestSchema,
	type DocumentClaim,
	type DocumentSideName
} from '#lib/domain/page/document-evidence.schema.ts';
import type { SubmitResponse } from '#lib/domain/page/page.schema.ts';
import type { MrtdType } from '#lib/documents/document-type.ts';
import { formatZodIssues } from '#lib/domain/zod-issues.ts';
import type { DocumentImageInput, ReadDocumentOptions, ReadDocumentResult } from '../../documents/document-reader.service.ts';
import { logger } from '../../logger.ts';
import { IMAGE_TYPES, isAllowedMedia } from '../../media/magic-bytes.ts';
import type { UnitOfWork } from '../../repositories/index.ts';
import type { PagePrincipal, PageService } from '../page.service.ts';
import { base64Bytes } from '../faces/face-reference.ts';

/** What the server read from one upload: the only thing the document_scan handler judges on. */
export class ServerDocumentEvidence {
	constructor(
		readonly nodeId: string,
		readonly reading: ReadDocumentResult,
		/** The uploaded images in side order (stored when the reader gave no rectified image). */
		readonly uploads: { side: DocumentSideName; bytes: Uint8Array }[],
		readonly claim: DocumentClaim,
		/** Server time the upload was received (the time limit is checked against it). */
		readonly receivedAt: number,
		/** Milliseconds the server spent checking and reading the upload. */
		readonly serverMs: number
	) {}
}

export function serverDocumentEvidenceOf(ctx: { evidence?: unknown; node: { id: string } }): ServerDocumentEvidence | null {
	return ctx.evidence instanceof ServerDocumentEvidence && ctx.evidence.nodeId === ctx.node.id ? ctx.evidence : null;
}

export type DocumentReadFn = (images: readonly DocumentImageInput[], options: ReadDocumentOptions) => Promise<ReadDocumentResult>;

export interface DocumentEvidenceDeps {
	uow: UnitOfWork;
	pages: PageService;
	read: DocumentReadFn;
	now: () => number;
}

const invalid = (message: string) => new ApiError('validation_error', message, { code: 'unsupported_media_type', status: 400 });

/** Checks one upload is an image the reader can take: type by its bytes, size by its header. */
async function checkImage(bytes: Uint8Array | null, at: string): Promise<Uint8Array> {
	if (!bytes || !isAllowedMedia(bytes, IMAGE_TYPES)) throw invalid(`${at} is not a JPEG, PNG or WebP image`);
	let meta: { width?: number; height?: number };
	try {
		meta = await sharp(bytes).metadata();
	} catch {
		throw invalid(`${at} could not be decoded as an image`);
	}
	const { width = 0, height = 0 } = meta;
	if (Math.min(width, height) < DOCUMENT_IMAGE_MIN_SIDE) throw invalid(`${at} is ${width}×${height}: a document photo needs at least ${DOCUMENT_IMAGE_MIN_SIDE} pixels on each side`);
	if (Math.max(width, height) > DOCUMENT_IMAGE_MAX_SIDE) throw invalid(`${at} is ${width}×${height}: at most ${DOCUMENT_IMAGE_MAX_SIDE} pixels a side`);
	if (width * height > DOCUMENT_IMAGE_MAX_PIXELS) throw invalid(`${at} is ${width}×${height}: at most ${DOCUMENT_IMAGE_MAX_PIXELS / 1e6} megapixels`);
	// A header can be whole while the pixels are not: decode once, small (JPEG shrink-on-load keeps it cheap).
	try {
		await sharp(bytes).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
	} catch {
		throw invalid(`${at} could not be decoded (truncated or corrupt)`);
	}
	return bytes;
}

export class DocumentEvidenceService {
	constructor(private readonly deps: DocumentEvidenceDeps) {}

	/** Whether `nodeId` is a document_scan node of the principal's session (the route picks the service). */
	async handles(principal: PagePrincipal, nodeId: string): Promise<boolean> {
		const session = await this.deps.uow.repos.sessions.findById(principal.sessionId);
		return !!session && (session.flow as FlowNode[]).some((n) => n.id === nodeId && n.type === 'document_scan');
	}

	async submit(principal: PagePrincipal, nodeId: string, body: unknown): Promise<SubmitResponse> {
		const parsed = documentEvidenceRequestSchema.safeParse(body);
		if (!parsed.success) throw new ApiError('validation_error', formatZodIssues(parsed.error.issues));
		const request = parsed.data;
		const receivedAt = this.deps.now();
		const submit = (evidence?: ServerDocumentEvidence) =>
			this.deps.pages.submit(principal, nodeId, { step: request.step, ...(request.requestId ? { requestId: request.requestId } : {}), action: 'evidence', payload: {} }, evidence ? { evidence } : {});

		// Not the current document node (or a retry already answered): the page service gives the
		// right error or the first answer, without the reader having to run.
		const session = await this.deps.uow.repos.sessions.findById(principal.sessionId);
		const node = session?.currentNodeId === nodeId ? (session.flow as FlowNode[]).find((n) => n.id === nodeId) : undefined;
		if (!session || !node || node.type !== 'document_scan' || session.status !== 'inProgress' || principal.role !== 'primary') return submit();
		if (request.requestId && (await this.deps.uow.repos.runner.findSubmission(session.id, request.requestId))) return submit();

		const settings = documentSettingsOf(node as NodeOf<'document_scan'>);
		const wanted = sidesFor(settings.scanningMode);
		const sides = request.images.map((i) => i.side);
		if (sides.length !== wanted.length || wanted.some((s) => !sides.includes(s))) {
			throw new ApiError('validation_error', `A ${settings.scanningMode} scan uploads ${wanted.map((s) => `the ${s}`).join(' and ')} (images: ${wanted.length}); got ${sides.join(', ')}`);
		}
		const started = performance.now();
		const ordered = wanted.map((side) => request.images.find((i) => i.side === side)!);
		const uploads: { side: DocumentSideName; bytes: Uint8Array }[] = [];
		for (const image of ordered) {
			uploads.push({ side: image.side, bytes: await checkImage(base64Bytes(image.image), `images[${request.images.indexOf(image)}] (${image.side})`) });
		}
		const reading = await this.deps.read(
			uploads.map((u) => u.bytes),
			{ mode: settings.scanningMode, allowedDocumentTypes: settings.allowedDocumentTypes as MrtdType[], now: new Date(receivedAt) }
		);
		const serverMs = Math.round(performance.now() - started);
		logger.debug({ sessionId: session.id, nodeId, status: reading.status, type: reading.documentType, ms: serverMs }, 'document evidence read');
		return submit(new ServerDocumentEvidence(nodeId, reading, uploads, request.claim, receivedAt, serverMs));
	}
}

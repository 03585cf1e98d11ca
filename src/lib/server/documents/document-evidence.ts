// A document_scan node's upload (`POST /api/client/nodes/{nodeId}/evidence`): the captured side(s),
// checked by their bytes and headers, then read outside the session's transaction — decoding, the
// edges, OCR, barcodes, the portrait. The document_scan handler decides from the `DocumentEvidence`
// made here and nowhere else.
import sharp from 'sharp';
import { ApiError } from '#lib/domain/errors.ts';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { documentSettingsOf, sidesFor } from '#lib/domain/nodes/document-scan.contract.ts';
import {
	DOCUMENT_IMAGE_MAX_PIXELS,
	DOCUMENT_IMAGE_MAX_SIDE,
	DOCUMENT_IMAGE_MIN_SIDE,
	documentEvidenceRequestSchema,
	type DocumentClaim,
	type DocumentSideName
} from '#lib/domain/page/document-evidence.schema.ts';
import { formatZodIssues } from '#lib/domain/zod-issues.ts';
import type { DocumentImageInput, ReadDocumentOptions, ReadDocumentResult } from './document-reader.service.ts';
import { logger } from '../logger.ts';
import { IMAGE_TYPES, isAllowedMedia } from '../media/magic-bytes.ts';
import { base64Bytes } from '../services/faces/face-reference.ts';

export { MAX_DOCUMENT_EVIDENCE_BODY_BYTES as MAX_DOCUMENT_UPLOAD_BYTES } from '#lib/domain/page/document-evidence.schema.ts';

export type DocumentReadFn = (images: readonly DocumentImageInput[], options: ReadDocumentOptions) => Promise<ReadDocumentResult>;

/** An upload as parsed (the images are checked once the node's mode says which sides it needs). */
export interface DocumentUpload {
	step: number;
	requestId?: string;
	claim: DocumentClaim;
	images: { side: DocumentSideName; image: string }[];
}

/** What the server read from one upload: the only thing the document_scan handler judges on. */
export interface DocumentEvidence {
	reading: ReadDocumentResult;
	/** The uploaded images in side order (stored when the reader gave no rectified image). */
	uploads: { side: DocumentSideName; bytes: Uint8Array }[];
	claim: DocumentClaim;
	/** Server time the upload was received (the time limit is checked against it). */
	receivedAt: number;
	/** Milliseconds the server spent checking and reading the upload. */
	serverMs: number;
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

export async function parseDocumentUpload(body: unknown): Promise<DocumentUpload> {
	const parsed = documentEvidenceRequestSchema.safeParse(body);
	if (!parsed.success) throw new ApiError('validation_error', formatZodIssues(parsed.error.issues));
	const { step, requestId, claim, images } = parsed.data;
	return { step, ...(requestId ? { requestId } : {}), claim, images };
}

/** Checks the upload holds the sides the node's mode needs, each a readable image, and reads them. */
export async function readDocumentUpload(read: DocumentReadFn, sessionId: string, node: NodeOf<'document_scan'>, upload: DocumentUpload, receivedAt: number): Promise<DocumentEvidence> {
	const settings = documentSettingsOf(node);
	const wanted = sidesFor(settings.scanningMode);
	const sides = upload.images.map((i) => i.side);
	if (sides.length !== wanted.length || wanted.some((s) => !sides.includes(s))) {
		throw new ApiError('validation_error', `A ${settings.scanningMode} scan uploads ${wanted.map((s) => `the ${s}`).join(' and ')} (images: ${wanted.length}); got ${sides.join(', ')}`);
	}
	const started = performance.now();
	const ordered = wanted.map((side) => upload.images.find((i) => i.side === side)!);
	const uploads: { side: DocumentSideName; bytes: Uint8Array }[] = [];
	for (const image of ordered) {
		uploads.push({ side: image.side, bytes: await checkImage(base64Bytes(image.image), `images[${upload.images.indexOf(image)}] (${image.side})`) });
	}
	const reading = await read(
		uploads.map((u) => u.bytes),
		{ mode: settings.scanningMode, allowedDocumentTypes: settings.allowedDocumentTypes, now: new Date(receivedAt) }
	);
	const serverMs = Math.round(performance.now() - started);
	logger.debug({ sessionId, nodeId: node.id, status: reading.status, type: reading.documentType, ms: serverMs }, 'document evidence read');
	return { reading, uploads, claim: upload.claim, receivedAt, serverMs };
}

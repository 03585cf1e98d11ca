// The reference face of a comparison (face_scan `mode: compare`, face_compare): a face saved earlier
// in the session (`saveToField` of a capture, or the document portrait a document_scan saves), a
// base64 image the integrator put in `providedData`, or an https URL the server fetches itself.
import { hiddenList } from '#lib/face/occlusion.ts';
import { z } from 'zod';
import { DOCUMENT_PORTRAIT_FIELD } from '#lib/domain/nodes/document-scan.contract.ts';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { faceSettingsOf } from '#lib/domain/nodes/face.contract.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import { MAX_LUMINANCE, MIN_REFERENCE_FACE_WIDTH, MIN_REFERENCE_SHARPNESS, MIN_SHARPNESS_BALANCE } from '#lib/face/face-thresholds.ts';
import type { FaceAnalysis } from '#lib/face/face-pipeline.ts';
import type { AnalysedReference, FaceEngine } from '../../biometrics/face-engine.ts';
import { decodeTemplate, encodeTemplate } from '../../biometrics/template-protection.ts';
import type { SafeFetchResult } from '../../http/safe-fetch.ts';
import { logger } from '../../logger.ts';
import type { FaceEvidenceSink } from './face-evidence-sink.ts';
import type { ReferenceResult } from './face-verdict.ts';

/**
 * What a capture saves under `saveToField` (session data): the face's template under the account's
 * rotation (never the raw embedding), the stored photo, and what the server measured.
 */
export const savedFaceSchema = z.object({
	type: z.literal('face'),
	/** base64 of encodeTemplate(protectTemplate(embedding, accountKey)). */
	template: z.string().min(8),
	photoId: z.string().optional(),
	liveness: z.number().nullable().optional(),
	capturedAt: z.number(),
	nodeId: z.string()
});
export type SavedFace = z.infer<typeof savedFaceSchema>;

/** An image saved in session data by another node (e.g. the document portrait): a stored media id or inline base64. */
export const savedImageSchema = z.union([
	z.object({ type: z.literal('image'), mediaId: z.string().min(1) }),
	z.object({ type: z.literal('image'), data: z.string().min(16) })
]);

export const encodeSavedTemplate = (template: Float32Array) => Buffer.from(encodeTemplate(template)).toString('base64');

/** Bytes of a base64 string or a data URL, or null when it is neither. */
export function base64Bytes(value: string): Uint8Array | null {
	const body = value.startsWith('data:') ? value.slice(value.indexOf(',') + 1) : value;
	if (!/^[A-Za-z0-9+/\r\n]+={0,2}$/.test(body)) return null;
	const bytes = Buffer.from(body, 'base64');
	return bytes.length ? new Uint8Array(bytes) : null;
}

export interface ReferenceDeps {
	engine: () => Promise<FaceEngine>;
	sink: FaceEvidenceSink;
	fetchImage: (url: string) => Promise<SafeFetchResult>;
	/** The probe rotated by the account's key (to compare with a saved template). */
	protect: (embedding: Float32Array) => Promise<Float32Array>;
}

type CompareNode = NodeOf<'face_scan'> | NodeOf<'face_compare'>;

/** Where a compare node's reference comes from (face_compare defaults to the session). */
export function referenceSourceOf(node: CompareNode): 'session' | 'providedData' | 'url' {
	return node.referenceImageSource ?? (node.referenceImageUrl ? 'url' : 'session');
}

/**
 * The session-data key a compare node reads its reference from. A node with `referenceImageKey`
 * reads that key. One without (the spec makes the key optional) reads the face most recently saved
 * in the session: the latest face capture (`saveToField`), else the document portrait. Null when
 * the session holds neither yet.
 */
export function sessionReferenceKey(node: CompareNode, data: Record<string, unknown>): string | null {
	if (node.referenceImageKey) return node.referenceImageKey;
	let latest: { key: string; at: number } | null = null;
	for (const [key, value] of Object.entries(data)) {
		const face = savedFaceSchema.safeParse(value);
		if (face.success && (!latest || face.data.capturedAt >= latest.at)) latest = { key, at: face.data.capturedAt };
	}
	if (latest) return latest.key;
	return savedImageSchema.safeParse(data[DOCUMENT_PORTRAIT_FIELD]).success ? DOCUMENT_PORTRAIT_FIELD : null;
}

/**
 * Whether a reference can exist at all, decided without I/O (so a node can end at once instead of
 * asking the user for a face it cannot compare). URLs are only known once fetched.
 */
export function referencePresent(node: CompareNode, session: Session, data: Record<string, unknown>): boolean {
	const source = referenceSourceOf(node);
	if (source === 'url') return !!node.referenceImageUrl;
	const key = source === 'session' ? sessionReferenceKey(node, data) : node.referenceImageKey;
	if (!key) return false;
	if (source === 'providedData') return typeof session.settings.providedData?.[key] === 'string';
	const saved = data[key];
	return savedFaceSchema.safeParse(saved).success || savedImageSchema.safeParse(saved).success || typeof saved === 'string';
}

/** Resolves the reference and compares `probe` (the server's embedding of the user's face) with it. */
export async function compareWithReference(node: CompareNode, session: Session, data: Record<string, unknown>, probe: Float32Array | null, deps: ReferenceDeps): Promise<ReferenceResult> {
	const source = referenceSourceOf(node);
	let bytes: Uint8Array | null = null;
	if (source === 'url') {
		if (!node.referenceImageUrl) return { ok: false, source, error: 'no referenceImageUrl' };
		const fetched = await deps.fetchImage(node.referenceImageUrl);
		if (!fetched.ok) return { ok: false, source, error: `fetch failed: ${fetched.error}` };
		bytes = fetched.bytes;
	} else {
		const key = source === 'session' ? sessionReferenceKey(node, data) : node.referenceImageKey;
		if (!key) return { ok: false, source, error: source === 'session' ? 'no face saved in the session yet' : 'no referenceImageKey' };
		if (source === 'providedData') {
			const value = session.settings.providedData?.[key];
			if (typeof value !== 'string') return { ok: false, source, error: `providedData.${key} is missing` };
			bytes = base64Bytes(value);
			if (!bytes) return { ok: false, source, error: `providedData.${key} is not base64` };
		} else {
			const saved = data[key];
			const face = savedFaceSchema.safeParse(saved);
			if (face.success) {
				if (!probe) return { ok: true, source, kind: 'template', similarity: null };
				const template = decodeTemplate(new Uint8Array(Buffer.from(face.data.template, 'base64')));
				return { ok: true, source, kind: 'template', similarity: cosineSimilarity(await deps.protect(probe), template) };
			}
			const image = savedImageSchema.safeParse(saved);
			if (image.success) bytes = 'mediaId' in image.data ? await deps.sink.read(image.data.mediaId) : base64Bytes(image.data.data);
			else if (typeof saved === 'string') bytes = base64Bytes(saved);
			if (!bytes) return { ok: false, source, error: `session data '${key}' holds no face` };
		}
	}
	let found;
	let engine: FaceEngine;
	const notes = { cutOff: false };
	try {
		engine = await deps.engine();
		// Text across the face is read below (it costs the OCR's detector a look), only where it can
		// change the verdict: a match stands with or without it.
		found = await engine.analyseReference(bytes, notes, { readText: false });
	} catch {
		return { ok: false, source, error: 'the reference is not a readable image' };
	}
	if (!found?.face.embedding) {
		return { ok: false, source, error: notes.cutOff ? 'the reference image holds only part of a face (cut off by its edge): send one with the whole face' : 'no face in the reference image' };
	}
	const width = Math.round(found.face.box.width);
	if (width < MIN_REFERENCE_FACE_WIDTH) return { ok: false, source, error: `the face in the reference image is too small to compare (${width} px wide; at least ${MIN_REFERENCE_FACE_WIDTH})` };
	const similarity = probe ? cosineSimilarity(probe, found.face.embedding) : null;
	if (similarity !== null && similarity < faceSettingsOf(node).similarityThreshold) {
		try {
			found.overprint = await engine.textAcross(found);
		} catch (error) {
			// The OCR models failed to load: the non-match is judged as before the check existed.
			logger.warn({ err: error }, 'text across the reference face not read');
		}
	}
	return { ok: true, source, kind: 'image', similarity, ...referenceDoubts(found) };
}

/** What makes a reference face's non-match no evidence of another person (face-verdict.ts: `referenceUnavailable`). */
export type ReferenceDoubts = Pick<Extract<ReferenceResult, { ok: true }>, 'washedOut' | 'blurred' | 'cutByEdge' | 'overprinted' | 'hidden'>;

/** The doubts of a reference face as analysed (FaceEngine.analyseReference), present ones only. */
export function referenceDoubts(found: Pick<AnalysedReference, 'cutByEdge' | 'hidden' | 'sharpnessBalance' | 'overprint'> & { face: Pick<FaceAnalysis, 'quality'> }): ReferenceDoubts {
	const hidden = hiddenList(found.hidden);
	return {
		...(found.face.quality.luminance > MAX_LUMINANCE ? { washedOut: true } : {}),
		...(found.face.quality.sharpness < MIN_REFERENCE_SHARPNESS || found.sharpnessBalance < MIN_SHARPNESS_BALANCE ? { blurred: true } : {}),
		...(found.cutByEdge ? { cutByEdge: true } : {}),
		...(found.overprint !== null ? { overprinted: true } : {}),
		...(hidden.length ? { hidden } : {})
	};
}

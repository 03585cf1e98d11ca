// The upload of a document_scan try to `POST /api/client/nodes/{nodeId}/evidence`, and what the
// server's answer means for the page (moved on, or try again and why).
import type { DocumentClaim, DocumentEvidenceRequest, DocumentRetryReason, DocumentSideName } from '#lib/domain/page/document-evidence.schema.ts';
import { DOCUMENT_RETRY_REASONS } from '#lib/domain/page/document-evidence.schema.ts';
import type { SubmitResponse } from '#lib/domain/page/page.schema.ts';
import type { FaceRunnerLike } from '../face/face-runner.ts';

export type DocumentUploadAnswer =
	| { kind: 'moved' }
	| { kind: 'retry'; reason: DocumentRetryReason; triesLeft: number; documentType: string | null; allowed: string[] }
	| { kind: 'failed'; error: string };

export interface CapturedSide {
	side: DocumentSideName;
	jpeg: Blob;
	t: number;
}

async function base64(blob: Blob): Promise<string> {
	const bytes = new Uint8Array(await blob.arrayBuffer());
	let binary = '';
	for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(binary);
}

const requestId = () => `dev_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (x) => x.toString(16).padStart(2, '0')).join('')}`;

/** Posts the captured side(s) (a lost connection is retried with the same request id). */
export async function uploadDocument(runner: FaceRunnerLike, nodeId: string, sides: CapturedSide[], claim: DocumentClaim, fetchFn: typeof fetch = fetch): Promise<DocumentUploadAnswer> {
	const body: DocumentEvidenceRequest = {
		step: runner.state?.session.step ?? 0,
		requestId: requestId(),
		images: await Promise.all(sides.map(async (s) => ({ side: s.side, image: await base64(s.jpeg), t: Math.round(s.t) }))),
		claim
	};
	const text = JSON.stringify(body);
	let response: SubmitResponse | null = null;
	for (let attempt = 0; attempt < 4 && !response; attempt++) {
		if (attempt) await new Promise((r) => setTimeout(r, 800 * 2 ** attempt));
		try {
			const res = await fetchFn(`/api/client/nodes/${encodeURIComponent(nodeId)}/evidence`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json', ...(runner.client.token ? { authorization: `Bearer ${runner.client.token}` } : {}) },
				body: text,
				cache: 'no-store'
			});
			const json = await res.json().catch(() => null);
			if (res.ok) response = json as SubmitResponse;
			else if (res.status < 500) {
				await runner.refresh().catch(() => undefined);
				return { kind: 'failed', error: json?.error?.message ?? `HTTP ${res.status}` };
			}
		} catch {
			// connection lost: try again
		}
	}
	if (!response) return { kind: 'failed', error: 'network' };
	await runner.refresh().catch(() => undefined);
	const notice = response.notice;
	if (notice?.code === 'document.retry' && response.state.node?.id === nodeId) {
		const reason = String(notice.params?.reason ?? 'unreadable');
		return {
			kind: 'retry',
			reason: (DOCUMENT_RETRY_REASONS as readonly string[]).includes(reason) ? (reason as DocumentRetryReason) : 'unreadable',
			triesLeft: Number(notice.params?.triesLeft ?? 0),
			documentType: typeof notice.params?.documentType === 'string' ? notice.params.documentType : null,
			allowed: String(notice.params?.allowed ?? '').split(',').filter(Boolean)
		};
	}
	return { kind: 'moved' };
}

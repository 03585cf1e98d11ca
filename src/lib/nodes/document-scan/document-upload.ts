// The upload of a document_scan try to `POST /api/client/nodes/{nodeId}/evidence`, and what the
// server's answer means for the page (moved on, or try again and why).
import type { DocumentClaim, DocumentEvidenceRequest, DocumentRetryReason, DocumentSideName } from '#lib/domain/page/document-evidence.schema.ts';
import { DOCUMENT_RETRY_REASONS } from '#lib/domain/page/document-evidence.schema.ts';
import { EvidenceParts, evidenceRequestId, postEvidence } from '#lib/flow/evidence-upload.ts';
import type { PagePort } from '../face/face-upload.ts';

export type DocumentUploadAnswer =
	| { kind: 'moved' }
	| { kind: 'retry'; reason: DocumentRetryReason; triesLeft: number; documentType: string | null; allowed: string[] }
	| { kind: 'failed'; error: string };

export interface CapturedSide {
	side: DocumentSideName;
	jpeg: Blob;
	t: number;
}

/** Posts the captured side(s) (a lost connection is retried with the same request id). */
export async function uploadDocument(runner: PagePort, nodeId: string, sides: CapturedSide[], claim: DocumentClaim, fetchFn: typeof fetch = fetch): Promise<DocumentUploadAnswer> {
	const parts = new EvidenceParts();
	const body: DocumentEvidenceRequest = {
		step: runner.state?.session.step ?? 0,
		requestId: evidenceRequestId('dev'),
		images: sides.map((s) => ({ side: s.side, image: parts.add(s.jpeg), t: Math.round(s.t) })),
		claim
	};
	const posted = await postEvidence(runner, nodeId, body, parts, fetchFn);
	if (!posted.ok) return { kind: 'failed', error: posted.error };
	const response = posted.response;
	// The answer carries the new state: apply it rather than asking for it again.
	if (runner.applyState) runner.applyState(response.state);
	else await runner.refresh().catch(() => undefined);
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

// The upload of a face node's try to `POST /api/client/nodes/{nodeId}/evidence`, and what a camera
// node needs of the page (`PagePort`: the hosted page's PageRunner fits this shape).
import type { FaceEvidenceRequest } from '#lib/domain/page/face-evidence.schema.ts';
import type { PageState } from '#lib/domain/page/page.schema.ts';
import { EvidenceParts, evidenceRequestId, postEvidence } from '#lib/flow/evidence-upload.ts';
import type { EvidencePayload, UploadAnswer } from '#lib/camera/capture-machine.ts';
import { FACE_NODE_TYPES, type FaceNodeType } from '#lib/domain/flow/node-types.ts';
import { isViewOf } from '#lib/domain/nodes/node-contracts.ts';
import type { NodeProps } from '#lib/flow/node-props.ts';
import { FACE_FAILURE_REASONS, FACE_RETRY_HINTS, type FaceFailureReason, type FaceRetryHint } from '#lib/domain/page/face-evidence.schema.ts';

/** What a camera node uses of the page (PageRunner has it all; tests pass a small fake). */
export interface PagePort {
	state: PageState | null;
	client: { token: string | null };
	media?: { stream: MediaStream | null };
	act(action: string, payload?: Record<string, unknown>): Promise<unknown>;
	refresh(): Promise<void>;
	/** Applies a state the server returned (avoids a second request); optional. */
	applyState?(state: PageState): void;
}

export type FaceNodeProps = NodeProps<FaceNodeType>;

/** Posts the evidence (retrying lost connections with the same request id) and says what it led to. */
export async function uploadEvidence(runner: PagePort, nodeId: string, payload: EvidencePayload, fetchFn: typeof fetch = fetch): Promise<UploadAnswer> {
	const step = runner.state?.session.step ?? 0;
	const parts = new EvidenceParts();
	const body: FaceEvidenceRequest = {
		step,
		requestId: evidenceRequestId('fev'),
		frames: payload.frames.map((f) => ({ image: parts.add(f.image), t: f.t, kind: f.kind })),
		...(payload.alignedFace ? { alignedFace: parts.add(payload.alignedFace) } : {}),
		...(payload.lightStartedAt !== undefined ? { lightStartedAt: payload.lightStartedAt } : {}),
		...(payload.lightChangedAt?.length ? { lightChangedAt: payload.lightChangedAt } : {}),
		claim: payload.claim
	};
	const posted = await postEvidence(runner, nodeId, body, parts, fetchFn);
	if (!posted.ok) return { kind: 'failed', error: posted.error };
	const response = posted.response;
	if (runner.applyState) runner.applyState(response.state);
	const notice = response.notice;
	if (notice?.code === 'face.retry' && response.state.node?.id === nodeId) {
		const reason = String(notice.params?.reason ?? 'error');
		const next = response.state.node;
		const challenge = isViewOf(next, FACE_NODE_TYPES) ? next.props.challenge : null;
		const light = isViewOf(next, FACE_NODE_TYPES) ? next.props.light : null;
		// Stay on this node: the page keeps its state, the machine shows why and tries again.
		if (!runner.applyState) void runner.refresh().catch(() => undefined);
		return {
			kind: 'retry',
			reason: (FACE_FAILURE_REASONS as readonly string[]).includes(reason) ? (reason as FaceFailureReason) : 'error',
			...((FACE_RETRY_HINTS as readonly unknown[]).includes(notice.params?.hint) ? { hint: notice.params!.hint as FaceRetryHint } : {}),
			challenge,
			light,
			triesLeft: Number(notice.params?.triesLeft ?? 0)
		};
	}
	if (!runner.applyState) await runner.refresh().catch(() => undefined);
	return { kind: 'moved' };
}

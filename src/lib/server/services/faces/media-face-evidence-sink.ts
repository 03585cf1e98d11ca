// The face evidence sink over the media service (issue 4): captures become `user_photo` media (and fire
// `media.user_photo` in the node's transaction), frames become `screenshot` media (the report's
// screenshots and the post-session aiAnalysis read them).
import type { Repos, UnitOfWork } from '../../repositories/index.ts';
import type { MediaService } from '../media.service.ts';
import type { FaceEvidenceInput, FaceEvidenceKind, FaceEvidenceSink, StoredFaceEvidence } from './face-evidence-sink.ts';

export class MediaFaceEvidenceSink implements FaceEvidenceSink {
	constructor(private readonly deps: { media: MediaService; uow: UnitOfWork }) {}

	saveUserPhoto(repos: Repos, input: FaceEvidenceInput): Promise<StoredFaceEvidence> {
		return this.#save(repos, 'user_photo', input);
	}

	saveScreenshot(repos: Repos, input: FaceEvidenceInput): Promise<StoredFaceEvidence> {
		return this.#save(repos, 'screenshot', input);
	}

	async read(id: string): Promise<Uint8Array | null> {
		const row = await this.deps.uow.repos.media.find(id);
		if (!row || row.deletedAt !== null) return null;
		const body = await this.deps.media.read(row.storeKey);
		return body ? new Uint8Array(await new Response(body).arrayBuffer()) : null;
	}

	async list(sessionId: string, kind?: FaceEvidenceKind): Promise<StoredFaceEvidence[]> {
		const rows = await this.deps.media.list(sessionId, kind ? [kind] : ['user_photo', 'screenshot']);
		return rows.map((r) => ({ id: r.id, sessionId: r.sessionId, nodeId: r.nodeId ?? '', kind: r.kind as FaceEvidenceKind, createdAt: r.createdAt }));
	}

	async #save(repos: Repos, kind: FaceEvidenceKind, input: FaceEvidenceInput): Promise<StoredFaceEvidence> {
		// Bytes first (outside any table), then the row and its event in the node's transaction.
		const stored = await this.deps.media.put({ sessionId: input.sessionId, kind, bytes: input.jpeg });
		try {
			const info = await this.deps.media.record(repos, stored, { nodeId: input.nodeId });
			return { id: info.id, sessionId: info.sessionId, nodeId: input.nodeId, kind, createdAt: info.createdAt };
		} catch (err) {
			await this.deps.media.forget(stored);
			throw err;
		}
	}
}

// Where face evidence goes once the server has judged it: the aligned face of a capture (the spec's
// user photo, which fires `media.user_photo`) and one frame per face node (the report's screenshots).
// A port, so the runner does not depend on how media is stored: the media service (issue 4) implements
// it; until it is wired, the app keeps evidence in memory (bounded) with MemoryFaceEvidenceSink.
import { newId } from '../../crypto.ts';
import type { Repos } from '../../repositories/index.ts';

export type FaceEvidenceKind = 'user_photo' | 'screenshot';

export interface FaceEvidenceInput {
	sessionId: string;
	nodeId: string;
	/** JPEG bytes (checked and decoded by the server before they get here). */
	jpeg: Uint8Array;
}

export interface StoredFaceEvidence {
	id: string;
	sessionId: string;
	nodeId: string;
	kind: FaceEvidenceKind;
	createdAt: number;
}

export interface FaceEvidenceSink {
	/**
	 * Stores a face capture as the session's user photo; the media implementation also records the
	 * `media.user_photo` event in the caller's transaction (`repos`).
	 */
	saveUserPhoto(repos: Repos, input: FaceEvidenceInput): Promise<StoredFaceEvidence>;
	/** Stores a frame of a face node as a screenshot (report.screenshots, aiAnalysis). */
	saveScreenshot(repos: Repos, input: FaceEvidenceInput): Promise<StoredFaceEvidence>;
	/** The bytes of something stored before (a face reference, screenshots for analysis), or null. */
	read(id: string): Promise<Uint8Array | null>;
	/** What a session has stored, oldest first. */
	list(sessionId: string, kind?: FaceEvidenceKind): Promise<StoredFaceEvidence[]>;
}

/**
 * In-memory sink: tests, and the default until the media service is wired. Keeps the evidence of the
 * last `maxSessions` sessions only, so a long-running process does not grow without bound.
 */
export class MemoryFaceEvidenceSink implements FaceEvidenceSink {
	readonly #items = new Map<string, StoredFaceEvidence & { bytes: Uint8Array }>();
	readonly #sessions = new Map<string, string[]>();
	/** Every user photo saved, in order (tests look at what would have fired media.user_photo). */
	readonly userPhotoEvents: StoredFaceEvidence[] = [];

	constructor(
		private readonly now: () => number = Date.now,
		private readonly maxSessions = 200
	) {}

	async saveUserPhoto(_repos: Repos, input: FaceEvidenceInput): Promise<StoredFaceEvidence> {
		const item = this.#save('user_photo', input);
		this.userPhotoEvents.push(item);
		return item;
	}

	async saveScreenshot(_repos: Repos, input: FaceEvidenceInput): Promise<StoredFaceEvidence> {
		return this.#save('screenshot', input);
	}

	async read(id: string): Promise<Uint8Array | null> {
		return this.#items.get(id)?.bytes ?? null;
	}

	async list(sessionId: string, kind?: FaceEvidenceKind): Promise<StoredFaceEvidence[]> {
		return (this.#sessions.get(sessionId) ?? [])
			.map((id) => this.#items.get(id)!)
			.filter((i) => i && (!kind || i.kind === kind))
			.map(({ bytes: _bytes, ...info }) => info);
	}

	#save(kind: FaceEvidenceKind, input: FaceEvidenceInput): StoredFaceEvidence {
		const info: StoredFaceEvidence = { id: newId('med'), sessionId: input.sessionId, nodeId: input.nodeId, kind, createdAt: this.now() };
		this.#items.set(info.id, { ...info, bytes: input.jpeg });
		const ids = this.#sessions.get(input.sessionId) ?? [];
		this.#sessions.delete(input.sessionId);
		this.#sessions.set(input.sessionId, [...ids, info.id]);
		while (this.#sessions.size > this.maxSessions) {
			const [oldest, dropped] = this.#sessions.entries().next().value as [string, string[]];
			for (const id of dropped) this.#items.delete(id);
			this.#sessions.delete(oldest);
		}
		return info;
	}
}

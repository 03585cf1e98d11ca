// Where face evidence goes once the server has judged it: the aligned face of a capture (the spec's
// user photo, which fires `media.user_photo`) and one frame per face node (the report's screenshots).
// A port, so the runner does not depend on how media is stored (media-face-evidence-sink.ts implements it).
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


import { ApiError } from '#lib/domain/errors.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import type { SessionSettings } from '#lib/domain/session/settings.schema.ts';
import { newId, sha256Hex } from '../crypto.ts';
import { logger } from '../logger.ts';
import { sniffMediaType, SNIFF_BYTES } from '../media/magic-bytes.ts';
import type { Repos, UnitOfWork } from '../repositories/index.ts';
import type { PagePrincipal } from './page.service.ts';
import { mediaKeyPrefix, MEDIA_MAX_BYTES, MEDIA_TYPES, type MediaService } from './media.service.ts';

/** One MediaRecorder chunk at most (a few seconds of camera video are a few hundred KB). */
export const VIDEO_CHUNK_MAX_BYTES = 8 * 1024 * 1024;
/** Highest chunk number accepted: a chunk a second for over five hours. */
export const VIDEO_MAX_SEQ = 20_000;
/** How long after the end of a session the last chunks may still arrive (unless the page says it sent the last). */
export const VIDEO_GRACE_MS = 8_000;

/** What the server holds of a session's recording: the page resumes from it after a dropped connection. */
export interface VideoUploadStatus {
	/** Whether this session records video at all (retainSessionMedia or videoAIAnalysisEnabled). */
	enabled: boolean;
	state: 'none' | 'recording' | 'closed' | 'assembled' | 'empty' | 'discarded';
	/** Chunks stored (not counting duplicates). */
	chunks: number;
	bytes: number;
	/** One past the highest seq stored: where a fresh recorder continues. */
	nextSeq: number;
	/** Seqs below `nextSeq` the server does not have (first 1000): send these again. */
	missing: number[];
	finalSeq: number | null;
	maxChunkBytes: number;
}

export interface ChunkResult extends VideoUploadStatus {
	seq: number;
	/** The server already had this chunk (same bytes): nothing was changed. */
	duplicate: boolean;
}

/** Sessions record video only when something will use it. */
export function videoEnabled(settings: Pick<SessionSettings, 'retainSessionMedia' | 'videoAIAnalysisEnabled'>): boolean {
	return settings.retainSessionMedia === true || settings.videoAIAnalysisEnabled === true;
}

const chunkPrefix = (sessionId: string) => `${mediaKeyPrefix(sessionId)}video-chunks/`;
export const userVideoKey = (sessionId: string) => `${mediaKeyPrefix(sessionId)}user-video`;

/**
 * The session video: numbered MediaRecorder chunks uploaded while the camera is on (idempotent
 * per seq, gaps reported, resumable), assembled into one file after the session ends.
 */
export class VideoService {
	constructor(private readonly deps: { uow: UnitOfWork; media: MediaService; now: () => number }) {}

	async status(principal: PagePrincipal): Promise<VideoUploadStatus> {
		const session = await this.deps.uow.repos.sessions.findById(principal.sessionId);
		if (!session) throw new ApiError('not_found_error', 'Session not found', { code: 'session_not_found' });
		return this.statusOf(this.deps.uow.repos, session);
	}

	/**
	 * Stores chunk `seq`. The same bytes again are acknowledged as a duplicate; other bytes for a
	 * stored seq are refused (409 chunk_conflict). Chunk 0 must be the start of a WebM or MP4 file.
	 * `final` marks the last chunk, so assembly need not wait for the grace period.
	 */
	async putChunk(principal: PagePrincipal, seq: number, bytes: Uint8Array, final = false): Promise<ChunkResult> {
		if (principal.role !== 'primary') throw new ApiError('validation_error', 'This device only follows the verification', { code: 'node_not_current', status: 409 });
		if (!Number.isSafeInteger(seq) || seq < 0 || seq > VIDEO_MAX_SEQ) throw new ApiError('validation_error', `'seq' must be an integer from 0 to ${VIDEO_MAX_SEQ}`);
		if (bytes.length === 0) throw new ApiError('validation_error', 'The chunk is empty', { code: 'unsupported_media_type', status: 415 });
		if (seq === 0) {
			const type = sniffMediaType(bytes.subarray(0, SNIFF_BYTES));
			if (!type || !MEDIA_TYPES.user_video.includes(type)) {
				throw new ApiError('validation_error', 'Chunk 0 must start a WebM or MP4 recording (decided from its bytes)', { code: 'unsupported_media_type', status: 415 });
			}
		}
		const repos = this.deps.uow.repos;
		const session = await repos.sessions.findById(principal.sessionId);
		if (!session) throw new ApiError('not_found_error', 'Session not found', { code: 'session_not_found' });
		if (!videoEnabled(session.settings)) throw new ApiError('validation_error', 'This session does not record video', { code: 'video_not_enabled', status: 409 });
		if (session.status === 'created') throw new ApiError('validation_error', 'The session has not started', { code: 'video_closed', status: 409 });
		const recording = await repos.media.findRecording(session.id);
		if (recording && recording.state !== 'recording') throw closed();
		if (!recording && session.status !== 'inProgress') throw closed();
		if ((recording?.bytes ?? 0) + bytes.length > MEDIA_MAX_BYTES.user_video) throw new ApiError('validation_error', 'The recording is longer than this server keeps', { code: 'body_too_large', status: 413 });

		const sha256 = sha256Hex(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
		// The hash in the key keeps a conflicting upload from overwriting the stored chunk.
		const storeKey = `${chunkPrefix(session.id)}${String(seq).padStart(6, '0')}-${sha256.slice(0, 16)}`;
		await this.deps.media.write(storeKey, bytes, 'application/octet-stream', VIDEO_CHUNK_MAX_BYTES);
		const now = this.deps.now();
		let outcome: { duplicate: boolean; status: VideoUploadStatus };
		try {
			outcome = await this.deps.uow.transaction(async (tx) => {
				await tx.media.ensureRecording(session.id, now);
				const rec = await tx.media.findRecording(session.id, true);
				if (!rec || rec.state !== 'recording') throw closed();
				const { inserted, existing } = await tx.media.insertChunk({ sessionId: session.id, seq, size: bytes.length, sha256, storeKey, createdAt: now });
				if (!inserted && existing.sha256 !== sha256) {
					throw new ApiError('validation_error', `Chunk ${seq} is already stored with other content`, { code: 'chunk_conflict', status: 409 });
				}
				if (final) {
					await tx.media.updateRecording(session.id, { finalSeq: seq, updatedAt: now });
					// A finished session need not wait out the grace period any more.
					await tx.postSession.expedite(session.id, now);
				}
				return { duplicate: !inserted, status: await this.statusOf(tx, (await tx.sessions.findById(session.id))!) };
			});
		} catch (err) {
			// Keep the stored object only when it is the one the row points to.
			const row = (await repos.media.listChunks(session.id)).find((c) => c.seq === seq);
			if (row?.storeKey !== storeKey) await this.deps.media.store.delete(storeKey).catch(() => {});
			throw err;
		}
		return { seq, duplicate: outcome.duplicate, ...outcome.status };
	}

	private async statusOf(repos: Repos, session: Session): Promise<VideoUploadStatus> {
		const recording = await repos.media.findRecording(session.id);
		const chunks = recording ? await repos.media.listChunks(session.id) : [];
		const seqs = new Set(chunks.map((c) => c.seq));
		const nextSeq = chunks.length ? chunks[chunks.length - 1].seq + 1 : 0;
		const missing: number[] = [];
		for (let s = 0; s < nextSeq && missing.length < 1000; s++) if (!seqs.has(s)) missing.push(s);
		return {
			enabled: videoEnabled(session.settings),
			state: recording?.state ?? 'none',
			chunks: chunks.length,
			bytes: recording?.bytes ?? 0,
			nextSeq,
			missing,
			finalSeq: recording?.finalSeq ?? null,
			maxChunkBytes: VIDEO_CHUNK_MAX_BYTES
		};
	}

	/**
	 * Closes the recording (later chunks are refused) and concatenates its chunks in seq order into
	 * one file. Fires `media.user_video` when the session retains its media (otherwise the file only
	 * lives until what is derived from it is stored, so a link to it would be dead on arrival).
	 * Idempotent: a rerun after a crash assembles again to the same key.
	 */
	async assemble(sessionId: string): Promise<{ mediaId: string | null; missing: number[]; state: string }> {
		const closedRec = await this.deps.uow.transaction(async (tx) => {
			const rec = await tx.media.findRecording(sessionId, true);
			if (!rec) return null;
			if (rec.state === 'recording') await tx.media.updateRecording(sessionId, { state: 'closed', updatedAt: this.deps.now() });
			return rec;
		});
		if (!closedRec) return { mediaId: null, missing: [], state: 'none' };
		if (closedRec.state !== 'recording' && closedRec.state !== 'closed') return { mediaId: closedRec.mediaId, missing: closedRec.missing ?? [], state: closedRec.state };

		const repos = this.deps.uow.repos;
		const session = (await repos.sessions.findById(sessionId))!;
		const chunks = await repos.media.listChunks(sessionId);
		if (!chunks.length) {
			await repos.media.updateRecording(sessionId, { state: 'empty', updatedAt: this.deps.now() });
			return { mediaId: null, missing: [], state: 'empty' };
		}
		const present = new Set(chunks.map((c) => c.seq));
		const missing: number[] = [];
		for (let s = 0; s <= chunks[chunks.length - 1].seq; s++) if (!present.has(s)) missing.push(s);
		if (missing.length) logger.warn({ sessionId, missing: missing.slice(0, 20) }, 'session video assembled with gaps');

		const store = this.deps.media.store;
		let head: Uint8Array | null = null;
		async function* concatenated(): AsyncIterable<Uint8Array> {
			for (const chunk of chunks) {
				const object = await store.get(chunk.storeKey);
				if (!object) throw new Error(`video chunk ${chunk.seq} of ${sessionId} is missing from the store`);
				const reader = object.body.getReader();
				for (;;) {
					const { done, value } = await reader.read();
					if (done) break;
					if (!head) head = value;
					yield value;
				}
			}
		}
		const key = userVideoKey(sessionId);
		const { size } = await store.put(key, concatenated(), 'video/webm', { maxBytes: MEDIA_MAX_BYTES.user_video });
		const contentType = (head && sniffMediaType((head as Uint8Array).subarray(0, SNIFF_BYTES))) || 'application/octet-stream';
		const retain = session.settings.retainSessionMedia === true;
		const mediaId = newId('med');
		await this.deps.uow.transaction(async (tx) => {
			await this.deps.media.record(tx, { id: mediaId, sessionId, kind: 'user_video', contentType, size, storeKey: key }, { fireEvent: retain });
			await tx.media.updateRecording(sessionId, { state: 'assembled', mediaId, missing, updatedAt: this.deps.now() });
			await tx.media.deleteChunks(sessionId);
		});
		await store.deletePrefix(chunkPrefix(sessionId));
		return { mediaId, missing, state: 'assembled' };
	}
}

const closed = () => new ApiError('validation_error', 'The recording of this session is closed', { code: 'video_closed', status: 409 });

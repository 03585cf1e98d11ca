import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { media, videoChunks, videoRecordings, type MediaKind } from '../db/schema.ts';

export type { MediaKind };

/** A stored photo, document image or video; its bytes are in the media store under `storeKey`. */
export interface MediaRecord {
	id: string;
	sessionId: string;
	kind: MediaKind;
	/** The node that captured it, when one did. */
	nodeId: string | null;
	/** Sniffed from the bytes, never taken from a request header. */
	contentType: string;
	size: number;
	storeKey: string;
	createdAt: number;
	/** Bytes removed (session end without retainSessionMedia, or retention); the record stays. */
	deletedAt: number | null;
}
export type VideoChunkRow = typeof videoChunks.$inferSelect;
export type VideoRecordingRow = typeof videoRecordings.$inferSelect;

/** Media rows and the session video's chunks. */
export class MediaRepository {
	constructor(private readonly db: DbOrTx) {}

	async insert(row: typeof media.$inferInsert): Promise<void> {
		await this.db.insert(media).values(row);
	}

	async find(id: string): Promise<MediaRecord | null> {
		const [row] = await this.db.select().from(media).where(eq(media.id, id));
		return row ?? null;
	}

	/** A session's media that still has its bytes, oldest first (optionally of some kinds). */
	async listLive(sessionId: string, kinds?: MediaKind[]): Promise<MediaRecord[]> {
		const where = [eq(media.sessionId, sessionId), isNull(media.deletedAt)];
		if (kinds?.length) where.push(inArray(media.kind, kinds));
		return this.db.select().from(media).where(and(...where)).orderBy(asc(media.createdAt), asc(media.id));
	}

	async markDeleted(ids: string[], at: number): Promise<void> {
		if (ids.length) await this.db.update(media).set({ deletedAt: at }).where(and(inArray(media.id, ids), isNull(media.deletedAt)));
	}

	// --- session video -----------------------------------------------------------------------

	async findRecording(sessionId: string, lock = false): Promise<VideoRecordingRow | null> {
		const q = this.db.select().from(videoRecordings).where(eq(videoRecordings.sessionId, sessionId));
		const [row] = lock ? await q.for('update') : await q;
		return row ?? null;
	}

	async ensureRecording(sessionId: string, now: number): Promise<void> {
		await this.db.insert(videoRecordings).values({ sessionId, state: 'recording', createdAt: now, updatedAt: now }).onConflictDoNothing();
	}

	async updateRecording(sessionId: string, values: Partial<typeof videoRecordings.$inferInsert>): Promise<void> {
		await this.db.update(videoRecordings).set(values).where(eq(videoRecordings.sessionId, sessionId));
	}

	/** Inserts a chunk unless that seq is already stored; returns the row that holds the seq. */
	async insertChunk(row: typeof videoChunks.$inferInsert): Promise<{ inserted: boolean; existing: VideoChunkRow }> {
		const inserted = await this.db.insert(videoChunks).values(row).onConflictDoNothing().returning();
		if (inserted.length) {
			await this.db
				.update(videoRecordings)
				.set({ bytes: sql`${videoRecordings.bytes} + ${row.size}`, updatedAt: row.createdAt })
				.where(eq(videoRecordings.sessionId, row.sessionId));
			return { inserted: true, existing: inserted[0] };
		}
		const [existing] = await this.db
			.select()
			.from(videoChunks)
			.where(and(eq(videoChunks.sessionId, row.sessionId), eq(videoChunks.seq, row.seq)));
		return { inserted: false, existing };
	}

	async listChunks(sessionId: string): Promise<VideoChunkRow[]> {
		return this.db.select().from(videoChunks).where(eq(videoChunks.sessionId, sessionId)).orderBy(asc(videoChunks.seq));
	}

	async deleteChunks(sessionId: string): Promise<void> {
		await this.db.delete(videoChunks).where(eq(videoChunks.sessionId, sessionId));
	}
}

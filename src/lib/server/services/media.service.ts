import { ApiError } from '#lib/domain/errors.ts';
import type { EventType, WebhookMedia } from '#lib/domain/webhook/webhook-event.schema.ts';
import { newId, type ServerKeys } from '../crypto.ts';
import type { MediaKind } from '../db/schema.ts';
import { logger } from '../logger.ts';
import { IMAGE_TYPES, sniffMediaType, SNIFF_BYTES, type SniffedMediaType } from '../media/magic-bytes.ts';
import { RangeNotSatisfiableError, type ByteRange, type MediaBody, type MediaObject, type MediaStore } from '../media/media-store.ts';
import { signMediaUrl, verifyMediaSignature } from '../media/signed-url.ts';
import type { Repos, UnitOfWork } from '../repositories/index.ts';
import type { MediaRow } from '../repositories/media.repository.ts';
import { recordEvent } from './event.service.ts';

export type { MediaKind };

/** Largest accepted object per kind (uploads are refused beyond it, before anything is stored). */
export const MEDIA_MAX_BYTES: Record<MediaKind, number> = {
	user_photo: 5 * 1024 * 1024,
	screenshot: 5 * 1024 * 1024,
	document_photo: 12 * 1024 * 1024,
	user_video: 500 * 1024 * 1024
};

/** What each kind may be, decided from the bytes (never from a header or file name). */
export const MEDIA_TYPES: Record<MediaKind, readonly SniffedMediaType[]> = {
	user_photo: IMAGE_TYPES,
	screenshot: IMAGE_TYPES,
	document_photo: IMAGE_TYPES,
	user_video: ['video/webm', 'video/mp4']
};

/**
 * Kinds deleted when the session ends unless the session has `retainSessionMedia` (the spec:
 * "document images and session video are discarded at session end"). Face captures and
 * screenshots stay until the retention purge: the report's screenshots and the face issue's
 * analyses are derived from them.
 */
export const DISCARDED_AT_SESSION_END: readonly MediaKind[] = ['document_photo', 'user_video'];

const EVENT_OF: Partial<Record<MediaKind, EventType>> = {
	user_photo: 'media.user_photo',
	document_photo: 'media.document_photo',
	user_video: 'media.user_video'
};

/** Bytes already in the store, not yet recorded (the first half of an upload). */
export interface StoredMedia {
	id: string;
	sessionId: string;
	kind: MediaKind;
	contentType: string;
	size: number;
	storeKey: string;
}

/** What callers get back about a recorded media object. */
export interface MediaInfo {
	id: string;
	sessionId: string;
	kind: MediaKind;
	nodeId: string | null;
	contentType: string;
	size: number;
	createdAt: number;
}

export const mediaKeyPrefix = (sessionId: string) => `sessions/${sessionId}/`;

export interface MediaServiceDeps {
	uow: UnitOfWork;
	store: MediaStore;
	keys: ServerKeys;
	now: () => number;
	publicBaseUrl: string;
}

/**
 * Session media over a MediaStore: upload in two halves (bytes into the store outside any
 * transaction, then the row and its `media.*` event inside the caller's), signed download links,
 * and deletion. Keys are `sessions/<sessionId>/<mediaId>` so one prefix delete removes a session's
 * bytes.
 */
export class MediaService {
	constructor(private readonly deps: MediaServiceDeps) {}

	get store(): MediaStore {
		return this.deps.store;
	}

	/**
	 * Checks the bytes (size cap, type by magic bytes) and stores them. Throws 413 / 415 ApiErrors.
	 * Call outside a transaction; then `record` inside one, or `forget` if that transaction fails.
	 */
	async put(input: { sessionId: string; kind: MediaKind; bytes: Uint8Array }): Promise<StoredMedia> {
		const { sessionId, kind, bytes } = input;
		if (bytes.length === 0) throw new ApiError('validation_error', 'The upload is empty', { code: 'unsupported_media_type', status: 415 });
		if (bytes.length > MEDIA_MAX_BYTES[kind]) throw tooLarge(MEDIA_MAX_BYTES[kind]);
		const contentType = sniffMediaType(bytes.subarray(0, SNIFF_BYTES));
		if (!contentType || !MEDIA_TYPES[kind].includes(contentType)) {
			throw new ApiError('validation_error', `A ${kind.replace('_', ' ')} must be one of ${MEDIA_TYPES[kind].join(', ')} (decided from the file's content${contentType ? `; this is ${contentType}` : ''})`, {
				code: 'unsupported_media_type',
				status: 415
			});
		}
		const id = newId('med');
		const storeKey = `${mediaKeyPrefix(sessionId)}${id}`;
		await this.deps.store.put(storeKey, bytes, contentType, { maxBytes: MEDIA_MAX_BYTES[kind] });
		return { id, sessionId, kind, contentType, size: bytes.length, storeKey };
	}

	/**
	 * Records stored bytes as the session's media and, for user/document photos and the session
	 * video, writes the `media.*` event in the same transaction (pass the transaction's repos).
	 */
	async record(repos: Repos, stored: StoredMedia, options: { nodeId?: string | null; fireEvent?: boolean; at?: number } = {}): Promise<MediaInfo> {
		const at = options.at ?? this.deps.now();
		const session = await repos.sessions.findById(stored.sessionId);
		if (!session) throw new ApiError('not_found_error', 'Session not found', { code: 'session_not_found' });
		const row = { id: stored.id, sessionId: stored.sessionId, kind: stored.kind, nodeId: options.nodeId ?? null, contentType: stored.contentType, size: stored.size, storeKey: stored.storeKey, createdAt: at };
		await repos.media.insert(row);
		const type = EVENT_OF[stored.kind];
		if (type && options.fireEvent !== false) {
			await recordEvent(repos, { type, sessionId: session.id, accountId: session.accountId, env: session.env, at, payload: { media: this.mediaObject(row, at) } });
		}
		return toInfo(row);
	}

	/** Removes bytes whose recording transaction failed (best effort; retention catches the rest). */
	async forget(stored: StoredMedia): Promise<void> {
		await this.deps.store.delete(stored.storeKey).catch((err) => logger.warn({ err, key: stored.storeKey }, 'could not delete unrecorded media'));
	}

	/** `put` then `record` in a transaction of its own. */
	async ingest(input: { sessionId: string; kind: MediaKind; bytes: Uint8Array; nodeId?: string | null; fireEvent?: boolean }): Promise<MediaInfo> {
		const stored = await this.put(input);
		try {
			return await this.deps.uow.transaction((repos) => this.record(repos, stored, input));
		} catch (err) {
			await this.forget(stored);
			throw err;
		}
	}

	/** A signed download link for a media id, valid 15 minutes from `now`. */
	signedUrl(id: string, now = this.deps.now()): { url: string; expires: number } {
		return signMediaUrl({ id, secret: this.deps.keys.mediaKey, now, baseUrl: this.deps.publicBaseUrl });
	}

	/** The spec's media object (events) with a freshly signed link. */
	mediaObject(row: Pick<MediaRow, 'id' | 'createdAt' | 'contentType'>, now = this.deps.now()): WebhookMedia {
		const { url, expires } = this.signedUrl(row.id, now);
		return { id: row.id, createdAt: row.createdAt, url, expires, contentType: row.contentType };
	}

	/**
	 * `GET /media/<id>?exp&sig`: checks the link first (403 whatever the id, so a bad link reveals
	 * nothing), then the row (404 once its bytes are deleted), then reads the bytes, ranged if asked.
	 */
	async open(id: string, exp: string | null, sig: string | null, range?: { parse: (size: number) => ByteRange | null | 'unsatisfiable' }): Promise<{ row: MediaRow; object: MediaObject }> {
		if (!verifyMediaSignature({ id, exp, sig, secret: this.deps.keys.mediaKey, now: this.deps.now() })) {
			throw new ApiError('authentication_error', 'This media link is invalid or has expired; fetch the session again for a fresh one', { code: 'media_link_invalid', status: 403 });
		}
		const row = await this.deps.uow.repos.media.find(id);
		if (!row || row.deletedAt !== null) throw new ApiError('not_found_error', 'This media no longer exists', { code: 'media_not_found' });
		const wanted = range?.parse(row.size) ?? null;
		if (wanted === 'unsatisfiable') throw new RangeNotSatisfiableError(row.size);
		const object = await this.deps.store.get(row.storeKey, wanted ? { range: wanted } : {});
		if (!object) throw new ApiError('not_found_error', 'This media no longer exists', { code: 'media_not_found' });
		return { row, object };
	}

	/**
	 * Deletes the bytes of a session's media of `kinds` and marks the rows deleted (rows stay so the
	 * report can say what existed). Idempotent.
	 */
	async deleteForSession(sessionId: string, kinds: readonly MediaKind[]): Promise<number> {
		const rows = await this.deps.uow.repos.media.listLive(sessionId, [...kinds]);
		for (const row of rows) await this.deps.store.delete(row.storeKey);
		await this.deps.uow.repos.media.markDeleted(
			rows.map((r) => r.id),
			this.deps.now()
		);
		return rows.length;
	}

	/** Live media of a session (for the report). */
	list(sessionId: string, kinds?: MediaKind[], repos: Repos = this.deps.uow.repos): Promise<MediaRow[]> {
		return repos.media.listLive(sessionId, kinds);
	}

	/** Streams an object's bytes (for analysis jobs). */
	async read(storeKey: string): Promise<ReadableStream<Uint8Array> | null> {
		return (await this.deps.store.get(storeKey))?.body ?? null;
	}

	async write(storeKey: string, body: MediaBody, contentType: string, maxBytes?: number) {
		return this.deps.store.put(storeKey, body, contentType, maxBytes ? { maxBytes } : {});
	}
}

const toInfo = (r: { id: string; sessionId: string; kind: MediaKind; nodeId: string | null; contentType: string; size: number; createdAt: number }): MediaInfo => ({
	id: r.id,
	sessionId: r.sessionId,
	kind: r.kind,
	nodeId: r.nodeId,
	contentType: r.contentType,
	size: r.size,
	createdAt: r.createdAt
});

export const tooLarge = (max: number) =>
	new ApiError('validation_error', `The upload is larger than ${max >= 1024 * 1024 ? `${Math.round(max / 1024 / 1024)} MB` : `${Math.round(max / 1024)} KB`}`, { code: 'body_too_large', status: 413 });

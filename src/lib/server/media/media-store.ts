/**
 * Where media bytes (face captures, document images, session video) live. Shaped after object
 * storage so an S3-compatible implementation maps one method to one request: put → PutObject
 * (or a multipart upload for streams), get → GetObject with `Range`, delete → DeleteObject,
 * deletePrefix → ListObjectsV2 + DeleteObjects, exists → HeadObject. Keys are opaque, `/`-separated
 * names; callers choose them (e.g. `sessions/<sessionId>/<mediaId>`) so that retention can drop a
 * session's media with one `deletePrefix`.
 */

/** Bytes in memory, a web stream, or any async iterable of chunks (a Node `Readable` is one). */
export type MediaBody = Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface PutOptions {
	/** Refuse (and store nothing) once the body exceeds this many bytes. */
	maxBytes?: number;
}

export interface PutResult {
	key: string;
	size: number;
}

/** Inclusive byte range, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
	start: number;
	/** Defaults to the last byte. */
	end?: number;
}

export interface MediaObject {
	body: ReadableStream<Uint8Array>;
	/** Size of the whole object, whatever range was asked for. */
	size: number;
	contentType: string;
	/** The range actually returned when one was asked for (end clamped to the last byte). */
	range?: { start: number; end: number };
}

export interface MediaStore {
	/** Stores the object atomically: readers see the old object or the new one, never a partial one. */
	put(key: string, body: MediaBody, contentType: string, options?: PutOptions): Promise<PutResult>;
	/** The object, or null when there is none. Throws `RangeNotSatisfiableError` for a bad range. */
	get(key: string, options?: { range?: ByteRange }): Promise<MediaObject | null>;
	/** Idempotent: deleting a missing key is not an error. */
	delete(key: string): Promise<void>;
	/** Deletes every object whose key starts with `prefix` (a plain string prefix, as in S3). */
	deletePrefix(prefix: string): Promise<number>;
	exists(key: string): Promise<boolean>;
}

export class InvalidMediaKeyError extends Error {
	constructor(key: string) {
		super(`invalid media key: ${JSON.stringify(key.slice(0, 100))}`);
		this.name = 'InvalidMediaKeyError';
	}
}

export class MediaTooLargeError extends Error {
	constructor(readonly maxBytes: number) {
		super(`media exceeds ${maxBytes} bytes`);
		this.name = 'MediaTooLargeError';
	}
}

export class RangeNotSatisfiableError extends Error {
	constructor(readonly size: number) {
		super('requested range not satisfiable');
		this.name = 'RangeNotSatisfiableError';
	}
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
export const MAX_KEY_LENGTH = 512;

/**
 * Keys are `/`-joined segments of letters, digits, `_`, `-` and `.`, none starting with `.` (so no `..`,
 * no hidden files, and no clash with a store's own temp files), at most 512 characters. The rule holds
 * for every implementation so that keys written to one store are valid in any other.
 */
export function isValidMediaKey(key: string): boolean {
	if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
	return key.split('/').every((s) => SEGMENT.test(s));
}

export function assertValidMediaKey(key: string): void {
	if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
}

/**
 * A prefix is a key's start: whole segments, optionally followed by `/` or by a partial last segment.
 * Empty is refused so that no bug can wipe the whole store.
 */
export function assertValidMediaPrefix(prefix: string): void {
	const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
	if (!isValidMediaKey(trimmed)) throw new InvalidMediaKeyError(prefix);
}

/** Normalises any accepted body into an async iterable of byte chunks. */
export async function* iterateBody(body: MediaBody): AsyncIterable<Uint8Array> {
	if (body instanceof Uint8Array) {
		yield body;
		return;
	}
	if (body instanceof ReadableStream) {
		const reader = body.getReader();
		let finished = false;
		try {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) {
					finished = true;
					return;
				}
				yield value;
			}
		} finally {
			// A consumer that stopped early (too large) must stop the producer too.
			if (!finished) await reader.cancel().catch(() => {});
			reader.releaseLock();
		}
	}
	yield* body;
}

import { validationError, ApiError } from '#lib/domain/errors.ts';
import { screenJson } from './json-screen.ts';

export const MAX_JSON_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Reads a JSON body with a size cap (counted while streaming, not trusted from Content-Length).
 * The content type is not insisted on: `curl -d` sends form encoding by default, and a clear JSON
 * parse error helps more than a 415.
 */
export async function readJson(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
	return parseJson(await readBody(request, maxBytes, 'The request needs a JSON body'));
}

/** The body's bytes, capped while streaming; the Content-Length is checked first but never trusted. */
export async function readBody(request: Request, maxBytes: number, emptyMessage: string): Promise<Uint8Array> {
	const declared = Number(request.headers.get('content-length') ?? '0');
	if (declared > maxBytes) throw tooLarge(maxBytes);
	const reader = request.body?.getReader();
	if (!reader) throw validationError(emptyMessage, 'invalid_json');
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > maxBytes) {
			chunks.length = 0;
			await drain(reader);
			throw tooLarge(maxBytes);
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks);
}

/** JSON text to a screened value, or the spec's 400 saying what is wrong with it. */
export function parseJson(bytes: Uint8Array, what = 'The request body', emptyMessage = 'The request needs a JSON body'): unknown {
	const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
	if (!text.trim()) throw validationError(emptyMessage, 'invalid_json');
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (err) {
		throw validationError(`${what} is not valid JSON: ${(err as Error).message}`, 'invalid_json');
	}
	screenJson(value);
	return value;
}

/**
 * Past the limit the rest of a body is read and dropped (up to MAX_DRAIN_BYTES more), so the client
 * gets the 413 answer: cancelling the stream destroys the socket, and a chunked upload (no
 * Content-Length to refuse up front) would only see a connection reset.
 */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
	let dropped = 0;
	for (;;) {
		const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
		if (done || !value) return;
		dropped += value.byteLength;
		if (dropped > MAX_DRAIN_BYTES) {
			await reader.cancel().catch(() => {});
			return;
		}
	}
}

const tooLarge = (max: number) =>
	new ApiError('validation_error', `The request body is larger than ${Math.round(max / 1024 / 1024)} MB`, { code: 'body_too_large', status: 413 });

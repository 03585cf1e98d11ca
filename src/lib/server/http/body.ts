import { validationError, ApiError } from '#lib/domain/errors.ts';

export const MAX_JSON_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Reads a JSON body with a size cap (counted while streaming, not trusted from Content-Length).
 * The content type is not insisted on: `curl -d` sends form encoding by default, and a clear JSON
 * parse error helps more than a 415.
 */
export async function readJson(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
	const declared = Number(request.headers.get('content-length') ?? '0');
	if (declared > maxBytes) throw tooLarge(maxBytes);
	const reader = request.body?.getReader();
	if (!reader) throw validationError('The request needs a JSON body', 'invalid_json');
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > maxBytes) {
			await reader.cancel().catch(() => {});
			throw tooLarge(maxBytes);
		}
		chunks.push(value);
	}
	const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
	if (!text.trim()) throw validationError('The request needs a JSON body', 'invalid_json');
	try {
		return JSON.parse(text);
	} catch (err) {
		throw validationError(`The request body is not valid JSON: ${(err as Error).message}`, 'invalid_json');
	}
}

const tooLarge = (max: number) =>
	new ApiError('validation_error', `The request body is larger than ${Math.round(max / 1024 / 1024)} MB`, { code: 'body_too_large', status: 413 });

import { ApiError } from '#lib/domain/errors.ts';
import { tooLarge } from '../services/media.service.ts';

/**
 * Reads a raw upload body with a cap counted while streaming (Content-Length is checked first but
 * never trusted). The Node adapter's own BODY_SIZE_LIMIT (default 512K) may stop a body earlier;
 * its error is turned into the same 413.
 */
export async function readUpload(request: Request, maxBytes: number): Promise<Uint8Array> {
	const declared = Number(request.headers.get('content-length') ?? '0');
	if (declared > maxBytes) throw tooLarge(maxBytes);
	const reader = request.body?.getReader();
	if (!reader) throw new ApiError('validation_error', 'The upload is empty', { code: 'unsupported_media_type', status: 415 });
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
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
	} catch (err) {
		if (err instanceof ApiError) throw err;
		if ((err as { status?: number }).status === 413) {
			throw new ApiError('validation_error', 'The upload is larger than this server accepts (BODY_SIZE_LIMIT)', { code: 'body_too_large', status: 413 });
		}
		throw new ApiError('validation_error', 'The upload was interrupted; send it again', { code: 'conflict', status: 400 });
	}
	return new Uint8Array(Buffer.concat(chunks));
}

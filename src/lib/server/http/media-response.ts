import type { ByteRange } from '../media/media-store.ts';
import { RangeNotSatisfiableError } from '../media/media-store.ts';
import type { MediaService } from '../services/media.service.ts';
import { errorResponse } from './error-response.ts';

/**
 * Parses a `Range` header against an object of `size` bytes: one `bytes=` range (start-end,
 * start-, or -suffix). Anything else (several ranges, other units, garbage) is ignored and the
 * whole object is served, as RFC 9110 allows; a range that starts past the end is unsatisfiable.
 */
export function parseRange(header: string | null, size: number): ByteRange | null | 'unsatisfiable' {
	if (!header) return null;
	const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
	if (!m || (m[1] === '' && m[2] === '')) return null;
	if (m[1] === '') {
		const suffix = Number(m[2]);
		if (suffix === 0) return 'unsatisfiable';
		return { start: Math.max(0, size - suffix), end: size - 1 };
	}
	const start = Number(m[1]);
	const end = m[2] === '' ? size - 1 : Number(m[2]);
	if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
	if (m[2] !== '' && end < start) return null;
	if (start >= size) return 'unsatisfiable';
	return { start, end: Math.min(end, size - 1) };
}

/** `GET|HEAD /media/<id>?exp=…&sig=…`: the signed link is the whole authorisation. */
export async function mediaResponse(media: MediaService, id: string, url: URL, request: Request, requestId?: string): Promise<Response> {
	try {
		const exp = url.searchParams.get('exp');
		const { row, object } = await media.open(id, exp, url.searchParams.get('sig'), { parse: (size) => parseRange(request.headers.get('range'), size) });
		const headers = new Headers({
			'content-type': row.contentType,
			'accept-ranges': 'bytes',
			// The link is the capability: private, and cached no longer than it is valid.
			'cache-control': `private, max-age=${Math.max(0, Math.floor((Number(exp) - Date.now()) / 1000))}`,
			'x-content-type-options': 'nosniff',
			'content-security-policy': "default-src 'none'; sandbox",
			'access-control-allow-origin': '*',
			etag: `"${row.id}"`
		});
		let status = 200;
		if (object.range) {
			status = 206;
			headers.set('content-range', `bytes ${object.range.start}-${object.range.end}/${object.size}`);
			headers.set('content-length', String(object.range.end - object.range.start + 1));
		} else {
			headers.set('content-length', String(object.size));
		}
		if (request.method === 'HEAD') {
			await object.body.cancel().catch(() => {});
			return new Response(null, { status, headers });
		}
		return new Response(object.body, { status, headers });
	} catch (err) {
		if (err instanceof RangeNotSatisfiableError) {
			return new Response(null, { status: 416, headers: { 'content-range': `bytes */${err.size}`, 'accept-ranges': 'bytes' } });
		}
		return errorResponse(err, {}, requestId);
	}
}

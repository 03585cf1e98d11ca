import { ApiError, type ErrorBody } from '#lib/domain/errors.ts';
import { logger } from '../logger.ts';

/** The one place an error becomes the spec's body. Unknown errors become a bare `server_error`. */
export function errorResponse(err: unknown, headers: HeadersInit = {}, requestId?: string): Response {
	if (err instanceof ApiError) return json(err.toBody(), err.status, headers);
	logger.error({ err, requestId }, 'unhandled error');
	const body: ErrorBody = {
		error: { type: 'server_error', message: `Something went wrong on our side${requestId ? ` (request ${requestId})` : ''}; please retry`, code: 'internal' }
	};
	return json(body, 500, headers);
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
	const h = new Headers(headers);
	h.set('content-type', 'application/json; charset=utf-8');
	h.set('cache-control', 'no-store');
	return new Response(JSON.stringify(body), { status, headers: h });
}

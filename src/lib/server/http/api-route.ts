import type { RequestEvent, RequestHandler } from '@sveltejs/kit';
import { ApiError } from '#lib/domain/errors.ts';
import type { ApiPrincipal } from '../repositories/account.repository.ts';
import { errorResponse } from './error-response.ts';

type ApiEvent = RequestEvent & { locals: { principal: ApiPrincipal } };

/**
 * Wraps a Session API handler: authentication already happened in `handle`; this turns any
 * thrown error into the spec's error body so a handler stays a parse–call–return.
 */
export function apiRoute(handler: (event: ApiEvent) => Promise<Response>): RequestHandler {
	return async (event) => {
		try {
			if (!event.locals.principal) throw new ApiError('authentication_error', 'Invalid API key', { code: 'missing_api_key' });
			return await handler(event as ApiEvent);
		} catch (err) {
			return errorResponse(err, {}, event.locals.requestId);
		}
	};
}

/** For `export const fallback`: a JSON 405 naming the methods the route has. */
export const methodNotAllowed =
	(allowed: string[]): RequestHandler =>
	({ request }) =>
		errorResponse(new ApiError('validation_error', `${request.method} is not allowed here; use ${allowed.join(' or ')}`, { code: 'method_not_allowed', status: 405 }), {
			Allow: allowed.join(', ')
		});

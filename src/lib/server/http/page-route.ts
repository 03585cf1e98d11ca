import type { RequestEvent, RequestHandler } from '@sveltejs/kit';
import { getApp } from '../app.ts';
import type { PagePrincipal } from '../services/page.service.ts';
import { errorResponse } from './error-response.ts';

/**
 * Wraps a hosted-page endpoint (`/api/client/*`): authenticates the page token (the only
 * credential a browser holds) and turns errors into the API's error body.
 */
export function pageRoute<E extends RequestEvent = RequestEvent>(handler: (event: E, principal: PagePrincipal) => Promise<Response>): (event: E) => Promise<Response> {
	return async (event) => {
		try {
			const principal = await getApp().pages.authenticate(event.request.headers.get('authorization'));
			return await handler(event, principal);
		} catch (err) {
			return errorResponse(err, {}, event.locals.requestId);
		}
	};
}

/** For endpoints that authenticate themselves (the open call carries the client secret). */
export function publicRoute(handler: (event: RequestEvent) => Promise<Response>): RequestHandler {
	return async (event) => {
		try {
			return await handler(event);
		} catch (err) {
			return errorResponse(err, {}, event.locals.requestId);
		}
	};
}

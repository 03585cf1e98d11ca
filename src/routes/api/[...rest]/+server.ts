import { ApiError } from '#lib/domain/errors.ts';
import { errorResponse } from '#lib/server/http/error-response.ts';
import type { RequestHandler } from './$types';

/** Unknown API paths answer in the API's error shape, not with an HTML page. */
export const fallback: RequestHandler = ({ url }) =>
	errorResponse(new ApiError('not_found_error', `No API route ${url.pathname}`, { code: 'route_not_found' }));

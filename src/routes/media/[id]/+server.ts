import type { RequestHandler } from './$types';
import { getApp } from '#lib/server/app.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { mediaResponse } from '#lib/server/http/media-response.ts';

/** Signed, expiring media download (`/media/<id>?exp=…&sig=…`); no API key: the link authorises. */
export const GET: RequestHandler = ({ params, url, request, locals }) => mediaResponse(getApp().media, params.id!, url, request, locals.requestId);
export const HEAD: RequestHandler = GET;

export const fallback = methodNotAllowed(['GET', 'HEAD']);

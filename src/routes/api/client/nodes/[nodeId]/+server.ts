import { getApp } from '#lib/server/app.ts';
import { readJson } from '#lib/server/http/body.ts';
import { json } from '#lib/server/http/error-response.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';
import type { RequestEvent } from './$types';

/** A result for the current node: `{step, action, payload}`. */
export const POST = pageRoute(async (event: RequestEvent, principal) =>
	json(await getApp().pages.submit(principal, event.params.nodeId!, await readJson(event.request, 256 * 1024)))
);

export const fallback = methodNotAllowed(['POST']);

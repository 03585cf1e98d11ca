import { getApp } from '#lib/server/app.ts';
import { apiRoute, methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';

export const GET = apiRoute(async ({ params, locals }) => json(await getApp().sessions.get(locals.principal, params.sessionId!)));

export const fallback = methodNotAllowed(['GET']);

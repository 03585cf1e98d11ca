import { getApp } from '#lib/server/app.ts';
import { apiRoute, methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';

// The SDK form `{langs: [...]}` (the spec shows both; an envelope can grow without breaking callers).
export const GET = apiRoute(async () => json({ langs: await getApp().catalogue.langs() }));

export const fallback = methodNotAllowed(['GET']);

import { getApp } from '#lib/server/app.ts';
import { apiRoute, methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';

// The SDK form `{avatars: [...]}`, like /langs.
export const GET = apiRoute(async () => json({ avatars: await getApp().catalogue.avatars() }));

export const fallback = methodNotAllowed(['GET']);

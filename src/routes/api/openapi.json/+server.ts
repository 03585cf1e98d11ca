import { getApp } from '#lib/server/app.ts';
import { json } from '#lib/server/http/error-response.ts';
import { openApiDocument } from '#lib/server/http/openapi.ts';

let cached: unknown;

export const GET = () => {
	cached ??= openApiDocument(getApp().config.PUBLIC_BASE_URL);
	return json(cached, 200, { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
};

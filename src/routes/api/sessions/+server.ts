import { validationError } from '#lib/domain/errors.ts';
import { listSessionsQuerySchema } from '#lib/domain/session/list-query.schema.ts';
import { formatZodIssues } from '#lib/domain/zod-issues.ts';
import { getApp } from '#lib/server/app.ts';
import { apiRoute, methodNotAllowed } from '#lib/server/http/api-route.ts';
import { readJson } from '#lib/server/http/body.ts';
import { json } from '#lib/server/http/error-response.ts';

export const POST = apiRoute(async ({ request, locals }) => {
	const key = request.headers.get('idempotency-key') ?? undefined;
	if (key !== undefined && !/^[\x21-\x7e]{1,255}$/.test(key)) {
		throw validationError('Idempotency-Key must be 1–255 visible ASCII characters');
	}
	const { result, replayed } = await getApp().sessions.create(locals.principal, await readJson(request), key);
	return json(result, 201, replayed ? { 'Idempotent-Replayed': 'true' } : {});
});

export const GET = apiRoute(async ({ url, locals }) => {
	const raw: Record<string, string> = {};
	for (const [name, value] of url.searchParams) {
		if (name in raw) throw validationError(`Query parameter '${name}' is given more than once`, 'invalid_query');
		raw[name] = value;
	}
	const parsed = listSessionsQuerySchema.safeParse(raw);
	if (!parsed.success) throw validationError(formatZodIssues(parsed.error.issues).replace(/unknown field/g, 'unknown query parameter'), 'invalid_query');
	return json(await getApp().sessions.list(locals.principal, parsed.data));
});

export const fallback = methodNotAllowed(['GET', 'POST']);

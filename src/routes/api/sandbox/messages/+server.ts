import { getApp } from '#lib/server/app.ts';
import { apiRoute, methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';

/**
 * The sandbox outbox: passcode messages of sandbox sessions, newest first (100 at most), so tests
 * and integrators can complete two-factor nodes without a mail server. Test keys only.
 */
export const GET = apiRoute(async ({ url, locals }) => {
	const messages = await getApp().sandboxOutbox.forIntegrator(locals.principal, url.searchParams.get('sessionId') ?? undefined);
	return json({ messages });
});

export const fallback = methodNotAllowed(['GET']);

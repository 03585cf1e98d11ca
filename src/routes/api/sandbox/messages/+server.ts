import { ApiError } from '#lib/domain/errors.ts';
import { getApp } from '#lib/server/app.ts';
import { apiRoute, methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';

/**
 * The sandbox outbox: passcode messages of sandbox sessions, newest first (100 at most), so tests
 * and integrators can complete two-factor nodes without a mail server. Test keys only.
 */
export const GET = apiRoute(async ({ url, locals }) => {
	if (locals.principal.env !== 'test') throw new ApiError('validation_error', 'The sandbox outbox is for test keys (sk_test_…) only', { status: 403 });
	const sessionId = url.searchParams.get('sessionId') ?? undefined;
	const rows = await getApp().uow.repos.sandboxMessages.list(locals.principal.accountId, sessionId);
	return json({ messages: rows.map((m) => ({ id: m.id, sessionId: m.sessionId, channel: m.channel, to: m.to, subject: m.subject, body: m.body, createdAt: m.createdAt })) });
});

export const fallback = methodNotAllowed(['GET']);

import { ApiError } from '#lib/domain/errors.ts';
import { getApp } from '#lib/server/app.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';
import { DEMO_FLOW_ID } from '#lib/server/services/demo.service.ts';

/**
 * The passcode messages of a `/demo` session, for the page's "sandbox" panel: a person trying the
 * demo has no mailbox behind it. Sandbox demo sessions only; everything else gets 404.
 */
export const GET = pageRoute(async (_event, principal) => {
	const app = getApp();
	const session = await app.uow.repos.sessions.findById(principal.sessionId);
	if (!session || session.env !== 'test' || session.flowId !== DEMO_FLOW_ID || principal.role !== 'primary') {
		throw new ApiError('not_found_error', 'No sandbox messages for this page', { code: 'route_not_found' });
	}
	const rows = await app.uow.repos.sandboxMessages.list(session.accountId, session.id);
	return json({ messages: rows.slice(0, 5).map((m) => ({ id: m.id, channel: m.channel, body: m.body, createdAt: m.createdAt })) });
});

export const fallback = methodNotAllowed(['GET']);

import { ApiError } from '#lib/domain/errors.ts';
import type { ApiPrincipal } from '../../repositories/account.repository.ts';
import type { UnitOfWork } from '../../repositories/index.ts';
import { DEMO_FLOW_ID } from '../demo.service.ts';
import type { PagePrincipal } from '../page.service.ts';

/** What `GET /api/sandbox/messages` lists per message. */
export interface SandboxMessage {
	id: string;
	sessionId: string;
	channel: 'email' | 'sms';
	to: string;
	subject: string | null;
	body: string;
	createdAt: number;
}

/**
 * Reading the sandbox outbox, where createOtpDelivery puts every passcode of a sandbox session
 * (otp-delivery.ts): for integrators' tests with a test key, and for the demo page's panel, since
 * a person trying the demo has no mailbox behind it.
 */
export class SandboxOutboxService {
	constructor(private readonly deps: { uow: UnitOfWork }) {}

	/** `GET /api/sandbox/messages`: the account's messages, newest first, 100 at most. Test keys only. */
	async forIntegrator(principal: ApiPrincipal, sessionId?: string): Promise<SandboxMessage[]> {
		if (principal.env !== 'test') throw new ApiError('validation_error', 'The sandbox outbox is for test keys (sk_test_…) only', { status: 403 });
		const rows = await this.deps.uow.repos.sandboxMessages.list(principal.accountId, sessionId);
		return rows.map((m) => ({ id: m.id, sessionId: m.sessionId, channel: m.channel, to: m.to, subject: m.subject, body: m.body, createdAt: m.createdAt }));
	}

	/**
	 * `GET /api/client/sandbox`: the five newest messages of a `/demo` session, for the device
	 * running it. Any other session gets 404, as if the route did not exist.
	 */
	async forDemoPage(principal: PagePrincipal): Promise<Array<Pick<SandboxMessage, 'id' | 'channel' | 'body' | 'createdAt'>>> {
		const session = await this.deps.uow.repos.sessions.findById(principal.sessionId);
		if (!session || session.env !== 'test' || session.flowId !== DEMO_FLOW_ID || principal.role !== 'primary') {
			throw new ApiError('not_found_error', 'No sandbox messages for this page', { code: 'route_not_found' });
		}
		const rows = await this.deps.uow.repos.sandboxMessages.list(session.accountId, session.id);
		return rows.slice(0, 5).map((m) => ({ id: m.id, channel: m.channel, body: m.body, createdAt: m.createdAt }));
	}
}

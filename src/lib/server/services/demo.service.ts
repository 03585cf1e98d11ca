import type { ApiPrincipal } from '../repositories/account.repository.ts';
import { SANDBOX_ACCOUNT_NAME, type AccountService } from './account.service.ts';
import type { SessionService } from './session.service.ts';
import type { RateLimiter } from '../http/rate-limit.ts';

/** The flowId of sessions made by `/demo`; the page shows such sessions' sandbox passcodes. */
export const DEMO_FLOW_ID = 'veriflow-demo';

/**
 * The demo: a conversation (the avatar greets and asks whether the user is ready), the e-mail
 * address, a passcode to it, a spoken thank-you, the end. Goal prompts, so the embedded dialog
 * engine speaks them in every session language.
 */
export const DEMO_FLOW = [
	{ id: 'start', type: 'start', outcome: 'hello' },
	{
		id: 'hello',
		type: 'conversation',
		prompt: 'Greet the user and ask whether they are ready to begin',
		outcomes: [
			{ id: 'ready', condition: 'The user is ready', targetNodeId: 'email' },
			{ id: 'declines', condition: 'The user declines', targetNodeId: 'end' }
		]
	},
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'code', canceled: 'end' } },
	{
		id: 'code',
		type: 'two_factor_email',
		contactSource: 'session_data',
		otpLength: 6,
		testMode: { enabled: false },
		outcomes: { verified: 'thanks', delivery_failed: 'end', failed_unverified: 'end', cancelled: 'end', error: 'end' }
	},
	{
		id: 'thanks',
		type: 'conversation',
		prompt: 'Thank the user',
		doesNotRequireReply: true,
		outcomes: [{ id: 'done', condition: 'always', targetNodeId: 'end' }]
	},
	{ id: 'end', type: 'end' }
];

export interface DemoPolicy {
	/** DEMO_ENABLED: true or false when the operator said so, undefined when not. */
	enabled: boolean | undefined;
	/** Whether the store is the embedded one (a single-user setup). */
	embedded: boolean;
}

/**
 * The principal the demo acts for, or null where there is no demo. The demo creates real sessions
 * and sends passcodes, so it runs only where someone opted in: by default only on the embedded
 * store and only in the sandbox account the service made for itself on first start (never in an
 * integrator's account, whose webhooks would receive the demo's events); with DEMO_ENABLED=true in
 * the first account (oldest) with an active sandbox key; never with DEMO_ENABLED=false.
 */
export async function findDemoPrincipal(accounts: AccountService, policy: DemoPolicy): Promise<ApiPrincipal | null> {
	if (policy.enabled === false || (policy.enabled === undefined && !policy.embedded)) return null;
	const active = (await accounts.listApiKeys()).filter((k) => k.env === 'test' && k.revokedAt === null);
	for (const account of await accounts.listAccounts()) {
		if (policy.enabled === undefined && account.name !== SANDBOX_ACCOUNT_NAME) continue;
		const key = active.find((k) => k.accountId === account.id);
		if (key) return { accountId: account.id, env: 'test', keyId: key.id };
	}
	return null;
}

/**
 * The /demo page's server side: whether there is a demo, and starting one for a visitor, at most
 * DEMO_RATE_LIMIT an hour per client address (each demo session can e-mail passcodes, and a page
 * anyone can open must not become a session factory).
 */
export class DemoService {
	constructor(
		private readonly deps: { accounts: AccountService; sessions: SessionService; policy: DemoPolicy; limiter: RateLimiter }
	) {}

	principal(): Promise<ApiPrincipal | null> {
		return findDemoPrincipal(this.deps.accounts, this.deps.policy);
	}

	/** Starts a demo session for `clientAddress`; null when there is no demo, 'limited' past the limit. */
	async start(clientAddress: string): Promise<{ url: string } | 'limited' | null> {
		const principal = await this.principal();
		if (!principal) return null;
		const decision = await this.deps.limiter.consume(clientAddress);
		if (!decision.allowed) return 'limited';
		return createDemoSession(this.deps.sessions, principal);
	}
}

/** Creates a demo session through the same service the API uses; returns its hosted URL. */
export async function createDemoSession(sessions: SessionService, principal: ApiPrincipal): Promise<{ sessionId: string; url: string }> {
	const { result } = await sessions.create(principal, {
		clientReferenceId: `demo-${Date.now().toString(36)}`,
		flowId: DEMO_FLOW_ID,
		flow: DEMO_FLOW,
		metadata: { source: 'demo' }
	});
	return { sessionId: result.session.id, url: result.clientSecret.url };
}

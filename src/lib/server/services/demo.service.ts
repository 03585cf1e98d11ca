import type { ApiPrincipal } from '../repositories/account.repository.ts';
import type { AccountService } from './account.service.ts';
import type { SessionService } from './session.service.ts';

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

/** The first account (oldest) that holds an active sandbox key, as the principal the demo acts for. */
export async function findDemoPrincipal(accounts: AccountService): Promise<ApiPrincipal | null> {
	const active = (await accounts.listApiKeys()).filter((k) => k.env === 'test' && k.revokedAt === null);
	for (const account of await accounts.listAccounts()) {
		const key = active.find((k) => k.accountId === account.id);
		if (key) return { accountId: account.id, env: 'test', keyId: key.id };
	}
	return null;
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

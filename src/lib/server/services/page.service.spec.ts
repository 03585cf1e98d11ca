import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '#lib/domain/errors.ts';
import type { PageState } from '#lib/domain/page/page.schema.ts';
import { STORE_KINDS, createTestApp, manualClock } from '../../../../tests/helpers/test-store.ts';
import type { ApiPrincipal } from '../repositories/account.repository.ts';
import type { DialogPort } from './runner/runner-deps.ts';
import type { PagePrincipal } from './page.service.ts';
import { sha256Hex } from '../crypto.ts';

/** A dialog whose judge follows a script: the reply text names the outcome id, or nothing. */
const scriptedDialog: DialogPort = {
	async speak({ prompt, lang }) {
		return { text: prompt.startsWith('Say:') ? prompt.slice(4).trim() : `[${lang}] ${prompt}` };
	},
	async judge({ outcomes, reply, state }) {
		if (!reply && state.lastValidation) return { outcomeId: outcomes.find((o) => /passed/.test(o.condition) === state.lastValidation!.passed)?.id ?? null, entities: {} };
		const hit = outcomes.find((o) => reply.toLowerCase().includes(o.id.toLowerCase())) ?? outcomes.find((o) => o.condition === 'otherwise');
		return { outcomeId: hit?.id ?? null, entities: (reply.includes('@') ? { email: reply } : {}) as Record<string, string> };
	},
	repeatPhrase: () => 'Sorry?',
	canJudge: () => true,
	choices: (outcomes) => outcomes.map((o) => ({ id: o.id, label: o.condition })),
	answer: (question) => `About ${question}.`
};

const DEMO_FLOW = [
	{ id: 'start', type: 'start', outcome: 'hello' },
	{
		id: 'hello',
		type: 'conversation',
		prompt: 'Greet the user and ask whether they are ready',
		outcomes: [
			{ id: 'ready', condition: 'The user is ready', targetNodeId: 'email' },
			{ id: 'decline', condition: 'The user declines', targetNodeId: 'bye' }
		]
	},
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'check', canceled: 'bye' } },
	{
		id: 'check',
		type: 'data_validation',
		validation: { field: 'email', action: 'contains', value: '@' },
		outcomes: [
			{ id: 'ok', condition: 'The validation passed', targetNodeId: 'otp' },
			{ id: 'otherwise', condition: 'otherwise', targetNodeId: 'bye' }
		]
	},
	{ id: 'otp', type: 'two_factor_email', otpLength: 6, maxAttempts: 3, resendAfterSeconds: 30, outcomes: { verified: 'thanks', delivery_failed: 'bye', failed_unverified: 'bye', cancelled: 'bye', error: 'bye' } },
	{ id: 'thanks', type: 'conversation', prompt: 'Say: Thank you!', doesNotRequireReply: true, outcomes: [{ id: 'done', condition: 'always', targetNodeId: 'bye' }] },
	{ id: 'bye', type: 'end' }
];

describe.each(STORE_KINDS)('hosted page runner on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	const clock = manualClock();
	let integrator: ApiPrincipal;

	beforeAll(async () => {
		app = await createTestApp(kind, {}, clock);
		(app.runner as unknown as { deps: { dialog: DialogPort } }).deps.dialog = scriptedDialog;
		integrator = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('Int'), 'test')).key))!;
	});
	afterAll(() => app?.dispose());

	async function newSession(extra: Record<string, unknown> = {}) {
		const { result } = await app.sessions.create(integrator, { clientReferenceId: 'page-test', flow: DEMO_FLOW, initialPhrase: 'Welcome!', finalPhrase: 'Goodbye!', ...extra });
		return result;
	}
	const principalOf = async (token: string): Promise<PagePrincipal> => app.pages.authenticate(`Bearer ${token}`);
	let requests = 0;
	async function act(p: PagePrincipal, state: PageState, action: string, payload: Record<string, unknown> = {}, requestId = `req-${++requests}-${Date.now()}`) {
		return app.pages.submit(p, state.node!.id, { step: state.session.step, requestId, action, payload });
	}
	async function codeFor(sessionId: string) {
		const [message] = await app.uow.repos.sandboxMessages.list(integrator.accountId, sessionId);
		return /(\d{6})/.exec(message.body)![1];
	}

	it("counts \"I'm still here\" as activity for a session in progress, and never revives a finished one", async () => {
		const created = await newSession();
		const opened = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: ['en'] });
		const p = await principalOf(opened.pageToken);
		const timeoutMs = opened.state.idle!.timeoutMs;
		clock.advance(timeoutMs / 2);
		expect((await app.pages.state(p)).idle!.leftMs).toBeLessThanOrEqual(timeoutMs / 2);
		const kept = await app.pages.keepAlive(p);
		expect(kept.idle!.leftMs).toBeGreaterThan(timeoutMs - 1000);
		const ended = await act(p, kept, 'reply', { text: 'decline' });
		expect(ended.state.session.status).toBe('complete');
		clock.advance(1000);
		const after = await app.pages.keepAlive(p);
		expect(after.session.status).toBe('complete');
		expect(after.idle).toBeNull();
	});

	it('walks the demo flow to END: transcript, node reports, events and a complete session', async () => {
		const created = await newSession({ langs: ['en', 'fr'] });
		const opened = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: ['fr-CA', 'en'] });
		expect(opened.pageToken).toMatch(/^pt_/);
		let state = opened.state;
		expect(state.session).toMatchObject({ status: 'inProgress', lang: 'fr' });
		expect(state.node).toMatchObject({ id: 'hello', type: 'conversation', expectsReply: true, speech: '[fr] Greet the user and ask whether they are ready' });
		expect(state.transcript.map((p) => p.text)).toEqual(['Welcome!', '[fr] Greet the user and ask whether they are ready']);
		const p = await principalOf(opened.pageToken);

		// No condition holds: the avatar asks again and the node stays.
		const unclear = await act(p, state, 'reply', { text: 'hmm' });
		expect(unclear.notice).toEqual({ code: 'conversation.repeat' });
		expect(unclear.state.node).toMatchObject({ id: 'hello', repeated: true });
		state = unclear.state;

		state = (await act(p, state, 'reply', { text: 'yes, ready' })).state;
		expect(state.node).toMatchObject({ id: 'email', type: 'enter_email' });
		const invalid = await act(p, state, 'submit', { email: 'not-an-email' });
		expect(invalid.notice).toEqual({ code: 'email.invalid' });
		state = (await act(p, invalid.state, 'submit', { email: 'ada@example.com' })).state;
		// The data_validation node ran on the server and passed; the passcode went out.
		expect(state.node).toMatchObject({ id: 'otp', type: 'two_factor_email', props: { channel: 'email', destination: 'a•••@example.com', otpLength: 6, attemptsLeft: 3 } });
		const code = await codeFor(created.session.id);

		const wrong = await act(p, state, 'verify', { code: code === '000000' ? '111111' : '000000' });
		expect(wrong.notice).toEqual({ code: 'otp.wrong', params: { attemptsLeft: 2 } });
		state = (await act(p, wrong.state, 'verify', { code })).state;
		expect(state.node).toMatchObject({ id: 'thanks', expectsReply: false, speech: 'Thank you!' });
		state = (await act(p, state, 'ack')).state;
		expect(state.finished).toEqual({ status: 'complete', finalPhrase: 'Goodbye!' });
		expect(state.node).toBeNull();

		const { session } = await app.sessions.get(integrator, created.session.id);
		expect(session.status).toBe('complete');
		const reports = await app.uow.repos.nodeReports.list(created.session.id);
		expect(reports.map((r) => [r.nodeId, r.outcome, r.targetNodeId])).toEqual([
			['hello', 'ready', 'email'],
			['email', 'emailEntered', 'check'],
			['check', 'ok', 'otp'],
			['otp', 'verified', 'thanks'],
			['thanks', 'done', 'bye']
		]);
		const phrases = (await app.uow.repos.transcript.list(created.session.id)).map((ph) => [ph.isAvatar, ph.text]);
		expect(phrases).toEqual([
			[true, 'Welcome!'],
			[true, '[fr] Greet the user and ask whether they are ready'],
			[false, 'hmm'],
			[true, 'Sorry? [fr] Greet the user and ask whether they are ready'],
			[false, 'yes, ready'],
			[true, 'Thank you!'],
			[true, 'Goodbye!']
		]);
		expect((await app.uow.repos.outbox.listForSession(created.session.id)).map((e) => e.type)).toEqual(['session.status', 'session.status', 'session.status']);
		// The passcode is stored as a keyed hash only.
		const otpRow = await app.uow.repos.passcodes.latest(created.session.id, 'otp');
		expect(otpRow!.codeHash).not.toContain(code);
		expect(otpRow!.verifiedAt).not.toBeNull();
	});

	it('treats the client secret as single use and keeps the page token working for a reload', async () => {
		const created = await newSession();
		const opened = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] });
		const again = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] }).catch((e: unknown) => e);
		expect(again).toBeInstanceOf(ApiError);
		expect((again as ApiError).code).toBe('client_secret_used');
		const reloaded = await app.pages.state(await principalOf(opened.pageToken));
		expect(reloaded.node?.id).toBe('hello');
		const unknown = await app.pages.open({ clientSecret: 'cs_' + 'x'.repeat(43), languages: [] }).catch((e: unknown) => e);
		expect((unknown as ApiError).code).toBe('client_secret_invalid');
	});

	it('lets the tab that opened a link open it again when the first answer was lost, nobody else', async () => {
		const created = await newSession();
		const first = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [], nonce: 'tab-nonce-0123456789' });
		const retry = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [], nonce: 'tab-nonce-0123456789' });
		expect(retry.pageToken).not.toBe(first.pageToken);
		expect(retry.state.node?.id).toBe(first.state.node?.id);
		// The session was started once: one opening phrase, two status events in all.
		expect(retry.state.transcript.filter((p) => p.text === 'Welcome!')).toHaveLength(1);
		expect(await app.uow.repos.outbox.listForSession(created.session.id)).toHaveLength(2);
		for (const nonce of [undefined, 'another-tab-0123456789']) {
			const err = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [], ...(nonce ? { nonce } : {}) }).catch((e: unknown) => e);
			expect((err as ApiError).code).toBe('client_secret_used');
		}
	});

	it('refuses an expired link and does not start the session', async () => {
		const created = await newSession();
		clock.advance(25 * 3600_000);
		const err = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] }).catch((e: unknown) => e);
		expect((err as ApiError).code).toBe('client_secret_expired');
		expect((await app.sessions.get(integrator, created.session.id)).session.status).toBe('created');
	});

	it('answers a double submit with the same result and refuses an out-of-turn one', async () => {
		const created = await newSession();
		const opened = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] });
		const p = await principalOf(opened.pageToken);
		const first = await act(p, opened.state, 'reply', { text: 'ready' }, 'retry-me-1');
		const twice = await act(p, opened.state, 'reply', { text: 'ready' }, 'retry-me-1');
		expect(twice).toEqual(first);
		const reused = await act(p, opened.state, 'reply', { text: 'decline' }, 'retry-me-1').catch((e: unknown) => e);
		expect((reused as ApiError).code).toBe('conflict');
		const stale = await act(p, opened.state, 'reply', { text: 'decline' }).catch((e: unknown) => e);
		expect((stale as ApiError).code).toBe('node_not_current');
		const wrongNode = await app.pages.submit(p, 'otp', { step: first.state.session.step, action: 'verify', payload: { code: '123456' } }).catch((e: unknown) => e);
		expect((wrongNode as ApiError).code).toBe('node_not_current');
		const badAction = await act(p, first.state, 'teleport').catch((e: unknown) => e);
		expect((badAction as ApiError).code).toBe('outcome_not_allowed');
		expect((await app.uow.repos.nodeReports.list(created.session.id)).length).toBe(1);
	});

	it('answers an upload to a node that takes none, or to no node, with a clear error and moves nothing', async () => {
		const created = await newSession();
		const opened = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] });
		const p = await principalOf(opened.pageToken);
		const step = opened.state.session.step;
		const upload = (nodeId: string, body: unknown) =>
			app.pages.submitEvidence(p, nodeId, async () => body).then(
				() => new ApiError('server_error', 'the upload was accepted'),
				(e: unknown) => e as ApiError
			);
		const conversation = await upload('hello', { step, frames: [] });
		expect({ status: conversation.status, code: conversation.code, message: conversation.message }).toEqual({
			status: 400,
			code: 'outcome_not_allowed',
			message: "A conversation node has no action 'evidence'"
		});
		expect(await upload('nowhere', { step })).toMatchObject({ status: 409, code: 'node_not_current' });
		expect(await upload('hello', { frames: [] })).toMatchObject({ status: 400, type: 'validation_error', message: expect.stringMatching(/'step'/) });
		const state = await app.pages.state(p);
		expect({ node: state.node?.id, step: state.session.step }).toEqual({ node: 'hello', step });
		expect(await app.uow.repos.nodeReports.list(created.session.id)).toEqual([]);
	});

	it('locks the passcode after maxAttempts wrong codes, resends included', async () => {
		const created = await newSession();
		const opened = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] });
		const p = await principalOf(opened.pageToken);
		let state = (await act(p, opened.state, 'reply', { text: 'ready' })).state;
		state = (await act(p, state, 'submit', { email: 'bob@example.com' })).state;
		const code = await codeFor(created.session.id);
		const wrong = code === '999999' ? '888888' : '999999';
		state = (await act(p, state, 'verify', { code: wrong })).state;
		const early = await act(p, state, 'resend');
		expect(early.notice?.code).toBe('otp.resendWait');
		clock.advance(31_000);
		const resent = await act(p, early.state, 'resend');
		expect(resent.notice?.code).toBe('otp.sent');
		expect((resent.state.node?.props as Record<string, unknown>).attemptsLeft).toBe(2);
		const newCode = await codeFor(created.session.id);
		// The old code no longer works after a resend.
		const old = await act(p, resent.state, 'verify', { code: code === newCode ? wrong : code });
		expect(old.notice).toMatchObject({ code: 'otp.wrong' });
		const last = await act(p, old.state, 'verify', { code: wrong === newCode ? '000001' : wrong });
		expect(last.state.finished?.status).toBe('complete');
		const reports = await app.uow.repos.nodeReports.list(created.session.id);
		expect(reports.at(-1)).toMatchObject({ nodeId: 'otp', outcome: 'failed_unverified' });
	});

	it('hands the session over to another device; the first one only watches', async () => {
		const created = await newSession();
		const desktop = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] });
		const dp = await principalOf(desktop.pageToken);
		const { code } = await app.pages.createHandoff(dp);
		const phone = await app.pages.open({ handoff: code, languages: [] });
		expect(phone.state.role).toBe('primary');
		expect(phone.state.node?.id).toBe('hello');
		const reuse = await app.pages.open({ handoff: code, languages: [] }).catch((e: unknown) => e);
		expect((reuse as ApiError).code).toBe('client_secret_used');
		const watcher = await principalOf(desktop.pageToken);
		expect(watcher.role).toBe('observer');
		const refused = await act(watcher, phone.state, 'reply', { text: 'ready' }).catch((e: unknown) => e);
		expect((refused as ApiError).status).toBe(409);
		const pp = await principalOf(phone.pageToken);
		await act(pp, phone.state, 'reply', { text: 'decline' });
		expect((await app.pages.state(watcher)).finished?.status).toBe('complete');
	});

	it('ends a session whose passcode cannot be delivered with delivery_failed', async () => {
		const flow = [
			{ id: 'start', type: 'start', outcome: 'otp' },
			{ id: 'otp', type: 'two_factor_sms', contactSource: 'module_settings', staticPhone: '+15550001111', outcomes: { verified: 'end', delivery_failed: 'failed', failed_unverified: 'end', cancelled: 'end', error: 'end' } },
			{ id: 'failed', type: 'end' },
			{ id: 'end', type: 'end' }
		];
		const live = (await app.accounts.authenticate((await app.accounts.createApiKey(integrator.accountId, 'live')).key))!;
		const { result } = await app.sessions.create(live, { clientReferenceId: 'no-sms', flow });
		const opened = await app.pages.open({ clientSecret: result.clientSecret.secret, languages: [] });
		// A live session has no sandbox outbox and this server has no SMS gateway.
		expect(opened.state.finished?.status).toBe('complete');
		const reports = await app.uow.repos.nodeReports.list(result.session.id);
		expect(reports).toEqual([expect.objectContaining({ nodeId: 'otp', outcome: 'delivery_failed', targetNodeId: 'failed' })]);
		expect(await app.uow.repos.pageAccess.findToken(sha256Hex(opened.pageToken))).not.toBeNull();
	});
});

describe.each(STORE_KINDS)('session sweeper on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	const clock = manualClock();
	let integrator: ApiPrincipal;
	const flow = [
		{ id: 'start', type: 'start', outcome: 'email' },
		{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' } },
		{ id: 'end', type: 'end' }
	];
	beforeAll(async () => {
		app = await createTestApp(kind, { SESSION_INACTIVITY_TIMEOUT_S: '1800' }, clock);
		integrator = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('Sweep'), 'test')).key))!;
	});
	afterAll(() => app?.dispose());

	it('ends idle and expired sessions as incomplete, once, and leaves active ones alone', async () => {
		const make = async () => (await app.sessions.create(integrator, { clientReferenceId: 'sweep', flow })).result;
		const unopened = await make();
		const idle = await make();
		const active = await make();
		await app.pages.open({ clientSecret: idle.clientSecret.secret, languages: [] });
		clock.advance(20 * 60_000);
		const activePage = await app.pages.open({ clientSecret: active.clientSecret.secret, languages: [] });
		clock.advance(15 * 60_000);
		// idle: 35 min without activity; active: 15 min; unopened: link still valid.
		expect(await app.sweeper.sweep()).toBe(1);
		const statusOf = async (id: string) => (await app.sessions.get(integrator, id)).session;
		expect((await statusOf(idle.session.id)).status).toBe('incomplete');
		expect((await statusOf(idle.session.id)).finishedAt).toBeGreaterThan(0);
		expect((await statusOf(active.session.id)).status).toBe('inProgress');
		expect((await statusOf(unopened.session.id)).status).toBe('created');
		clock.advance(24 * 3600_000);
		expect(await app.sweeper.sweep()).toBe(2);
		expect((await statusOf(unopened.session.id)).status).toBe('incomplete');
		expect((await statusOf(active.session.id)).status).toBe('incomplete');
		expect(await app.sweeper.sweep()).toBe(0);
		const events = await app.uow.repos.outbox.listForSession(idle.session.id);
		expect(events.map((e) => e.type)).toEqual(['session.status', 'session.status', 'session.status']);
		// The page of an ended session says so instead of offering a node.
		const state = await app.pages.state(await app.pages.authenticate(`Bearer ${activePage.pageToken}`).catch(() => ({ sessionId: active.session.id, role: 'primary' as const, tokenHash: '' })));
		expect(state.finished?.status).toBe('incomplete');
		expect(state.node).toBeNull();
	});
});

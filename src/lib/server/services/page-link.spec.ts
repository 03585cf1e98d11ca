import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STORE_KINDS, createTestApp, manualClock } from '../../../../tests/helpers/test-store.ts';
import { SIMPLE_FLOW } from '../../../../tests/helpers/flows.ts';
import type { ApiPrincipal } from '../repositories/account.repository.ts';
import { inspectLink } from './page-link.ts';
import { createDemoSession, findDemoPrincipal, DEMO_FLOW_ID } from './demo.service.ts';
import { SANDBOX_ACCOUNT_NAME } from './account.service.ts';

describe.each(STORE_KINDS)('hosted page links on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	const clock = manualClock();
	let integrator: ApiPrincipal;

	beforeAll(async () => {
		app = await createTestApp(kind, {}, clock);
		integrator = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('Int'), 'test')).key))!;
	});
	afterAll(() => app?.dispose());

	const newSession = async () => (await app.sessions.create(integrator, { clientReferenceId: 'link', flow: SIMPLE_FLOW })).result;
	const inspect = (params: { cs?: string; handoff?: string }) => inspectLink(app.uow.repos, clock(), params);

	it('tells openable, opened, expired, finished and unknown links apart without consuming them', async () => {
		const created = await newSession();
		const cs = created.clientSecret.secret;
		expect(await inspect({ cs })).toMatchObject({ kind: 'openable', via: 'cs' });
		// Looking is not opening: the page still opens afterwards.
		expect(await inspect({ cs })).toMatchObject({ kind: 'openable' });
		const opened = await app.pages.open({ clientSecret: cs, languages: ['en'] });
		expect(await inspect({ cs })).toMatchObject({ kind: 'opened', via: 'cs' });

		expect(await inspect({ cs: 'cs_' + 'x'.repeat(24) })).toEqual({ kind: 'problem', problem: 'invalid' });
		expect(await inspect({ cs: 'not-a-secret' })).toEqual({ kind: 'problem', problem: 'invalid' });
		expect(await inspect({})).toEqual({ kind: 'problem', problem: 'invalid' });

		const principal = await app.pages.authenticate(`Bearer ${opened.pageToken}`);
		const state = opened.state;
		await app.pages.submit(principal, state.node!.id, { step: state.session.step, requestId: 'req-finish-1', action: 'submit', payload: { email: 'ada@example.com' } });
		expect(await inspect({ cs })).toMatchObject({ kind: 'problem', problem: 'finished' });
	});

	it('reads an unopened link past its expiry as expired, also after the sweeper ended its session', async () => {
		const created = await newSession();
		clock.advance(2 * 86_400_000);
		expect(await inspect({ cs: created.clientSecret.secret })).toMatchObject({ kind: 'problem', problem: 'expired' });
		await app.sweeper.sweep();
		expect((await app.sessions.get(integrator, created.session.id)).session.status).toBe('incomplete');
		expect(await inspect({ cs: created.clientSecret.secret })).toMatchObject({ kind: 'problem', problem: 'expired' });
	});

	it('follows a hand-over code from openable to opened to expired', async () => {
		const created = await newSession();
		const opened = await app.pages.open({ clientSecret: created.clientSecret.secret, languages: [] });
		const { code } = await app.pages.createHandoff(await app.pages.authenticate(`Bearer ${opened.pageToken}`));
		expect(await inspect({ handoff: code })).toMatchObject({ kind: 'openable', via: 'handoff' });
		await app.pages.open({ handoff: code, languages: [] });
		expect(await inspect({ handoff: code })).toMatchObject({ kind: 'opened', via: 'handoff' });

		const fresh = await newSession();
		const o2 = await app.pages.open({ clientSecret: fresh.clientSecret.secret, languages: [] });
		const { code: stale } = await app.pages.createHandoff(await app.pages.authenticate(`Bearer ${o2.pageToken}`));
		clock.advance(11 * 60_000);
		expect(await inspect({ handoff: stale })).toMatchObject({ kind: 'problem', problem: 'expired' });
		expect(await inspect({ handoff: 'ho_' + 'y'.repeat(24) })).toEqual({ kind: 'problem', problem: 'invalid' });
	});

	it('previews a link for /verify with one client-secret lookup: its page, its language and who may frame it', async () => {
		await app.accounts.setFrameAncestors(integrator.accountId, ['https://portal.example.com']);
		const lookups = vi.spyOn(app.uow.repos.sessions, 'findSecretByHash');
		try {
			const { result } = await app.sessions.create(integrator, { clientReferenceId: 'preview', flow: SIMPLE_FLOW, langs: ['en', 'de'] });
			const openable = await app.pages.preview({ cs: result.clientSecret.secret }, { browserLanguages: ['de-CH', 'en'], override: 'fr' });
			expect(lookups).toHaveBeenCalledTimes(1);
			expect(openable.frameAncestors).toEqual(['https://portal.example.com']);
			expect(openable.page).toMatchObject({ kind: 'intro', lang: 'fr', intro: { via: 'cs', sessionId: result.session.id, status: 'created', langs: ['en', 'de'], override: 'fr', sandbox: true, embedOrigins: ['https://portal.example.com'], firstScreens: ['enter_email'] } });

			// A dead link shows nothing of the session, but its account may still frame the explanation.
			await app.pages.open({ clientSecret: result.clientSecret.secret, languages: [] });
			const opened = await app.pages.preview({ cs: result.clientSecret.secret }, { browserLanguages: ['de'] });
			expect(opened).toEqual({ page: { kind: 'opened', lang: 'de', via: 'cs', embedOrigins: ['https://portal.example.com'] }, frameAncestors: ['https://portal.example.com'] });
			const unknown = await app.pages.preview({ cs: 'cs_' + 'z'.repeat(24) }, { browserLanguages: [] });
			expect(unknown).toEqual({ page: { kind: 'problem', lang: 'en', problem: 'invalid', embedOrigins: [] }, frameAncestors: [] });
			expect(await app.pages.frameAncestors({ cs: result.clientSecret.secret })).toEqual(['https://portal.example.com']);
			expect(await app.pages.frameAncestors({ handoff: 'ho_' + 'z'.repeat(24) })).toEqual([]);
		} finally {
			lookups.mockRestore();
			await app.accounts.setFrameAncestors(integrator.accountId, []);
		}
	});

	it('with DEMO_ENABLED=true, creates demo sessions in the first account with a sandbox key', async () => {
		const principal = await findDemoPrincipal(app.accounts, { enabled: true, embedded: false });
		expect(principal).toEqual({ accountId: integrator.accountId, env: 'test', keyId: integrator.keyId });
		const { sessionId, url } = await createDemoSession(app.sessions, principal!);
		expect(url).toMatch(/\/verify\?cs=cs_/);
		const rows = await app.uow.repos.sessions.findById(sessionId);
		expect(rows?.flowId).toBe(DEMO_FLOW_ID);
	});
});

describe('where the demo runs', () => {
	it('finds no principal when only live keys exist', async () => {
		const app = await createTestApp('pglite');
		try {
			await app.accounts.createApiKey(await app.accounts.createAccount('Live only'), 'live');
			expect(await findDemoPrincipal(app.accounts, { enabled: true, embedded: true })).toBeNull();
		} finally {
			await app.dispose();
		}
	});

	it('by default only on the embedded store, in the sandbox account the service made itself; never when turned off', async () => {
		const app = await createTestApp('pglite');
		try {
			// An integrator's account with a test key (and, say, a webhook) comes first: the demo must not use it.
			const integrator = await app.accounts.createAccount('Acme');
			await app.accounts.createApiKey(integrator, 'test');
			expect(await findDemoPrincipal(app.accounts, { enabled: undefined, embedded: true })).toBeNull();
			await app.accounts.createApiKey(await app.accounts.createAccount(SANDBOX_ACCOUNT_NAME), 'test');
			const own = await findDemoPrincipal(app.accounts, { enabled: undefined, embedded: true });
			expect(own?.accountId).not.toBe(integrator);
			expect(own?.env).toBe('test');
			expect(await findDemoPrincipal(app.accounts, { enabled: undefined, embedded: false })).toBeNull();
			expect(await findDemoPrincipal(app.accounts, { enabled: false, embedded: true })).toBeNull();
			expect((await findDemoPrincipal(app.accounts, { enabled: true, embedded: false }))?.accountId).toBe(integrator);
		} finally {
			await app.dispose();
		}
	});
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '#lib/domain/errors.ts';
import { STORE_KINDS, createTestApp } from '../../../../../tests/helpers/test-store.ts';
import { SIMPLE_FLOW } from '../../../../../tests/helpers/flows.ts';
import type { ApiPrincipal } from '../../repositories/account.repository.ts';
import { createDemoSession } from '../demo.service.ts';
import type { PagePrincipal } from '../page.service.ts';

const failure = (p: Promise<unknown>) =>
	p.then(
		() => null,
		(e: unknown) => (e instanceof ApiError ? { code: e.code, status: e.status } : e)
	);

describe.each(STORE_KINDS)('sandbox outbox on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let test: ApiPrincipal;
	let live: ApiPrincipal;
	let demo: PagePrincipal;
	let other: PagePrincipal;

	beforeAll(async () => {
		app = await createTestApp(kind);
		const account = await app.accounts.createAccount('Acme');
		test = (await app.accounts.authenticate((await app.accounts.createApiKey(account, 'test')).key))!;
		live = (await app.accounts.authenticate((await app.accounts.createApiKey(account, 'live')).key))!;
		const { sessionId } = await createDemoSession(app.sessions, test);
		const plain = (await app.sessions.create(test, { clientReferenceId: 'plain', flow: SIMPLE_FLOW })).result.session.id;
		demo = { sessionId, role: 'primary', tokenHash: 'x' };
		other = { sessionId: plain, role: 'primary', tokenHash: 'y' };
		for (let i = 0; i < 7; i++) {
			await app.uow.repos.sandboxMessages.insert({ id: `msg_${i}`, sessionId, accountId: account, env: 'test', channel: 'email', to: 'ada@example.com', subject: 'Your code', body: `Code ${i}`, createdAt: 1000 + i });
		}
	});
	afterAll(() => app?.dispose());

	it('lists an account’s messages, newest first, for a test key; refuses a live key', async () => {
		const messages = await app.sandboxOutbox.forIntegrator(test, demo.sessionId);
		expect(messages).toHaveLength(7);
		expect(messages[0]).toEqual({ id: 'msg_6', sessionId: demo.sessionId, channel: 'email', to: 'ada@example.com', subject: 'Your code', body: 'Code 6', createdAt: 1006 });
		expect(await app.sandboxOutbox.forIntegrator(test, other.sessionId)).toEqual([]);
		expect(await failure(app.sandboxOutbox.forIntegrator(live))).toMatchObject({ status: 403 });
	});

	it('gives the demo page its five newest messages, and any other page a 404', async () => {
		expect(await app.sandboxOutbox.forDemoPage(demo)).toEqual([6, 5, 4, 3, 2].map((i) => ({ id: `msg_${i}`, channel: 'email', body: `Code ${i}`, createdAt: 1000 + i })));
		const notFound = { code: 'route_not_found', status: 404 };
		expect(await failure(app.sandboxOutbox.forDemoPage({ ...demo, role: 'observer' }))).toEqual(notFound);
		expect(await failure(app.sandboxOutbox.forDemoPage(other))).toEqual(notFound);
		expect(await failure(app.sandboxOutbox.forDemoPage({ ...demo, sessionId: 'ses_missing' }))).toEqual(notFound);
	});
});

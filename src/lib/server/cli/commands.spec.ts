import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_KINDS, createTestApp } from '../../../../tests/helpers/test-store.ts';
import { runCommand } from './commands.ts';

describe.each(STORE_KINDS)('CLI commands on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	beforeAll(async () => {
		app = await createTestApp(kind);
	});
	afterAll(() => app?.dispose());
	const cli = (line: string) => runCommand(app, line.split(' '));

	it('creates a key once, lists it by prefix only, and revokes it', async () => {
		const created = await cli('keys create --env live --name Acme');
		expect(created.code).toBe(0);
		const key = /(sk_live_[A-Za-z0-9]+)/.exec(created.output)![1];
		const keyId = /Created (key_[A-Za-z0-9]+)/.exec(created.output)![1];
		expect(await app.accounts.authenticate(key)).toMatchObject({ env: 'live', keyId });
		const listed = await cli('keys list');
		expect(listed.output).toContain(keyId);
		expect(listed.output).toContain(`${key.slice(0, 12)}…`);
		expect(listed.output).not.toContain(key);
		expect((await cli(`keys revoke ${keyId}`)).output).toBe(`Revoked ${keyId}`);
		expect(await app.accounts.authenticate(key)).toBeNull();
		expect(await cli(`keys revoke ${keyId}`)).toEqual({ code: 1, output: `No active key '${keyId}'` });
	});

	it('refuses a key without an environment', async () => {
		expect(await cli('keys create')).toEqual({ code: 1, output: 'keys create needs --env test or --env live' });
	});

	it('adds, lists and removes webhook endpoints, showing the secret once', async () => {
		const accountId = await app.accounts.createAccount('Hooks');
		const added = await cli(`webhooks add --account ${accountId} --url https://hooks.example.com/veriflow --env test`);
		expect(added.code).toBe(0);
		const secret = /Signing secret \(shown once\): (whsec_\S+)/.exec(added.output)![1];
		const id = /Added (whe_[A-Za-z0-9]+)/.exec(added.output)![1];
		const listed = await cli(`webhooks list --account ${accountId}`);
		expect(listed.output).toContain('https://hooks.example.com/veriflow');
		expect(listed.output).not.toContain(secret);
		// Stored sealed, not in clear.
		const [row] = await app.uow.repos.accounts.listWebhookEndpoints(accountId);
		expect(row.secret).not.toContain(secret);
		expect(app.accounts.unsealWebhookSecret(row.secret)).toBe(secret);
		expect((await cli(`webhooks remove ${id}`)).code).toBe(0);
		expect((await cli(`webhooks remove ${id}`)).code).toBe(1);
		expect((await cli(`webhooks add --account ${accountId} --url ftp://x`)).output).toContain('must be https, not ftp');
		expect((await cli(`webhooks add --account ${accountId} --url http://hooks.example.com/x`)).output).toContain('plain http is accepted for localhost / 127.0.0.1 only');
		expect((await cli(`webhooks add --account acct_nope --url https://x.example`)).output).toContain("No account 'acct_nope'");
	});

	it('sets the origins allowed to embed an account and validates them', async () => {
		const accountId = await app.accounts.createAccount('Embed');
		expect((await cli(`accounts frame-ancestors ${accountId} https://app.example.com http://localhost:8080`)).code).toBe(0);
		expect((await app.uow.repos.accounts.getAccount(accountId))!.frameAncestors).toEqual(['https://app.example.com', 'http://localhost:8080']);
		expect((await cli(`accounts frame-ancestors ${accountId} javascript:alert(1)`)).code).toBe(1);
		expect((await cli(`accounts frame-ancestors ${accountId}`)).output).toContain('Cleared');
	});

	it('changes the catalogues and fires settings.* events', async () => {
		expect((await cli('avatars put --id nova --name Nova --gender female --image /avatars/ava.svg')).code).toBe(0);
		expect((await app.catalogue.avatars()).map((a) => a.id)).toContain('nova');
		expect((await cli('avatars remove nova')).code).toBe(0);
		expect((await app.catalogue.avatars()).map((a) => a.id)).not.toContain('nova');
		expect((await cli('langs disable ja')).code).toBe(0);
		expect((await app.catalogue.langs()).map((l) => l.id)).not.toContain('ja');
		expect((await cli('langs enable ja')).code).toBe(0);
		expect((await cli('langs disable klingon')).code).toBe(1);
		const events = await app.uow.repos.outbox.listForSession('');
		expect(events.map((e) => e.type)).toEqual(['settings.avatars', 'settings.avatars', 'settings.langs', 'settings.langs']);
		expect(events.every((e) => e.accountId === null)).toBe(true);
	});

	it('refuses a session in a language the catalogue has switched off', async () => {
		await cli('langs disable it');
		const key = (await app.accounts.createApiKey(await app.accounts.createAccount('L'), 'test')).key;
		const principal = (await app.accounts.authenticate(key))!;
		const err = await app.sessions
			.create(principal, { clientReferenceId: 'x', langs: ['it'], flow: [{ id: 's', type: 'start', outcome: 'e' }, { id: 'e', type: 'end' }] })
			.catch((e: Error) => e);
		expect((err as Error).message).toBe('Languages not offered by GET /langs: it');
		await cli('langs enable it');
	});

	it('answers an unknown command with the usage', async () => {
		const result = await cli('keys explode');
		expect(result.code).toBe(1);
		expect(result.output).toContain("Unknown command 'keys explode'");
		expect(result.output).toContain('Usage: npm run cli');
	});
});

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../../../tests/helpers/test-store.ts';
import { SIMPLE_FLOW } from '../../../../../tests/helpers/flows.ts';
import { createOtpDelivery, type OutgoingMessage } from './otp-delivery.ts';

/**
 * Sandbox passcodes go to the sandbox outbox and nowhere else, even with SMTP_URL and
 * SMS_WEBHOOK_URL configured: a test key (or the public demo) must not send mail or texts to any
 * address someone types. A local TCP listener stands in for the SMTP server and counts connections.
 */
describe('passcode delivery', () => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let smtp: net.Server;
	let connections = 0;
	let port = 0;
	const fetched: string[] = [];
	let ids = { sessionId: '', accountId: '' };

	beforeAll(async () => {
		app = await createTestApp('pglite');
		const principal = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('Acme'), 'test')).key))!;
		const { result } = await app.sessions.create(principal, { clientReferenceId: 'otp', flow: SIMPLE_FLOW });
		ids = { sessionId: result.session.id, accountId: principal.accountId };
		smtp = net.createServer((socket) => {
			connections++;
			socket.destroy();
		});
		await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
		port = (smtp.address() as net.AddressInfo).port;
	});
	afterAll(async () => {
		smtp.close();
		await app.dispose();
	});

	const delivery = () =>
		createOtpDelivery({
			smtpUrl: `smtp://127.0.0.1:${port}`,
			smtpFrom: 'Veriflow <no-reply@localhost>',
			smsWebhookUrl: 'http://127.0.0.1:9/sms',
			uow: app.uow,
			now: () => Date.now(),
			fetch: (async (url: string) => {
				fetched.push(String(url));
				return new Response('nope', { status: 500 });
			}) as typeof fetch
		});

	const message = (env: 'test' | 'live', channel: 'email' | 'sms'): OutgoingMessage => ({ channel, to: channel === 'email' ? 'stranger@example.com' : '+15550100', subject: 'Your code', text: 'Your code is 123456', ...ids, env });

	it('keeps sandbox passcodes in the outbox only, with a transport configured', async () => {
		for (const channel of ['email', 'sms'] as const) {
			expect(await delivery().send(message('test', channel))).toEqual({ delivered: true, sandbox: true });
		}
		expect(connections).toBe(0);
		expect(fetched).toEqual([]);
		const outbox = await app.uow.repos.sandboxMessages.list(ids.accountId, ids.sessionId);
		expect(outbox.map((m) => [m.channel, m.to, m.body])).toEqual(
			expect.arrayContaining([
				['email', 'stranger@example.com', 'Your code is 123456'],
				['sms', '+15550100', 'Your code is 123456']
			])
		);
	});

	it('sends live passcodes through the configured transport (and reports its failure)', async () => {
		const mail = await delivery().send(message('live', 'email'));
		expect(connections).toBe(1);
		expect(mail).toMatchObject({ delivered: false, sandbox: false, error: expect.any(String) });
		const sms = await delivery().send(message('live', 'sms'));
		expect(fetched).toEqual(['http://127.0.0.1:9/sms']);
		expect(sms).toEqual({ delivered: false, sandbox: false, error: 'SMS gateway answered 500' });
	});
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '#lib/server/app.ts';
import { runCommand } from '#lib/server/cli/commands.ts';
import { STORE_KINDS, createTestApp, testConfig } from '../../../../tests/helpers/test-store.ts';
import { createBody } from '../../../../tests/helpers/flows.ts';
import { startReceiver } from '../../../../tests/helpers/webhook-receiver.ts';
import type { ApiPrincipal } from '../repositories/account.repository.ts';
import { verifyMediaSignature } from '../media/signed-url.ts';
import { RETRY_DELAYS_MS } from '../webhooks/retry-schedule.ts';
import { verifyServiceSignature } from '../webhooks/webhook-signature.ts';

const T0 = 1_800_000_000_000;
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);

describe.each(STORE_KINDS)('webhook delivery on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	let dataDir: string;
	/** A clock that moves only when told: retry times can then be checked to the millisecond. */
	let t = T0;
	let alice: ApiPrincipal;
	let aliceAccount: string;
	let bobAccount: string;
	let aliceSecret: string;
	let bobSecret: string;
	let aliceLiveEndpoint: string;

	beforeAll(async () => {
		dataDir = mkdtempSync(path.join(tmpdir(), 'vf-delivery-'));
		receiver = await startReceiver((p) => {
			if (p.startsWith('/fail')) return { status: 503, body: 'try later' };
			if (p.startsWith('/gone')) return { status: 404, body: 'no such hook' };
			if (p.startsWith('/moved')) return { status: 301 };
			return { status: 200, body: 'thanks' };
		});
		app = await createTestApp(kind, { DATA_DIR: dataDir }, () => t);
		aliceAccount = await app.accounts.createAccount('Alice');
		bobAccount = await app.accounts.createAccount('Bob');
		alice = (await app.accounts.authenticate((await app.accounts.createApiKey(aliceAccount, 'test')).key))!;
	});
	afterAll(async () => {
		await app?.dispose();
		await receiver?.close();
		rmSync(dataDir, { recursive: true, force: true });
	});

	/** Fresh endpoints per test: earlier tests' endpoints are removed (disabled). */
	async function endpoints(alicePath: string, bobPath = '/ok-bob') {
		for (const e of await app.accounts.listWebhookEndpoints()) if (e.disabledAt === null) await app.accounts.removeWebhookEndpoint(e.id);
		aliceSecret = (await app.accounts.addWebhookEndpoint(aliceAccount, `${receiver.url}${alicePath}`)).secret;
		aliceLiveEndpoint = (await app.accounts.addWebhookEndpoint(aliceAccount, `${receiver.url}/ok-alice-live`, { env: 'live' })).id;
		bobSecret = (await app.accounts.addWebhookEndpoint(bobAccount, `${receiver.url}${bobPath}`)).secret;
	}
	const hits = (prefix: string) => receiver.received.filter((r) => r.path.startsWith(prefix));

	beforeEach(async () => {
		// Anything earlier tests left in the outbox is dispatched to the endpoints of that test.
		await app.relay.drain();
		await app.webhooks.deliverDue(2_000);
		receiver.received.length = 0;
	});

	it('fans an event out to its account\'s endpoints (env filter), settings.* to every account, and signs each body', async () => {
		await endpoints('/ok-alice');
		t += 1000;
		const { result } = await app.sessions.create(alice, createBody());
		t += 1000;
		await app.catalogue.setLangEnabled('ja', false);
		expect(await app.relay.drain()).toBe(2);
		t += 10;
		expect(await app.webhooks.deliverDue(5_000)).toBe(4);

		const aliceHits = hits('/ok-alice').filter((h) => !h.path.startsWith('/ok-alice-live'));
		expect(aliceHits.map((h) => h.json.type).sort()).toEqual(['session.status', 'settings.langs']);
		const status = aliceHits.find((h) => h.json.type === 'session.status')!;
		expect(Object.keys(status.json)).toEqual(['id', 'type', 'createdAt', 'sessionId']);
		expect(status.json).toEqual({ id: expect.stringMatching(/^evt_/), type: 'session.status', createdAt: T0 + 1000, sessionId: result.session.id });
		// The live-only endpoint gets the platform event but not the sandbox session's event.
		expect(hits('/ok-alice-live').map((h) => h.json.type)).toEqual(['settings.langs']);
		const bobHits = hits('/ok-bob');
		expect(bobHits.map((h) => h.json)).toEqual([{ id: expect.any(String), type: 'settings.langs', createdAt: T0 + 2000, sessionId: '' }]);

		// X-Service-Signature over "<t>.<body>" with the attempt's time, and Standard Webhooks headers.
		const sig = status.headers['x-service-signature'] as string;
		expect(sig).toBe(`t=${T0 + 2010},v1=${sig.split('v1=')[1]}`);
		expect(verifyServiceSignature(sig, status.body, aliceSecret, { now: T0 + 2010 })).toEqual({ ok: true, timestampMs: T0 + 2010 });
		expect(verifyServiceSignature(sig, status.body, bobSecret, { now: T0 + 2010 }).ok).toBe(false);
		expect(status.headers['webhook-id']).toBe(status.json.id);
		const wh = new Webhook(bobSecret);
		const bobHit = bobHits[0];
		// standardwebhooks checks the timestamp against the real clock: re-sign-free check via a fixed date.
		const realNow = Date.now;
		Date.now = () => Number(bobHit.headers['webhook-timestamp']) * 1000;
		try {
			expect(wh.verify(bobHit.body, bobHit.headers as Record<string, string>)).toEqual(bobHit.json);
		} finally {
			Date.now = realNow;
		}

		const attempts = await app.webhooks.attempts({ sessionId: result.session.id });
		expect(attempts).toHaveLength(1);
		expect(attempts[0]).toMatchObject({ attempt: 1, outcome: 'acknowledged', status: 200, responseSnippet: 'thanks', sentAt: T0 + 2010, nextAttemptAt: null, eventType: 'session.status' });
		expect(attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
		// Nothing is due any more: a second run sends nothing.
		expect(await app.webhooks.deliverDue(500)).toBe(0);
		expect(receiver.received.length).toBe(4);
		expect(aliceLiveEndpoint).toMatch(/^whe_/);
	});

	it('retries 5xx exactly 1 min, 5 min, 15 min, 1 h and 6 h after each failure, then marks it failed; resend starts over', async () => {
		await endpoints('/fail');
		t = T0 + 10_000_000;
		const { result } = await app.sessions.create(alice, createBody());
		await app.relay.drain();
		let expectedAttemptAt = t;
		for (let attempt = 1; attempt <= 6; attempt++) {
			t = expectedAttemptAt - 1;
			expect(await app.webhooks.deliverDue(1_000), `attempt ${attempt} not before its time`).toBe(0);
			t = expectedAttemptAt;
			expect(await app.webhooks.deliverDue(1_000), `attempt ${attempt} at its time`).toBe(1);
			const [last] = await app.webhooks.attempts({ sessionId: result.session.id, limit: 1 });
			expect(last).toMatchObject({ attempt, sentAt: expectedAttemptAt, outcome: 'retry', status: 503, responseSnippet: 'try later' });
			if (attempt < 6) {
				expect(last.nextAttemptAt).toBe(expectedAttemptAt + RETRY_DELAYS_MS[attempt - 1]);
				expectedAttemptAt = last.nextAttemptAt!;
			} else expect(last.nextAttemptAt).toBeNull();
		}
		t += 24 * 3600_000;
		expect(await app.webhooks.deliverDue(1_000)).toBe(0);
		const [failed] = await app.webhooks.deliveries({ sessionId: result.session.id });
		expect(failed).toMatchObject({ state: 'failed', failReason: 'retries_exhausted', attempts: 6, lastStatus: 503 });
		expect(hits('/fail')).toHaveLength(6);
		// Every attempt carried the same event id, each signed with its own time.
		expect(new Set(hits('/fail').map((h) => h.json.id)).size).toBe(1);
		expect(new Set(hits('/fail').map((h) => h.headers['x-service-signature'])).size).toBe(6);

		// The operator's view: the failed delivery, its attempt log, and a resend, through the CLI.
		const listed = await runCommand(app, ['webhooks', 'deliveries', '--state', 'failed', '--session', result.session.id]);
		expect(listed.output).toMatch(new RegExp(`${failed.eventId}\\s+session\\.status\\s+${result.session.id}\\s+whe_\\w+\\s+failed \\(retries_exhausted\\)\\s+6`));
		const log = await runCommand(app, ['webhooks', 'attempts', '--event', failed.eventId]);
		expect(log.code).toBe(0);
		expect(log.output.split('\n')).toHaveLength(7);
		expect(log.output).toContain('retry   503     ');
		expect(log.output).toContain('try later');
		expect((await runCommand(app, ['webhooks', 'attempts', '--event', 'x', '--session', 'y'])).code).toBe(1);

		receiver.setReply(() => ({ status: 200, body: 'back' }));
		try {
			expect(await runCommand(app, ['webhooks', 'resend', failed.eventId])).toEqual({ code: 0, output: expect.stringContaining('Re-queued 1 failed delivery') });
			expect(await app.webhooks.resend(failed.eventId)).toBe(0);
			expect(await app.webhooks.deliverDue(1_000)).toBe(1);
		} finally {
			receiver.setReply((p) => (p.startsWith('/fail') ? { status: 503, body: 'try later' } : p.startsWith('/gone') ? { status: 404, body: 'no such hook' } : p.startsWith('/moved') ? { status: 301 } : { status: 200, body: 'thanks' }));
		}
		const [after] = await app.webhooks.deliveries({ sessionId: result.session.id });
		expect(after).toMatchObject({ state: 'delivered', attempts: 1 });
		const attempts = await app.webhooks.attempts({ eventId: failed.eventId });
		expect(attempts.map((a) => a.attempt)).toEqual([1, 6, 5, 4, 3, 2, 1]);
		await expect(app.webhooks.resend('evt_doesnotexist')).rejects.toThrow(/No event/);
	});

	it('does not retry a 4xx or a redirect', async () => {
		await endpoints('/gone', '/moved');
		t += 1000;
		await app.catalogue.setLangEnabled('ja', true);
		await app.relay.drain();
		// Alice's /gone, Bob's /moved, and Alice's live-only endpoint (which answers 200).
		expect(await app.webhooks.deliverDue(1_000)).toBe(3);
		t += 7 * 3600_000;
		expect(await app.webhooks.deliverDue(1_000)).toBe(0);
		const rows = (await app.webhooks.deliveries({ state: 'failed', limit: 10 })).filter((r) => r.failReason === 'rejected');
		expect(rows.map((r) => [r.url.replace(receiver.url, ''), r.failReason, r.lastStatus, r.attempts]).sort()).toEqual([
			['/gone', 'rejected', 404, 1],
			['/moved', 'rejected', 301, 1]
		]);
	});

	it('cancels deliveries to an endpoint removed after the fan-out, without sending', async () => {
		await endpoints('/ok-removed');
		await app.sessions.create(alice, createBody());
		await app.relay.drain();
		const [endpoint] = (await app.accounts.listWebhookEndpoints(aliceAccount)).filter((e) => e.url.endsWith('/ok-removed'));
		await app.accounts.removeWebhookEndpoint(endpoint.id);
		expect(await app.webhooks.deliverDue(1_000)).toBe(0);
		expect(hits('/ok-removed')).toHaveLength(0);
		const rows = await app.webhooks.deliveries({ state: 'failed', limit: 1 });
		expect(rows[0]).toMatchObject({ endpointId: endpoint.id, failReason: 'endpoint_removed', attempts: 0 });
	});

	it('puts the media object (signed at the attempt) on media.* events only', async () => {
		await endpoints('/ok-media');
		t += 1000;
		const { result } = await app.sessions.create(alice, createBody());
		await app.uow.transaction((repos) => app.sessions.transition(repos, result.session.id, 'inProgress'));
		const created = t;
		const info = await app.media.ingest({ sessionId: result.session.id, kind: 'user_photo', bytes: JPEG, nodeId: 'face' });
		await app.relay.drain();
		t += 60_000;
		await app.webhooks.deliverDue(1_000);
		const photo = hits('/ok-media').find((h) => h.json.type === 'media.user_photo')!;
		expect(photo.json).toEqual({
			id: expect.any(String),
			type: 'media.user_photo',
			createdAt: created,
			sessionId: result.session.id,
			media: { id: info.id, createdAt: created, url: expect.stringContaining(`http://veriflow.test/media/${info.id}?exp=${t + 15 * 60_000}&sig=`), expires: t + 15 * 60_000, contentType: 'image/jpeg' }
		});
		const url = new URL(photo.json.media!.url as string);
		expect(verifyMediaSignature({ id: info.id, exp: url.searchParams.get('exp'), sig: url.searchParams.get('sig'), secret: app.keys.mediaKey, now: t })).toBe(true);
		for (const h of hits('/ok-media').filter((h) => h.json.type === 'session.status')) expect(h.json).not.toHaveProperty('media');
	});

	it('refuses to register a plain-http endpoint that is not on this machine, or a secret that cannot sign', async () => {
		await expect(app.accounts.addWebhookEndpoint(aliceAccount, 'http://hooks.example.com/x')).rejects.toThrow(/must be https/);
		await expect(app.accounts.addWebhookEndpoint(aliceAccount, 'https://hooks.example.com/x')).resolves.toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
		await expect(app.accounts.addWebhookEndpoint(aliceAccount, 'https://hooks.example.com/y', { secret: 'password-password' })).rejects.toThrow(/whsec_/);
	});

	if (kind === 'postgres') {
		it('lets two instances deliver concurrently without sending any attempt twice', async () => {
			await endpoints('/ok-pair');
			const second = await createApp(testConfig({ DATABASE_URL: app.config.DATABASE_URL!, DATA_DIR: dataDir }), { inMemory: true, workers: false, now: () => t });
			try {
				receiver.setReply(() => ({ status: 200, delayMs: 5 }));
				const ids = [];
				for (let i = 0; i < 120; i++) ids.push((await app.sessions.create(alice, createBody({ clientReferenceId: `pair-${i}` }))).result.session.id);
				// Both relay and both deliver, at the same time. The second instance's pool connects
				// first: on a loaded machine a cold connect outlasted the first instance's claims of all
				// 120 (64 at a time), which proved nothing about two instances sharing the work.
				await second.webhooks.deliveries({ limit: 1 });
				await Promise.all([app.relay.drain(), second.relay.drain()]);
				const [a, b] = await Promise.all([app.webhooks.deliverDue(20_000), second.webhooks.deliverDue(20_000)]);
				expect(a + b).toBe(120);
				expect(a).toBeGreaterThan(0);
				expect(b).toBeGreaterThan(0);
				const counts = new Map<string, number>();
				for (const h of hits('/ok-pair')) counts.set(h.json.sessionId, (counts.get(h.json.sessionId) ?? 0) + 1);
				expect(counts.size).toBe(120);
				expect([...counts.values()].every((n) => n === 1)).toBe(true);
				expect(new Set(ids)).toEqual(new Set(counts.keys()));
			} finally {
				receiver.setReply((p) => (p.startsWith('/fail') ? { status: 503, body: 'try later' } : { status: 200, body: 'thanks' }));
				await second.close();
			}
		});
	}
});

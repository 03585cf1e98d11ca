import { afterAll, describe, expect, it } from 'vitest';
import { verifyServiceSignature } from '#lib/server/webhooks/webhook-signature.ts';
import { apiClient, startServer, type RunningServer } from '../helpers/server.ts';
import { createBody } from '../helpers/flows.ts';
import { STORE_KINDS, createScratchDatabase } from '../helpers/test-store.ts';
import { startReceiver, waitFor } from '../helpers/webhook-receiver.ts';

const KEY = 'sk_test_CrashCrashCrashCrashCrash0001';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const SESSIONS = 30;

/**
 * Nothing is lost: events written with their state change survive a kill -9 of the whole server in
 * the middle of delivering them. After a restart on the same store every event arrives; an event
 * that arrives twice (its attempt was cut off by the crash) carries the same id and the same body.
 */
describe.each(STORE_KINDS)('webhook delivery survives kill -9 (%s)', (kind) => {
	const cleanups: (() => Promise<unknown>)[] = [];
	afterAll(async () => {
		for (const c of cleanups.reverse()) await c().catch(() => {});
	});

	it('delivers every event after a crash mid-delivery and a restart', { timeout: 120_000 }, async () => {
		// Slow answers, so that deliveries are in flight when the server dies.
		const receiver = await startReceiver(() => ({ status: 200, body: 'ok', delayMs: 1500 }));
		cleanups.push(() => receiver.close());
		const env: Record<string, string> = { LOG_LEVEL: 'debug', SEED_API_KEYS: KEY, SEED_WEBHOOK_URL: `${receiver.url}/hook`, SEED_WEBHOOK_SECRET: SECRET, RATE_LIMIT: '100000' };
		if (kind === 'postgres') {
			const db = await createScratchDatabase();
			cleanups.push(db.drop);
			env.DATABASE_URL = db.url;
		}
		let server: RunningServer = await startServer(env, { keepData: true });
		const dataDir = server.dataDir;
		cleanups.push(() => server.stop());

		const api = apiClient(server.url, KEY);
		const sessionIds: string[] = [];
		for (let i = 0; i < SESSIONS; i++) {
			const res = await api('POST', '/sessions', createBody({ clientReferenceId: `crash-${i}` }));
			expect(res.status).toBe(201);
			sessionIds.push(res.json.session.id);
		}
		// Kill while the receiver holds requests it has not answered: those attempts never get recorded.
		await waitFor(() => receiver.pending().length >= 3, 20_000, 'deliveries in flight');
		server.process.kill('SIGKILL');
		const cutOff = receiver.pending();
		await new Promise((r) => server.process.once('exit', r));
		// Whether some events were not even sent before the crash depends on the machine's speed: a
		// server keeps up to 64 attempts in flight, more than SESSIONS, so on a slow machine every
		// event may be among those cut off. Both cases must end with every event delivered.

		const crashed = server;
		server = await startServer(env, { dataDir });
		// A delivery claimed by the dead process waits out its lease (timeout + 5 s) and is sent again.
		await waitFor(() => sessionIds.every((id) => receiver.received.some((r) => r.json.sessionId === id)), 60_000, 'every session.status event');
		// The attempts the crash cut off (the receiver got them, the server never saw the answer) come again.
		await waitFor(() => cutOff.every((id) => receiver.counts().get(id)! >= 2), 60_000, 'the cut-off attempts to be sent again').catch(async (err: Error) => {
			// What the restarted server did with them, for whoever reads the failure; and whether its store still answers.
			const answer = apiClient(server.url, KEY)('GET', '/sessions?limit=1');
			const store = await Promise.race([answer, new Promise<never>((_, no) => setTimeout(() => no(new Error('no answer in 5 s')), 5000))]).then((r) => `store answers ${r.status}`, (e: Error) => `store does not answer: ${e.message}`);
			const lines = (crashed.logs() + '\n--- restarted ---\n' + server.logs()).split('\n').filter((l) => cutOff.some((id) => l.includes(id)) || l.startsWith('---') || /"level":(40|50)/.test(l));
			throw new Error(`${err.message}; ${store}; cut off: ${cutOff.join(', ')}; received: ${JSON.stringify([...receiver.counts()])}\n${lines.slice(-40).join('\n')}`);
		});

		const byId = new Map<string, string>();
		for (const hit of receiver.received) {
			expect(hit.json.type).toBe('session.status');
			expect(verifyServiceSignature(hit.headers['x-service-signature'] as string, hit.body, SECRET).ok).toBe(true);
			// A duplicate is the same event: same id, same payload.
			if (byId.has(hit.json.id)) expect(hit.body).toBe(byId.get(hit.json.id));
			byId.set(hit.json.id, hit.body);
		}
		expect(byId.size).toBe(SESSIONS);
		expect(cutOff.length).toBeGreaterThanOrEqual(3);
		expect(new Set([...byId.values()].map((b) => JSON.parse(b).sessionId))).toEqual(new Set(sessionIds));
	});
});

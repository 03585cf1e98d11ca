/**
 * Webhook delivery throughput and the outbox's cost, on PostgreSQL (the multi-instance store):
 *
 * 1. Deliveries per second to a local node:http receiver with 1 and with 2 app instances (the
 *    production build, workers on) sharing one database: N events are written into the outbox at
 *    once and the receiver counts them. None may be lost; none may arrive twice (no attempt fails
 *    here, so there are no retries to excuse a duplicate).
 * 2. The extra latency the outbox adds to a status change: the same transaction (lock the session
 *    row, update it) with and without the outbox insert, interleaved in the same run.
 *
 * `npm run bench -- webhooks` (or `npx tsx bench/webhooks.bench.ts`). BENCH_EVENTS, BENCH_ITERATIONS;
 * BENCH_BUILD runs another build folder (an older build, to compare before and after).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { assembleApp } from '#lib/server/app.ts';
import { parseConfig } from '#lib/server/config.ts';
import { recordEvent } from '#lib/server/services/event.service.ts';
import { createScratchDatabase } from '../tests/helpers/test-store.ts';
import { startServer, type RunningServer } from '../tests/helpers/server.ts';
import { createBody } from '../tests/helpers/flows.ts';
import { startReceiver, waitFor } from '../tests/helpers/webhook-receiver.ts';
import { fmt } from './load.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1500);
const KEY = 'sk_test_BenchHooksBenchHooksBench0001';
const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Throughput {
	instances: number;
	events: number;
	distinct: number;
	received: number;
	seconds: number;
	perSecond: number;
	retries: number;
	pgVersion: string;
	/** The peer measured just before: plain node:http POSTs to a receiver, no database. */
	ceiling: number;
	load: number;
}

/**
 * The peer: the same number of POSTs of a same-sized body to the same kind of receiver, 16 at a
 * time over keep-alive node:http, nothing else. What the machine allows before any delivery work.
 */
async function ceiling(): Promise<number> {
	const receiver = await startReceiver();
	const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
	const body = JSON.stringify({ id: 'evt_bench0000000000000000', type: 'session.status', createdAt: Date.now(), sessionId: 'ses_bench000000000000000000' });
	const url = new URL(`${receiver.url}/hook`);
	const post = () =>
		new Promise<void>((resolve, reject) => {
			const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
				res.resume();
				res.on('end', resolve);
			});
			req.on('error', reject);
			req.end(body);
		});
	let next = 0;
	const t0 = performance.now();
	await Promise.all(
		Array.from({ length: 16 }, async () => {
			while (next++ < EVENTS) await post();
		})
	);
	const rate = EVENTS / ((performance.now() - t0) / 1000);
	agent.destroy();
	await receiver.close();
	return rate;
}

async function throughput(instances: number): Promise<Throughput> {
	const peer = await ceiling();
	const db = await createScratchDatabase(BASE);
	const receiver = await startReceiver();
	const servers: RunningServer[] = [];
	const client = new pg.Client({ connectionString: db.url });
	try {
		// One after the other: the first seeds the key and the endpoint, the others find them.
		for (let i = 0; i < instances; i++) {
			servers.push(await startServer({ DATABASE_URL: db.url, SEED_API_KEYS: KEY, SEED_WEBHOOK_URL: `${receiver.url}/hook`, SEED_WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'error', RATE_LIMIT: '1000000' }, { build: process.env.BENCH_BUILD }));
		}
		await client.connect();
		const [{ account_id: accountId }] = (await client.query('select account_id from api_keys limit 1')).rows;
		const t0 = performance.now();
		await client.query(
			`insert into outbox_events (id, account_id, env, type, session_id, created_at, payload)
			 select 'evt_bench' || g, $1, 'test', 'session.status', 'ses_bench' || g, $2::bigint + g, '{}'::jsonb from generate_series(1, $3::int) g`,
			[accountId, Date.now(), EVENTS]
		);
		await waitFor(() => receiver.counts().size >= EVENTS, 300_000, `${EVENTS} deliveries`);
		const seconds = (performance.now() - t0) / 1000;
		// Anything sent twice would show up within the claim lease; wait a little for stragglers.
		await new Promise((r) => setTimeout(r, 2000));
		const retries = Number((await client.query('select count(*)::int as n from webhook_attempts where attempt > 1')).rows[0].n);
		const pgVersion = String((await client.query('show server_version')).rows[0].server_version).split(' ')[0];
		return {
			instances,
			events: EVENTS,
			distinct: receiver.counts().size,
			received: receiver.received.length,
			seconds,
			perSecond: EVENTS / seconds,
			retries,
			pgVersion,
			ceiling: peer,
			load: loadavg()[0]
		};
	} finally {
		await client.end().catch(() => {});
		for (const s of servers) await s.stop();
		await receiver.close();
		await db.drop();
	}
}

interface Latency {
	store: string;
	withoutP50: number;
	withP50: number;
	withoutMean: number;
	withMean: number;
}

/** Status-change transactions with and without the outbox insert, interleaved, on one store. */
async function outboxLatency(kind: 'pglite' | 'postgres'): Promise<Latency> {
	const env: Record<string, string> = { LOG_LEVEL: 'silent', SECRET_KEY: 'bench-secret-0123456789abcdef0123456789', WORKERS: 'false' };
	let drop = async () => {};
	if (kind === 'postgres') {
		const db = await createScratchDatabase(BASE);
		env.DATABASE_URL = db.url;
		drop = db.drop;
	}
	// The status changes are timed at the unit of work, below the services.
	const { app, internals } = await assembleApp(parseConfig(env), { inMemory: true, workers: false });
	try {
		const principal = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('Bench'), 'test')).key))!;
		const ids: string[] = [];
		for (let i = 0; i < 50; i++) ids.push((await app.sessions.create(principal, createBody({ clientReferenceId: `lat-${i}` }))).result.session.id);
		const change = (id: string, withOutbox: boolean) =>
			internals.uow.transaction(async (repos) => {
				const row = await repos.sessions.lockById(id);
				const at = Date.now();
				await repos.sessions.update(id, { updatedAt: at, lastActivityAt: at });
				if (withOutbox) await recordEvent(repos, { type: 'session.status', sessionId: id, accountId: row!.accountId, env: row!.env, at });
			});
		const times: Record<'with' | 'without', number[]> = { with: [], without: [] };
		for (let i = 0; i < ITERATIONS + 200; i++) {
			for (const variant of i % 2 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
				const t = performance.now();
				await change(ids[i % ids.length], variant === 'with');
				if (i >= 200) times[variant].push(performance.now() - t); // the first 200 warm up
			}
		}
		const p50 = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
		const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
		return { store: kind, withoutP50: p50(times.without), withP50: p50(times.with), withoutMean: mean(times.without), withMean: mean(times.with) };
	} finally {
		await app.close();
		await drop();
	}
}

async function main() {
	console.error(`Webhook bench: ${EVENTS} events per run, ${ITERATIONS} status changes per variant`);
	const runs: Throughput[] = [];
	for (const n of [1, 2]) {
		runs.push(await throughput(n));
		console.error(`  ${n} instance(s): ${fmt(runs[runs.length - 1].perSecond, 0)} deliveries/s`);
	}
	const latency: Latency[] = [];
	for (const kind of ['postgres', 'pglite'] as const) latency.push(await outboxLatency(kind));

	const lines = [
		`Webhook delivery, ${new Date().toISOString().slice(0, 10)}: ${EVENTS} session.status events written to the outbox at once, one endpoint (a node:http receiver answering 200 at once), PostgreSQL ${runs[0].pgVersion}, production build, client, servers, receiver and database on the same 2-core machine.`,
		'',
		'| app instances | deliveries/s | × peer | seconds | events | distinct received | received in all | duplicates | retried attempts | peer POSTs/s | load avg |',
		'|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		...runs.map(
			(r) =>
				`| ${r.instances} | ${fmt(r.perSecond, 0)} | ${fmt(r.perSecond / r.ceiling, 2)} | ${fmt(r.seconds, 2)} | ${r.events} | ${r.distinct} | ${r.received} | ${r.received - r.distinct} | ${r.retries} | ${fmt(r.ceiling, 0)} | ${fmt(r.load, 1)} |`
		),
		'',
		'Peer: the same number of POSTs of a same-sized body to the same receiver, 16 at a time over keep-alive node:http from the bench process, no database, measured just before each row. Load avg: the machine\'s 1-minute load when the row finished (other work shares these 2 cores).',
		'',
		`Extra latency of the outbox insert on a status change (the transaction locks the session row and updates it; "with" also inserts the outbox event), ${ITERATIONS} changes per variant, interleaved:`,
		'',
		'| store | without outbox p50 ms | with outbox p50 ms | added p50 ms | without mean ms | with mean ms | added mean ms |',
		'|---|---:|---:|---:|---:|---:|---:|',
		...latency.map((l) => `| ${l.store} | ${fmt(l.withoutP50, 3)} | ${fmt(l.withP50, 3)} | ${fmt(l.withP50 - l.withoutP50, 3)} | ${fmt(l.withoutMean, 3)} | ${fmt(l.withMean, 3)} | ${fmt(l.withMean - l.withoutMean, 3)} |`)
	];
	const text = lines.join('\n');
	console.log(text);
	mkdirSync('bench/results', { recursive: true });
	writeFileSync(path.join('bench/results', 'webhooks.md'), `${text}\n`);
	const lost = runs.some((r) => r.distinct !== r.events);
	const doubled = runs.some((r) => r.received - r.distinct > r.retries);
	if (lost || doubled) {
		console.error(lost ? 'FAIL: events were lost' : 'FAIL: events were delivered twice without a retry');
		process.exit(1);
	}
}

main().then(
	() => process.exit(0),
	(err) => {
		console.error(err);
		process.exit(1);
	}
);

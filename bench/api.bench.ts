/**
 * Session API throughput and latency: POST /sessions and GET /sessions (a page of 100 of 100 000
 * sessions, filtered), on PGlite and on PostgreSQL, against two peers on the same machine: for
 * POST, a bare node:http server writing the same three rows in one transaction on the same store
 * (bench/peers/plain-create-server.ts), run right after the app; for GET, a trivial node:http
 * server answering the same bytes (the ceiling). Run with `npm run bench -- api`.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assembleApp } from '#lib/server/app.ts';
import { parseConfig } from '#lib/server/config.ts';
import { createScratchDatabase } from '../tests/helpers/test-store.ts';
import { freePort, startServer } from '../tests/helpers/server.ts';
import { createBody } from '../tests/helpers/flows.ts';
import { fmt, load, type LoadResult } from './load.ts';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = 16;
const KEY = 'sk_test_BenchBenchBenchBenchBench0001';
const LIST_QUERY = '/api/sessions?limit=100&status=complete';

async function seed(env: Record<string, string>, dataDir: string): Promise<string> {
	// The seeding clones rows in SQL, so it takes the store that routes never see.
	const { app, internals } = await assembleApp(parseConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', SECRET_KEY: 'bench-secret-0123456789abcdef0123456789' }), { workers: false });
	try {
		await app.accounts.seedKeys([KEY]);
		const principal = (await app.accounts.authenticate(KEY))!;
		const { result } = await app.sessions.create(principal, createBody({ clientReferenceId: 'template', metadata: { customer: 'Bench Customer', plan: 'gold' } }));
		// Clone the template in SQL: 100 000 API calls would benchmark the seeding, not the list.
		await internals.store.query(
			`insert into sessions (id, account_id, env, status, status_rank, created_at, started_at, finished_at, finished_sort, updated_at, client_reference_id, flow_id, settings, flow, search_text, version, step)
			 select 'ses_bench' || g, s.account_id, s.env,
			        (array['created','inProgress','complete','incomplete'])[1 + g % 4], g % 4,
			        s.created_at - ($1::bigint - g) * 1000,
			        case when g % 4 > 0 then s.created_at - ($1::bigint - g) * 1000 + 5000 end,
			        case when g % 4 > 1 then s.created_at - ($1::bigint - g) * 1000 + 60000 end,
			        case when g % 4 > 1 then s.created_at - ($1::bigint - g) * 1000 + 60000 else 0 end,
			        s.updated_at, 'ref-' || (g % 1000), s.flow_id, s.settings, s.flow, s.search_text || ' ' || g, s.version, 0
			   from sessions s, generate_series(1, $1::int - 1) g where s.id = $2`,
			[SESSIONS, result.session.id]
		);
		await internals.store.query(
			`insert into client_secrets (session_id, hash, sealed, created_at, expire_at)
			 select id, md5(id) || md5(id || 'x'), 'v1.x.x.x', created_at, created_at + 86400000 from sessions where id like 'ses_bench%'`
		);
		await internals.store.query('analyze');
		return principal.accountId;
	} finally {
		await app.close();
	}
}

/** The POST peer on the store the app just used (its process stopped: PGlite is one process's). */
async function runPeer(env: Record<string, string>, body: string): Promise<{ post: LoadResult; list: LoadResult }> {
	const port = await freePort();
	const child = spawn(process.execPath, ['bench/peers/plain-create-server.ts'], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
	try {
		await new Promise<void>((resolve, reject) => {
			child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
			child.on('exit', (code) => reject(new Error(`peer exited with ${code}`)));
		});
		const post = await load(() => ({ url: `http://127.0.0.1:${port}/`, init: { method: 'POST', headers: { 'content-type': 'application/json' }, body } }), { seconds: SECONDS, concurrency: CONCURRENCY, cpuPid: child.pid });
		const list = await load(() => ({ url: `http://127.0.0.1:${port}/sessions` }), { seconds: SECONDS, concurrency: CONCURRENCY, cpuPid: child.pid });
		return { post, list };
	} finally {
		child.kill('SIGTERM');
		await new Promise((r) => child.once('exit', r));
	}
}

async function runStore(kind: 'pglite' | 'postgres'): Promise<{ runs: Record<string, { post: LoadResult; list: LoadResult }>; peer: { post: LoadResult; list: LoadResult }; body: string }> {
	const dataDir = path.resolve('tests/.tmp', `bench-${kind}`);
	rmSync(dataDir, { recursive: true, force: true });
	mkdirSync(dataDir, { recursive: true });
	const env: Record<string, string> = {};
	let drop = async () => {};
	if (kind === 'postgres') {
		const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
		env.DATABASE_URL = scratch.url;
		drop = scratch.drop;
	}
	const t0 = performance.now();
	const accountId = await seed(env, dataDir);
	console.error(`  ${kind}: seeded ${SESSIONS} sessions in ${fmt((performance.now() - t0) / 1000)} s`);
	const body = JSON.stringify(createBody({ clientReferenceId: 'bench-post', metadata: { customer: 'Bench' } }));
	// BENCH_BEFORE names an older build folder to measure first, in the same run (before/after).
	const builds = [...(process.env.BENCH_BEFORE ? [process.env.BENCH_BEFORE] : []), 'build'];
	const runs: Record<string, { post: LoadResult; list: LoadResult }> = {};
	let listBody = '';
	for (const build of builds) {
		// BENCH_PROFILE=<folder>: the app's server writes a V8 CPU profile there when it stops.
		const profile: Record<string, string> = process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE, kind)}` } : {};
		const server = await startServer({ ...env, ...profile, SEED_API_KEYS: KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'error' }, { dataDir, keepData: true, build });
		try {
			const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
			const post = await load(() => ({ url: `${server.url}/api/sessions`, init: { method: 'POST', headers: auth, body } }), { seconds: SECONDS, concurrency: CONCURRENCY, cpuPid: server.process.pid });
			listBody = await (await fetch(`${server.url}${LIST_QUERY}`, { headers: auth })).text();
			const list = await load(() => ({ url: `${server.url}${LIST_QUERY}`, init: { headers: auth } }), { seconds: SECONDS, concurrency: CONCURRENCY, cpuPid: server.process.pid });
			runs[build] = { post, list };
		} finally {
			await server.stop();
		}
	}
	try {
		const peer = await runPeer(kind === 'postgres' ? { DATABASE_URL: env.DATABASE_URL, ACCOUNT_ID: accountId } : { PGLITE_DIR: path.join(dataDir, 'pglite'), ACCOUNT_ID: accountId }, body);
		return { runs, peer, body: listBody };
	} finally {
		await drop();
		rmSync(dataDir, { recursive: true, force: true });
	}
}

async function runCeiling(body: string): Promise<LoadResult> {
	const port = await freePort();
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(body);
		});
	});
	await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
	try {
		return await load(() => ({ url: `http://127.0.0.1:${port}/` }), { seconds: SECONDS, concurrency: CONCURRENCY, cpuPid: process.pid });
	} finally {
		server.close();
	}
}

const row = (name: string, r: LoadResult, peer: LoadResult) =>
	`| ${name} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.rps / peer.rps, 2)} | ${fmt(r.cpuMsPerRequest, 2)} | ${Object.entries(r.statuses).map(([s, n]) => `${s}×${n}`).join(' ')}${r.errors ? ` errors×${r.errors}` : ''} |`;

async function main() {
	console.error(`Session API bench: ${SESSIONS} sessions, ${SECONDS} s per run, concurrency ${CONCURRENCY}`);
	const kinds: ('pglite' | 'postgres')[] = process.env.BENCH_PGLITE === '0' ? [] : ['pglite'];
	if (process.env.TEST_DATABASE_URL || process.env.BENCH_POSTGRES !== '0') kinds.push('postgres');
	const results: Record<string, Awaited<ReturnType<typeof runStore>>> = {};
	for (const kind of kinds) {
		try {
			results[kind] = await runStore(kind);
		} catch (err) {
			console.error(`  ${kind}: skipped (${(err as Error).message.split('\n')[0]})`);
		}
	}
	const anyBody = Object.values(results)[0]?.body ?? '{}';
	const ceiling = await runCeiling(anyBody);
	const lines = [
		`Session API, ${new Date().toISOString().slice(0, 10)}, ${SESSIONS} sessions in the store, ${CONCURRENCY} concurrent clients, ${SECONDS} s per row, same machine (2 cores) for client and server.`,
		'',
		'| run | req/s | p50 ms | p99 ms | × peer | server CPU ms/req | statuses |',
		'|---|---:|---:|---:|---:|---:|---|',
		...Object.entries(results).flatMap(([kind, r]) => {
			const label = (build: string) => (Object.keys(r.runs).length > 1 ? ` (${build}/)` : '');
			return [
				...Object.entries(r.runs).map(([build, run]) => row(`POST /sessions — ${kind}${label(build)}`, run.post, r.peer.post)),
				row(`peer: node:http + ${kind === 'postgres' ? 'pg' : 'PGlite'}, the same three rows in one transaction`, r.peer.post, r.peer.post),
				...Object.entries(r.runs).map(([build, run]) => row(`GET ${LIST_QUERY.replace('/api', '')} — ${kind}${label(build)}`, run.list, r.peer.list)),
				row(`peer: node:http + ${kind === 'postgres' ? 'pg' : 'PGlite'}, the same select, summaries and cursor as JSON`, r.peer.list, r.peer.list)
			];
		}),
		row(`ceiling: node:http returning the same ${Math.round(anyBody.length / 1024)} KB page, no database`, ceiling, ceiling)
	];
	lines.push(
		'',
		`Rows are divided by the peer on the same store, run right after the app (POST, then GET); the ceiling runs last. Server CPU: the server process's user + system time over the measured window per answered request (the ceiling's includes the load generator, which shares its process). Load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' / ')}.`
	);
	const text = lines.join('\n');
	console.log(text);
	mkdirSync('bench/results', { recursive: true });
	writeFileSync('bench/results/api.md', `${text}\n`);
}

main().then(
	() => process.exit(0),
	(err) => {
		console.error(err);
		process.exit(1);
	}
);

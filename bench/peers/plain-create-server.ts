/**
 * The peer of `POST /sessions` in bench/api.bench.ts: a bare node:http server that reads the JSON
 * body and writes the same three rows as a create (session, client secret, outbox event) in one
 * transaction, with node-postgres (DATABASE_URL) or PGlite (none). No key check, no rate limit, no
 * validation, no framework: what this machine allows for the database work of a create alone.
 *
 * And the peer of `GET /sessions?limit=100&status=complete` (any GET): the same select of the same
 * columns in the same order, the rows turned into the API's session summaries and a cursor, as JSON.
 * What this machine allows for a page of sessions from the database, nothing else.
 *
 * Run by the bench as its own process (`node bench/peers/plain-create-server.ts`), like the app.
 * Env: PORT; DATABASE_URL or PGLITE_DIR (a migrated store, e.g. the app's after it stopped) with
 * ACCOUNT_ID (an existing account); with neither, an in-memory PGlite it migrates itself.
 * Prints `ready` on stdout once it listens.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS } from '../../src/lib/server/db/migrations.generated.ts';

type Exec = (sql: string, params?: unknown[]) => Promise<unknown>;

const id = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22)}`;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

interface Store {
	transaction: (statements: [string, unknown[]][]) => Promise<void>;
	rows: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
	accountId: string;
}

async function openStore(): Promise<Store> {
	if (process.env.DATABASE_URL) {
		const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
		return {
			accountId: process.env.ACCOUNT_ID!,
			rows: async (sql, params) => (await pool.query(sql, params)).rows,
			async transaction(statements) {
				const client = await pool.connect();
				try {
					await client.query('begin');
					for (const [sql, params] of statements) await client.query(sql, params);
					await client.query('commit');
				} catch (err) {
					await client.query('rollback').catch(() => {});
					throw err;
				} finally {
					client.release();
				}
			}
		};
	}
	const db = process.env.PGLITE_DIR ? await PGlite.create(process.env.PGLITE_DIR) : await PGlite.create();
	let accountId = process.env.ACCOUNT_ID ?? '';
	if (!process.env.PGLITE_DIR) {
		const exec: Exec = (sql, params) => db.query(sql, params);
		for (const m of MIGRATIONS) for (const s of m.sql.split('--> statement-breakpoint')) if (s.trim()) await exec(s);
		accountId = 'acct_peer';
		await exec('insert into accounts (id, name, created_at) values ($1, $2, $3)', [accountId, 'Peer', Date.now()]);
	}
	return {
		accountId,
		rows: async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows,
		transaction: (statements) =>
			db.transaction(async (tx) => {
				for (const [sql, params] of statements) await tx.query(sql, params);
			})
	};
}

const store = await openStore();

/** The bench's list query: a page of 100 complete sessions, newest first (bigint columns as text, as pg returns them). */
async function listPage(res: http.ServerResponse): Promise<void> {
	const rows = await store.rows(
		`select id, status, created_at, started_at, finished_at, settings, version, flow_id from sessions
		 where account_id = $1 and env = 'test' and status = 'complete' order by created_at desc, id desc limit 101`,
		[store.accountId]
	);
	const page = rows.slice(0, 100);
	const sessions = page.map((r) => {
		const s: Record<string, unknown> = { id: r.id, createdAt: Number(r.created_at), status: r.status, settings: r.settings, version: r.version, flowId: r.flow_id };
		if (r.started_at !== null) s.startedAt = Number(r.started_at);
		if (r.finished_at !== null) s.finishedAt = Number(r.finished_at);
		return s;
	});
	const last = page.at(-1);
	const out: Record<string, unknown> = { sessions, hasMore: rows.length > 100 };
	if (last && rows.length > 100) out.nextCursor = Buffer.from(JSON.stringify({ k: Number(last.created_at), i: last.id })).toString('base64url');
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(JSON.stringify(out));
}

const server = http.createServer((req, res) => {
	if (req.method === 'GET') {
		req.resume();
		listPage(res).catch((err: unknown) => {
			res.writeHead(500, { 'content-type': 'text/plain' });
			res.end(String(err));
		});
		return;
	}
	const chunks: Buffer[] = [];
	req.on('data', (c: Buffer) => chunks.push(c));
	req.on('end', async () => {
		try {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			const now = Date.now();
			const sessionId = id('ses');
			const secret = `cs_${randomBytes(24).toString('base64url')}`;
			const settings = JSON.stringify(body);
			await store.transaction([
				[
					`insert into sessions (id, account_id, env, status, status_rank, created_at, updated_at, client_reference_id, flow_id, settings, flow, search_text, version)
					 values ($1, $2, 'test', 'created', 0, $3, $3, $4, $5, $6, $7, $8, '1.0.18')`,
					[sessionId, store.accountId, now, String(body.clientReferenceId ?? ''), `flow_${sha(settings).slice(0, 20)}`, settings, JSON.stringify(body.flow ?? []), sessionId]
				],
				['insert into client_secrets (session_id, hash, sealed, created_at, expire_at) values ($1, $2, $3, $4, $5)', [sessionId, sha(secret), secret, now, now + 86_400_000]],
				["insert into outbox_events (id, account_id, env, type, session_id, created_at) values ($1, $2, 'test', 'session.status', $3, $4)", [id('evt'), store.accountId, sessionId, now]]
			]);
			const out = JSON.stringify({ session: { id: sessionId, createdAt: now, status: 'created', settings: body }, clientSecret: { secret, createdAt: now, expireAt: now + 86_400_000 } });
			res.writeHead(201, { 'content-type': 'application/json' });
			res.end(out);
		} catch (err) {
			res.writeHead(500, { 'content-type': 'text/plain' });
			res.end(String(err));
		}
	});
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => {
	server.close();
	server.closeAllConnections();
	process.exit(0);
});

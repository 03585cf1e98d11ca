import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { MIGRATIONS } from './migrations.generated.ts';
import { pgliteTemplate } from './pglite-template.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; same query API as `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Store {
	readonly kind: 'pglite' | 'postgres';
	readonly db: Db;
	/** The node-postgres pool (PostgreSQL only), for libraries that take one. */
	readonly pgPool?: pg.Pool;
	/**
	 * A small second pool (PostgreSQL only) whose commits do not wait for the disk
	 * (`synchronous_commit=off`), for counters where a crash may lose the last fraction of a second
	 * of increments: the rate limits. Every API request of one key updates one row; with commits
	 * waiting for the disk, that row's lock was held through each flush and requests queued on it.
	 */
	readonly counterPool?: pg.Pool;
	/** Raw SQL with positional parameters, for the few statements Drizzle has no builder for. */
	query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
	close(): Promise<void>;
}

export interface StoreOptions {
	/** postgres://… — PostgreSQL; otherwise PGlite. */
	databaseUrl?: string;
	/** PGlite data directory; omitted = in memory (tests). */
	dataDir?: string;
	/** node-postgres pool size. */
	poolSize?: number;
}

/** Opens the store (PGlite embedded, or PostgreSQL when a URL is given) and applies migrations. */
export async function openStore(options: StoreOptions): Promise<Store> {
	const store = options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10) : await openPglite(options.dataDir);
	try {
		await migrate(store);
	} catch (err) {
		await store.close();
		throw err;
	}
	return store;
}

async function openPglite(dataDir?: string): Promise<Store> {
	let client: PGlite;
	if (dataDir) {
		const dir = path.resolve(dataDir, 'pglite');
		mkdirSync(dir, { recursive: true });
		const unlock = lockDataDir(dir);
		try {
			// A new data directory starts from the template when there is one (pglite-template.ts).
			const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
			const template = fresh ? await pgliteTemplate(applyMigrations) : null;
			client = template ? await PGlite.create({ dataDir: dir, loadDataDir: template }) : await PGlite.create(dir);
		} catch (err) {
			unlock();
			throw err;
		}
		const close = client.close.bind(client);
		client.close = async () => {
			await close();
			unlock();
		};
	} else {
		const template = await pgliteTemplate(applyMigrations);
		client = template ? await PGlite.create({ loadDataDir: template }) : await PGlite.create();
	}
	const db = drizzlePglite({ client, schema }) as unknown as Db;
	return {
		kind: 'pglite',
		db,
		async query<T>(sql: string, params: unknown[] = []) {
			return (await client.query(sql, params)).rows as T[];
		},
		close: () => client.close()
	};
}

export class StoreInUseError extends Error {
	constructor(
		readonly dir: string,
		readonly pid: number
	) {
		super(`The embedded store in ${dir} is in use by process ${pid}. Stop that process, or point both at PostgreSQL with DATABASE_URL.`);
		this.name = 'StoreInUseError';
	}
}

/**
 * PGlite is one process's database: two processes on one data directory corrupt it. A pid file
 * keeps a second process out (a stale file from a crashed process is taken over).
 */
function lockDataDir(dir: string): () => void {
	const file = `${dir}.lock`;
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			writeFileSync(file, String(process.pid), { flag: 'wx' });
			const release = () => rmSync(file, { force: true });
			process.once('exit', release);
			return () => {
				process.off('exit', release);
				release();
			};
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const pid = Number(readFileSync(file, 'utf8').trim());
			if (pid && pid !== process.pid && isAlive(pid)) throw new StoreInUseError(dir, pid);
			rmSync(file, { force: true });
		}
	}
	throw new Error(`Could not lock ${dir}`);
}

/** The pid holding the embedded store in `dataDir`, if a live process does. */
export function embeddedStoreHolder(dataDir: string): number | null {
	try {
		const pid = Number(readFileSync(`${path.resolve(dataDir, 'pglite')}.lock`, 'utf8').trim());
		return pid && isAlive(pid) ? pid : null;
	} catch {
		return null;
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function openPostgres(url: string, max: number): Store {
	const pool = new pg.Pool({ connectionString: url, max });
	const counterPool = new pg.Pool({ connectionString: url, max: Math.max(2, Math.ceil(max / 2)), options: '-c synchronous_commit=off' });
	// An idle client that loses its server must not crash the process; the next query reconnects.
	pool.on('error', () => {});
	counterPool.on('error', () => {});
	const db = drizzlePg({ client: pool, schema }) as unknown as Db;
	return {
		kind: 'postgres',
		db,
		pgPool: pool,
		counterPool,
		async query<T>(sql: string, params: unknown[] = []) {
			return (await pool.query(sql, params)).rows as T[];
		},
		close: async () => {
			await Promise.all([pool.end(), counterPool.end()]);
		}
	};
}

const MIGRATION_LOCK = 7_300_418; // any constant shared by every instance of this app

/**
 * Applies pending migrations in order, each in its own transaction. On PostgreSQL an advisory lock
 * makes instances that start together take turns, so each migration runs once.
 */
async function migrate(store: Store): Promise<void> {
	if (store.kind === 'postgres') {
		// One dedicated connection: the lock, the transactions and the statements must share it.
		const pool = (store.db as unknown as { $client: pg.Pool }).$client;
		const client = await pool.connect();
		try {
			await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
			await runMigrations((sql, params) => client.query(sql, params));
		} finally {
			await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
			client.release();
		}
	} else {
		await applyMigrations((store.db as unknown as { $client: PGlite }).$client);
	}
}

/** Applies pending migrations on one PGlite client (the embedded store, or the template being made). */
function applyMigrations(client: PGlite): Promise<void> {
	return runMigrations((sql, params) => client.query(sql, params));
}

/** The migrations not yet recorded, each in its own transaction, over one connection's `exec`. */
async function runMigrations(exec: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>): Promise<void> {
	await exec('create table if not exists veriflow_migrations (name text primary key, applied_at bigint not null)');
	const done = new Set((await exec('select name from veriflow_migrations')).rows.map((r) => (r as { name: string }).name));
	for (const migration of MIGRATIONS) {
		if (done.has(migration.name)) continue;
		await exec('begin');
		try {
			for (const statement of migration.sql.split('--> statement-breakpoint')) {
				if (statement.trim()) await exec(statement);
			}
			await exec('insert into veriflow_migrations (name, applied_at) values ($1, $2)', [migration.name, Date.now()]);
			await exec('commit');
		} catch (err) {
			await exec('rollback');
			throw new Error(`Migration ${migration.name} failed: ${(err as Error).message}`, { cause: err });
		}
	}
}

import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { parseConfig, type Config } from '#lib/server/config.ts';
import { assembleApp, type App, type AppInternals } from '#lib/server/app.ts';

/** Store kinds the store suites run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const STORE_KINDS: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fresh, empty PostgreSQL database for one suite; dropped by the returned function. */
export async function createScratchDatabase(baseUrl = process.env.TEST_DATABASE_URL!): Promise<{ url: string; drop: () => Promise<void> }> {
	const name = `vf_test_${randomBytes(6).toString('hex')}`;
	const admin = new pg.Client({ connectionString: baseUrl });
	await admin.connect();
	await admin.query(`create database ${name}`);
	await admin.end();
	const url = new URL(baseUrl);
	url.pathname = `/${name}`;
	return {
		url: url.toString(),
		async drop() {
			const c = new pg.Client({ connectionString: baseUrl });
			await c.connect();
			await c.query(`drop database if exists ${name} with (force)`);
			await c.end();
		}
	};
}

export function testConfig(overrides: Record<string, string> = {}): Config {
	return parseConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://veriflow.test', SECRET_KEY: 'x'.repeat(40), WORKERS: 'false', ...overrides });
}

/**
 * An app on a fresh store of the given kind, with a controllable clock. The store suites also get
 * what routes never see (the unit of work, the store, the keys) to set up and read state.
 */
export async function createTestApp(kind: 'pglite' | 'postgres', overrides: Record<string, string> = {}, now?: () => number): Promise<App & AppInternals & { dispose: () => Promise<void> }> {
	let drop = async () => {};
	const env = { ...overrides };
	if (kind === 'postgres') {
		const scratch = await createScratchDatabase();
		env.DATABASE_URL = scratch.url;
		drop = scratch.drop;
	}
	const { app, internals } = await assembleApp(testConfig(env), { inMemory: true, now, workers: false });
	return Object.assign(app, internals, {
		async dispose() {
			await app.close();
			await drop();
		}
	});
}

/** A clock tests move by hand; each read advances 1 ms so ordering by time stays strict. */
export function manualClock(start = 1_800_000_000_000) {
	let t = start;
	const now = () => t++;
	return Object.assign(now, { set: (value: number) => (t = value), advance: (ms: number) => (t += ms) });
}

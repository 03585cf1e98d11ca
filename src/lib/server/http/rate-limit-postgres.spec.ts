import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../../tests/helpers/test-store.ts';
import { PostgresRateLimiter } from './rate-limit-postgres.ts';

// Only PostgreSQL shares counters between instances; the embedded store counts in memory.
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgresRateLimiter (PostgreSQL)', () => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let pool: pg.Pool;
	let statements = 0;
	let prefixes = 0;
	/** A fresh key prefix per test, so tests never share a row. */
	const limiter = (limit: number, windowS = 60, prefix = `t${prefixes++}`) => new PostgresRateLimiter(pool, limit, windowS, prefix);
	const T0 = 1_800_000_000_000;

	beforeAll(async () => {
		app = await createTestApp('postgres');
		const real = app.store.counterPool!;
		// Counts the statements the limiters send, to show that most requests send none.
		pool = new Proxy(real, {
			get(target, prop, receiver) {
				if (prop === 'query') return (...args: Parameters<pg.Pool['query']>) => (statements++, target.query(...args));
				return Reflect.get(target, prop, receiver);
			}
		});
	});
	afterAll(async () => app?.dispose());

	it('counts exactly with one instance: remaining falls to 0, then refuses until the window ends', async () => {
		const l = limiter(5);
		const seen = [];
		for (let i = 0; i < 7; i++) seen.push(await l.consume('key', T0 + i));
		expect(seen.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
		expect(seen.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
		expect(new Set(seen.map((d) => d.resetAt))).toEqual(new Set([T0 + 60_000]));
		const next = await l.consume('key', T0 + 60_000);
		expect(next).toMatchObject({ allowed: true, remaining: 4, resetAt: T0 + 120_000 });
	});

	it('hands most requests out of a reserved block, not one statement each', async () => {
		const l = limiter(100_000);
		const before = statements;
		for (let i = 0; i < 2000; i++) expect((await l.consume('busy', T0 + i)).allowed).toBe(true);
		// Blocks double from 1 up to 5 000 (a twentieth of the limit): 1+2+…+1024 covers 2047.
		expect(statements - before).toBeLessThanOrEqual(11);
		const last = await l.consume('busy', T0 + 2000);
		expect(last.remaining).toBe(100_000 - 2001);
	});

	it('never lets instances together exceed the limit, and strands at most a block less one per other instance', async () => {
		const instances = [limiter(200, 60, 'shared'), limiter(200, 60, 'shared'), limiter(200, 60, 'shared')];
		const tries = Array.from({ length: 900 }, (_, i) => instances[i % 3]!.consume('k', T0 + i));
		const decisions = await Promise.all(tries);
		const allowed = decisions.filter((d) => d.allowed).length;
		expect(allowed).toBeLessThanOrEqual(200);
		// The block is at most 200 / 20 = 10 points: two other instances strand at most 9 each.
		expect(allowed).toBeGreaterThanOrEqual(200 - 2 * 9);
		const row = (await app.store.query<{ points: number }>(`select points from rate_limits where key = 'shared:k'`))[0];
		expect(row?.points).toBeLessThanOrEqual(200);
	});

	it('lets concurrent requests of one instance share one reservation in flight', async () => {
		const l = limiter(1000);
		await l.consume('warm', T0); // a first block of one
		const before = statements;
		const decisions = await Promise.all(Array.from({ length: 3 }, (_, i) => l.consume('warm', T0 + 1 + i)));
		expect(decisions.every((d) => d.allowed)).toBe(true);
		// 3 requests, one reservation of 2 then one of 4: never one statement per waiting request.
		expect(statements - before).toBe(2);
	});

	it('remembers a full window: a key past its limit costs no statement until the window ends', async () => {
		const l = limiter(3);
		for (let i = 0; i < 3; i++) await l.consume('flood', T0 + i);
		const before = statements;
		for (let i = 0; i < 50; i++) expect((await l.consume('flood', T0 + 10 + i)).allowed).toBe(false);
		expect(statements - before).toBe(1);
	});

	it('fails the requests waiting on a reservation the store refused, and reserves afresh on the next one', async () => {
		// A store that fails once (a dropped connection): no request may hang on the failed reservation,
		// and nothing half-counted may stay behind in memory.
		let failNext = true;
		const flaky = new Proxy(pool, {
			get(target, prop, receiver) {
				if (prop === 'query')
					return (...args: Parameters<pg.Pool['query']>) => {
						if (failNext) {
							failNext = false;
							return Promise.reject(new Error('Connection terminated unexpectedly'));
						}
						return target.query(...args);
					};
				return Reflect.get(target, prop, receiver);
			}
		});
		const l = new PostgresRateLimiter(flaky, 5, 60, 'flaky');
		const first = await Promise.allSettled([l.consume('k', T0), l.consume('k', T0 + 1)]);
		expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
		const next = await l.consume('k', T0 + 2);
		expect(next).toMatchObject({ allowed: true, remaining: 4 });
		const row = (await app.store.query<{ points: number }>(`select points from rate_limits where key = 'flaky:k'`))[0];
		expect(row?.points).toBe(1);
	});

	it('deletes ended windows and leaves running ones', async () => {
		const l = limiter(10, 1, 'expiry');
		await l.consume('old', T0);
		await l.consume('new', T0 + 5000);
		const keysOf = async () => (await app.store.query<{ key: string }>(`select key from rate_limits where key like 'expiry:%' order by key`)).map((r) => r.key);
		expect(await keysOf()).toEqual(['expiry:new', 'expiry:old']);
		expect(await l.deleteEnded(T0 + 5500)).toBeGreaterThanOrEqual(1);
		expect(await keysOf()).toEqual(['expiry:new']);
	});
});

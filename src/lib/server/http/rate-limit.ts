import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type pg from 'pg';
import { PostgresRateLimiter, type RateLimitDecision } from './rate-limit-postgres.ts';

// The decision type lives with the lower module (the PostgreSQL limiter returns it too), so neither imports the other's.
export type { RateLimitDecision } from './rate-limit-postgres.ts';

/**
 * Fixed-window limits per key (an API key; a client address for the demo): in memory with the embedded store (one process), in
 * PostgreSQL when several instances share one (so the limit holds across them; see PostgresRateLimiter for how it avoids a
 * statement per request).
 */
export class RateLimiter {
	private readonly counter: PostgresRateLimiter | RateLimiterMemory;

	constructor(
		readonly limit: number,
		readonly windowS: number,
		pool?: pg.Pool,
		keyPrefix = 'api'
	) {
		this.counter = pool ? new PostgresRateLimiter(pool, limit, windowS, keyPrefix) : new RateLimiterMemory({ points: limit, duration: windowS, keyPrefix });
	}

	async consume(key: string, now = Date.now()): Promise<RateLimitDecision> {
		if (this.counter instanceof PostgresRateLimiter) return this.counter.consume(key, now);
		try {
			const res = await this.counter.consume(key, 1);
			return { allowed: true, limit: this.limit, remaining: res.remainingPoints, resetAt: now + res.msBeforeNext };
		} catch (err) {
			if (err instanceof RateLimiterRes) return { allowed: false, limit: this.limit, remaining: 0, resetAt: now + err.msBeforeNext };
			throw err;
		}
	}

	/** Deletes the shared table's ended windows (every limiter's); 0 in memory, which forgets them itself. */
	async deleteEnded(now = Date.now()): Promise<number> {
		return this.counter instanceof PostgresRateLimiter ? this.counter.deleteEnded(now) : 0;
	}
}

export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
	const headers: Record<string, string> = {
		'X-RateLimit-Limit': String(d.limit),
		'X-RateLimit-Remaining': String(Math.max(0, d.remaining)),
		// Unix milliseconds, like every other time in this API.
		'X-RateLimit-Reset': String(d.resetAt)
	};
	if (!d.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((d.resetAt - Date.now()) / 1000)));
	return headers;
}

import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type pg from 'pg';

export interface RateLimitDecision {
	allowed: boolean;
	limit: number;
	remaining: number;
	/** Unix ms when the window resets. */
	resetAt: number;
}

/**
 * Fixed-window limits per key (an API key; a client address for the demo): in memory with the embedded store (one process), in
 * PostgreSQL when several instances share one (so the limit holds across them).
 */
export class RateLimiter {
	private readonly limiter: RateLimiterAbstract;

	constructor(
		readonly limit: number,
		readonly windowS: number,
		pool?: pg.Pool,
		keyPrefix = 'api'
	) {
		const options = { points: limit, duration: windowS, keyPrefix };
		this.limiter = pool
			? new RateLimiterPostgres({ ...options, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: false })
			: new RateLimiterMemory(options);
	}

	async consume(key: string, now = Date.now()): Promise<RateLimitDecision> {
		try {
			const res = await this.limiter.consume(key, 1);
			return { allowed: true, limit: this.limit, remaining: res.remainingPoints, resetAt: now + res.msBeforeNext };
		} catch (err) {
			if (err instanceof RateLimiterRes) return { allowed: false, limit: this.limit, remaining: 0, resetAt: now + err.msBeforeNext };
			throw err;
		}
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

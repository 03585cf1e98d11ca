import type pg from 'pg';

export interface RateLimitDecision {
	allowed: boolean;
	limit: number;
	remaining: number;
	/** Unix ms when the window resets. */
	resetAt: number;
}

/** What one instance holds of a key's window: points reserved in PostgreSQL, and how many it has used. */
interface Lease {
	/** Unix ms when the key's window ends (the row's `expire`, shared by every instance). */
	expire: number;
	granted: number;
	used: number;
	/** The row's points after this instance's last reservation: every instance's reservations. */
	rowPoints: number;
	/** How many points the reservation asked for (it got fewer when the row had fewer left). */
	asked: number;
}

/**
 * A fixed-window limit per key, shared by every instance through one PostgreSQL row per key, without
 * a round trip per request: an instance reserves a block of the window's points in one upsert and
 * hands them out from memory, asking for a bigger block each time one runs out within the window (up
 * to a twentieth of the limit) and a smaller one in the next window.
 *
 * The limit is never exceeded: a reservation takes at most what the row has left. What it trades is
 * the last points of a window: at most `block - 1` unused points per other instance can sit reserved
 * when the row runs out, so a key near its limit can be refused a little early; with one instance
 * (or a limit under 40, where the block is one point) the count is exact. A full window is
 * remembered until it ends, so a key hammering past its limit costs no statements either.
 */
export class PostgresRateLimiter {
	private readonly leases = new Map<string, Lease>();
	private readonly inFlight = new Map<string, Promise<void>>();
	private readonly maxChunk: number;

	constructor(
		private readonly pool: pg.Pool,
		readonly limit: number,
		readonly windowS: number,
		/** rate-limiter-flexible's key layout (`api:<key>`), so instances of both kinds count one row. */
		private readonly keyPrefix: string
	) {
		this.maxChunk = Math.max(1, Math.floor(limit / 20));
	}

	async consume(key: string, now = Date.now()): Promise<RateLimitDecision> {
		for (;;) {
			const lease = this.leases.get(key);
			if (lease && now < lease.expire) {
				if (lease.used < lease.granted) {
					lease.used++;
					return { allowed: true, limit: this.limit, remaining: this.remainingOf(lease), resetAt: lease.expire };
				}
				if (lease.granted === 0) return { allowed: false, limit: this.limit, remaining: 0, resetAt: lease.expire };
			}
			// One reservation per key at a time: requests arriving meanwhile wait for it, then take from it.
			let pending = this.inFlight.get(key);
			if (!pending) {
				pending = this.reserve(key, lease, now).finally(() => this.inFlight.delete(key));
				this.inFlight.set(key, pending);
			}
			await pending;
		}
	}

	private remainingOf(lease: Lease): number {
		return Math.max(0, this.limit - lease.rowPoints + (lease.granted - lease.used));
	}

	private async reserve(key: string, lease: Lease | undefined, now: number): Promise<void> {
		// A block used up within its window was too small for this key's pace: ask for twice as much.
		// A new window starts from half the last block, so a key that slowed down strands less.
		const chunk = !lease ? 1 : now < lease.expire ? Math.min(this.maxChunk, lease.asked * 2) : Math.max(1, Math.floor(lease.asked / 2));
		// In SET, r.* is the row before this statement; a window that has ended starts over.
		const { rows } = await this.pool.query<{ points: number; expire: string; granted: number }>(
			`insert into rate_limits as r (key, points, expire, granted) values ($1, $2, $3, $2)
			 on conflict (key) do update set
			   points = case when r.expire is null or r.expire <= $4 then excluded.points else r.points + greatest(0, least(excluded.points, $5 - r.points)) end,
			   granted = case when r.expire is null or r.expire <= $4 then excluded.points else greatest(0, least(excluded.points, $5 - r.points)) end,
			   expire = case when r.expire is null or r.expire <= $4 then excluded.expire else r.expire end
			 returning points, expire, granted`,
			[`${this.keyPrefix}:${key}`, chunk, now + this.windowS * 1000, now, this.limit]
		);
		const row = rows[0]!;
		this.leases.set(key, { expire: Number(row.expire), granted: row.granted, used: 0, rowPoints: row.points, asked: chunk });
		if (this.leases.size > 10_000) this.forgetEnded(now);
	}

	/**
	 * Deletes the rows of windows that have ended, every prefix's (the `rate-limits-expiry` job): the
	 * demo's keys are client addresses, which would otherwise pile up. A later request starts over.
	 */
	async deleteEnded(now = Date.now()): Promise<number> {
		const { rowCount } = await this.pool.query('delete from rate_limits where expire <= $1', [now]);
		return rowCount ?? 0;
	}

	/** Keys are API keys and, for the demo, client addresses: windows that have ended are let go. */
	private forgetEnded(now: number): void {
		for (const [key, lease] of this.leases) if (lease.expire <= now) this.leases.delete(key);
	}
}

/** Retry delays of the page's API client: 1 s, 2 s, 4 s… up to 15 s, each ±20 % so clients spread out. */
export const BACKOFF = { baseMs: 1000, maxMs: 15_000, jitter: 0.2 } as const;

/** How long to wait before retry number `attempt` (0 for the first retry). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const plain = Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** Math.max(0, Math.min(attempt, 10)));
	const spread = plain * BACKOFF.jitter * (random() * 2 - 1);
	return Math.round(Math.min(BACKOFF.maxMs, Math.max(BACKOFF.baseMs / 2, plain + spread)));
}

/** Whether a failed request is worth retrying: the connection or the server, not the request. */
export function isTransient(status: number | null): boolean {
	return status === null || status === 408 || status === 429 || status >= 500;
}

/**
 * Webhook delivery schedule (pure). Attempt 1 is sent at once; after each retryable failure the next
 * attempt is due 1 min, 5 min, 15 min, 1 h and 6 h later (5 retries, 6 attempts in all); a failure of
 * attempt 6 marks the delivery `failed`. No jitter: the interface promises this exact schedule, and
 * `FOR UPDATE SKIP LOCKED` claiming already spreads load across instances.
 */

export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 6 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** An HTTP status, or why there was none. `invalid_url` is a URL that can never be sent to. */
export type AttemptResult = number | 'timeout' | 'network' | 'invalid_url';
export type ResponseClass = 'acknowledged' | 'final' | 'retry';

/**
 * What one attempt's result means for the delivery.
 * - 2xx: acknowledged.
 * - 4xx: final, as the interface says (the receiver rejected this event; sending it again unchanged
 *   won't help). That includes 408 and 429: the interface makes no exception for them.
 * - 3xx: final too. The sender never follows redirects: re-posting a signed body to wherever a
 *   `Location` points would hand events to a host the integrator never registered, and 301/302 turn a
 *   POST into a GET anyway. A redirect is an endpoint misconfiguration that retrying cannot fix; the
 *   attempt log shows the status so the integrator can correct the registered URL.
 * - `invalid_url` (not http(s), unparsable): final, nothing to wait for.
 * - 5xx, timeouts, connection errors: retry. Anything else a broken server might send (1xx as a final
 *   status, >= 600) is treated like a 5xx: the receiver misbehaved, the event was not accepted.
 */
export function classifyResponse(result: AttemptResult): ResponseClass {
	if (result === 'timeout' || result === 'network') return 'retry';
	if (result === 'invalid_url') return 'final';
	if (result >= 200 && result < 300) return 'acknowledged';
	if (result >= 300 && result < 500) return 'final';
	return 'retry';
}

/**
 * When attempt `attemptNumber + 1` is due, given that attempt `attemptNumber` (1-based) failed in a
 * retryable way at `now` (unix ms); `null` once the retries are used up. Delays count from the
 * failure, so a slow attempt (up to its time-out) pushes the next one back by as much.
 */
export function nextAttempt(attemptNumber: number, now: number): number | null {
	if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
		throw new RangeError(`attemptNumber must be an integer >= 1, got ${attemptNumber}`);
	}
	const delay = RETRY_DELAYS_MS[attemptNumber - 1];
	return delay === undefined ? null : now + delay;
}

export type DeliveryDecision =
	| { state: 'delivered' }
	| { state: 'failed'; reason: 'rejected' | 'retries_exhausted' }
	| { state: 'pending'; nextAttemptAt: number };

/** The state a delivery moves to after attempt `attemptNumber` ended with `result` at `now`. */
export function decideAfterAttempt(attemptNumber: number, result: AttemptResult, now: number): DeliveryDecision {
	const cls = classifyResponse(result);
	if (cls === 'acknowledged') return { state: 'delivered' };
	if (cls === 'final') return { state: 'failed', reason: 'rejected' };
	const at = nextAttempt(attemptNumber, now);
	return at === null ? { state: 'failed', reason: 'retries_exhausted' } : { state: 'pending', nextAttemptAt: at };
}

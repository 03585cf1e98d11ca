import { describe, expect, it } from 'vitest';
import {
	classifyResponse,
	decideAfterAttempt,
	MAX_ATTEMPTS,
	nextAttempt,
	type AttemptResult
} from './retry-schedule.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('classifyResponse', () => {
	it.each([
		[200, 'acknowledged'],
		[201, 'acknowledged'],
		[204, 'acknowledged'],
		[299, 'acknowledged'],
		[301, 'final'],
		[302, 'final'],
		[307, 'final'],
		[308, 'final'],
		[400, 'final'],
		[401, 'final'],
		[404, 'final'],
		[408, 'final'],
		[410, 'final'],
		[429, 'final'],
		[499, 'final'],
		[500, 'retry'],
		[502, 'retry'],
		[503, 'retry'],
		[599, 'retry'],
		[600, 'retry'],
		[101, 'retry'],
		['timeout', 'retry'],
		['network', 'retry'],
		['invalid_url', 'final']
	] as [AttemptResult, string][])('%s → %s', (result, expected) => {
		expect(classifyResponse(result)).toBe(expected);
	});
});

describe('nextAttempt', () => {
	const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);

	it('retries after exactly 1 min, 5 min, 15 min, 1 h, 6 h, then stops', () => {
		expect(nextAttempt(1, t0)).toBe(t0 + MIN);
		expect(nextAttempt(2, t0)).toBe(t0 + 5 * MIN);
		expect(nextAttempt(3, t0)).toBe(t0 + 15 * MIN);
		expect(nextAttempt(4, t0)).toBe(t0 + HOUR);
		expect(nextAttempt(5, t0)).toBe(t0 + 6 * HOUR);
		expect(nextAttempt(6, t0)).toBeNull();
		expect(nextAttempt(7, t0)).toBeNull();
		expect(MAX_ATTEMPTS).toBe(6);
	});

	it('rejects attempt numbers that cannot exist', () => {
		expect(() => nextAttempt(0, t0)).toThrow(RangeError);
		expect(() => nextAttempt(1.5, t0)).toThrow(RangeError);
	});

	it('walks a delivery that always gets 503 through the full schedule with an injected clock', () => {
		// Each attempt takes 250 ms before the failure is recorded; delays count from the failure.
		let clock = t0;
		const sentAt: number[] = [];
		let attempt = 1;
		let decision = null as ReturnType<typeof decideAfterAttempt> | null;
		for (;;) {
			sentAt.push(clock);
			clock += 250;
			decision = decideAfterAttempt(attempt, 503, clock);
			if (decision.state !== 'pending') break;
			clock = decision.nextAttemptAt;
			attempt++;
		}
		expect(decision).toEqual({ state: 'failed', reason: 'retries_exhausted' });
		expect(sentAt.length).toBe(6);
		expect(sentAt.map((t) => t - t0)).toEqual([
			0,
			250 + MIN,
			500 + MIN + 5 * MIN,
			750 + 21 * MIN,
			1000 + 21 * MIN + HOUR,
			1250 + 21 * MIN + 7 * HOUR
		]);
	});
});

describe('decideAfterAttempt', () => {
	it('acknowledges a 2xx and fails a 4xx or 3xx without retry', () => {
		expect(decideAfterAttempt(1, 200, 0)).toEqual({ state: 'delivered' });
		expect(decideAfterAttempt(3, 204, 0)).toEqual({ state: 'delivered' });
		expect(decideAfterAttempt(1, 404, 0)).toEqual({ state: 'failed', reason: 'rejected' });
		expect(decideAfterAttempt(1, 302, 0)).toEqual({ state: 'failed', reason: 'rejected' });
	});

	it('schedules retries for 5xx, timeouts and network errors until the sixth attempt', () => {
		expect(decideAfterAttempt(1, 'timeout', 1000)).toEqual({ state: 'pending', nextAttemptAt: 1000 + MIN });
		expect(decideAfterAttempt(5, 'network', 1000)).toEqual({ state: 'pending', nextAttemptAt: 1000 + 6 * HOUR });
		expect(decideAfterAttempt(6, 500, 1000)).toEqual({ state: 'failed', reason: 'retries_exhausted' });
	});
});

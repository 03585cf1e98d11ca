import { describe, expect, it } from 'vitest';
import { BACKOFF, backoffDelay, isTransient } from './backoff.ts';

describe('backoffDelay', () => {
	it('doubles from one second and stops at the cap', () => {
		const mid = () => 0.5; // no jitter
		expect([0, 1, 2, 3, 4, 5, 12].map((a) => backoffDelay(a, mid))).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
	});

	it('spreads each delay by at most 20 % and never exceeds the cap', () => {
		expect(backoffDelay(1, () => 0)).toBe(1600);
		expect(backoffDelay(1, () => 0.999999)).toBe(2400);
		expect(backoffDelay(9, () => 0.999999)).toBe(BACKOFF.maxMs);
	});
});

describe('isTransient', () => {
	it('retries lost connections, timeouts, rate limits and server errors only', () => {
		expect([null, 408, 429, 500, 502, 503].map(isTransient)).toEqual([true, true, true, true, true, true]);
		expect([400, 401, 404, 409, 410, 422].map(isTransient)).toEqual([false, false, false, false, false, false]);
	});
});

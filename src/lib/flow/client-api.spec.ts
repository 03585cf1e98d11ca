import { describe, expect, it, vi } from 'vitest';
import { PageApiError, PageClient, newRequestId, type RetryNotice } from './client-api.ts';

const ok = (body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });
const fail = (status: number, code?: string) => new Response(JSON.stringify({ error: { type: 'validation_error', message: 'no', ...(code ? { code } : {}) } }), { status });

describe('PageClient', () => {
	it('retries lost connections and server errors with the same body until one goes through', async () => {
		const answers: (() => Response)[] = [
			() => {
				throw new TypeError('Failed to fetch');
			},
			() => fail(503),
			() => ok({ state: { session: { step: 3 } } })
		];
		const bodies: string[] = [];
		const fetchFn = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
			bodies.push(String(init?.body));
			return answers.shift()!();
		});
		const retries: RetryNotice[] = [];
		const recovered = vi.fn();
		const client = new PageClient({ onRetry: (n) => (retries.push(n), n.retryNow()), onRecovered: recovered }, fetchFn as typeof fetch);
		client.token = 'pt_abc';
		const body = { step: 2, requestId: newRequestId(), action: 'submit', payload: { email: 'ada@example.com' } };
		const res = await client.submit('email', body);
		expect(res).toEqual({ state: { session: { step: 3 } } });
		expect(fetchFn).toHaveBeenCalledTimes(3);
		expect(new Set(bodies)).toEqual(new Set([JSON.stringify(body)]));
		expect(retries.map((r) => r.attempt)).toEqual([0, 1]);
		expect(retries[0]!.retryAt).toBeGreaterThan(Date.now());
		expect(recovered).toHaveBeenCalledOnce();
		expect((fetchFn.mock.calls[0]![1]!.headers as Record<string, string>).authorization).toBe('Bearer pt_abc');
	});

	it('throws answers that a retry would not change, with their error code', async () => {
		const client = new PageClient({ onRetry: () => expect.unreachable() }, (async () => fail(409, 'client_secret_used')) as typeof fetch);
		const err = await client.open({ clientSecret: 'cs_x', languages: [] }).catch((e) => e);
		expect(err).toBeInstanceOf(PageApiError);
		expect(err).toMatchObject({ status: 409, code: 'client_secret_used' });
	});

	it('stops retrying when its signal aborts', async () => {
		const controller = new AbortController();
		const client = new PageClient({ onRetry: () => controller.abort(new Error('left the page')) }, (async () => fail(502)) as typeof fetch);
		await expect(client.state(controller.signal)).rejects.toThrow('left the page');
	});

	it('corrects countdowns for a client clock that is clearly wrong', async () => {
		const serverTime = Date.now() + 60_000;
		const client = new PageClient({}, (async () => ok({}, { date: new Date(serverTime).toUTCString() })) as typeof fetch);
		await client.state();
		expect(Math.abs(client.serverNow() - serverTime)).toBeLessThan(1500);
	});
});

describe('newRequestId', () => {
	it('fits the server pattern and differs each time', () => {
		const a = newRequestId();
		expect(a).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
		expect(newRequestId()).not.toBe(a);
	});
});

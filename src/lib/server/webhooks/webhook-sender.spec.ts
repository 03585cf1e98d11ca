import { stat } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from './webhook-sender.ts';

interface Received {
	method?: string;
	headers: IncomingMessage['headers'];
	body: string;
}

let server: Server;
let base: string;
const received: Received[] = [];
let hugeBytesWritten = 0;
let hugeClosed: Promise<void> = Promise.resolve();

function route(req: IncomingMessage, res: ServerResponse, body: string) {
	received.push({ method: req.method, headers: req.headers, body });
	switch (req.url) {
		case '/ok':
			res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
			return;
		case '/not-found':
			res.writeHead(404).end('no such hook');
			return;
		case '/error':
			res.writeHead(500).end('boom');
			return;
		case '/redirect':
			res.writeHead(302, { location: `${base}/ok` }).end();
			return;
		case '/slow':
			setTimeout(() => res.writeHead(200).end('late'), 2_000).unref();
			return;
		case '/unicode':
			// 511 ASCII chars then a 4-byte emoji straddling the 512-char boundary, then more.
			res.writeHead(200).end(`${'a'.repeat(511)}😀😀tail`);
			return;
		case '/split-utf8': {
			// The two halves of "é" arrive in separate chunks.
			res.writeHead(200);
			const e = Buffer.from('é');
			res.write(Buffer.concat([Buffer.from('caf'), e.subarray(0, 1)]));
			setTimeout(() => res.end(e.subarray(1)), 20);
			return;
		}
		case '/huge': {
			res.writeHead(500, { 'content-type': 'text/plain' });
			const chunk = Buffer.alloc(64 * 1024, 'x');
			hugeClosed = new Promise((resolve) => res.on('close', () => resolve()));
			const pump = () => {
				// 200 MB cap so a broken client cannot keep the test running forever.
				while (!res.destroyed && hugeBytesWritten < 200 * 1024 * 1024) {
					hugeBytesWritten += chunk.length;
					if (!res.write(chunk)) {
						res.once('drain', pump);
						return;
					}
				}
				res.end();
			};
			pump();
			return;
		}
		default:
			res.writeHead(204).end();
	}
}

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => route(req, res, Buffer.concat(chunks).toString('utf8')));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

const payload = JSON.stringify({ id: 'evt_1', type: 'session.status' });
const headers = { 'X-Service-Signature': 't=1,v1=ab', 'webhook-id': 'evt_1' };

describe('sendWebhook against a real receiver', () => {
	it('acknowledges a 200 and sends the body and headers as given', async () => {
		const before = received.length;
		const res = await sendWebhook({ url: `${base}/ok`, headers, body: payload });
		expect(res).toMatchObject({ outcome: 'acknowledged', status: 200, attemptResult: 200, responseSnippet: 'thanks' });
		expect(res.error).toBeUndefined();
		expect(res.latencyMs).toBeGreaterThanOrEqual(0);
		const got = received[before];
		expect(got.method).toBe('POST');
		expect(got.body).toBe(payload);
		expect(got.headers['x-service-signature']).toBe('t=1,v1=ab');
		expect(got.headers['webhook-id']).toBe('evt_1');
		expect(got.headers['content-type']).toBe('application/json');
	});

	it('treats 404 as final', async () => {
		const res = await sendWebhook({ url: `${base}/not-found`, headers, body: payload });
		expect(res).toMatchObject({ outcome: 'final', status: 404, responseSnippet: 'no such hook' });
	});

	it('retries a 500', async () => {
		const res = await sendWebhook({ url: `${base}/error`, headers, body: payload });
		expect(res).toMatchObject({ outcome: 'retry', status: 500, responseSnippet: 'boom' });
	});

	it('does not follow a redirect', async () => {
		const before = received.length;
		const res = await sendWebhook({ url: `${base}/redirect`, headers, body: payload });
		expect(res).toMatchObject({ outcome: 'final', status: 302 });
		expect(received.length - before).toBe(1);
	});

	it('gives up on a receiver slower than the time-out', async () => {
		const t = performance.now();
		const res = await sendWebhook({ url: `${base}/slow`, headers, body: payload, timeoutMs: 300 });
		const took = performance.now() - t;
		expect(res).toMatchObject({ outcome: 'retry', attemptResult: 'timeout', responseSnippet: '' });
		expect(res.status).toBeUndefined();
		expect(res.error).toMatch(/timeout/);
		expect(took).toBeGreaterThanOrEqual(290);
		expect(took).toBeLessThan(1_500);
	});

	it('keeps an answer that arrived while the event loop was blocked past the time-out', async () => {
		// The receiver answered in time, but this process was busy (a document read, say) until after
		// the time-out: when the loop resumes, the answer and the timer are both due.
		const blockedFetch = ((_url: string, init: RequestInit) =>
			new Promise<Response>((resolve, reject) => {
				init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
				// The answer: an I/O completion, delivered in the loop's poll phase.
				stat(import.meta.filename, () => resolve(new Response('thanks', { status: 200 })));
				const until = performance.now() + 400;
				while (performance.now() < until) {
					// blocked
				}
			})) as typeof fetch;
		// Sent from the loop's check phase, as work after I/O is: when the loop comes round, it runs the
		// due timers before it polls for the answer.
		const res = await new Promise<Awaited<ReturnType<typeof sendWebhook>>>((resolve) =>
			setImmediate(() => resolve(sendWebhook({ url: `${base}/ok`, headers, body: payload, timeoutMs: 100, fetch: blockedFetch })))
		);
		expect(res).toMatchObject({ outcome: 'acknowledged', attemptResult: 200, status: 200 });
	});

	it('reports a refused connection as a retryable network error', async () => {
		const probe = createServer();
		await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
		const port = (probe.address() as AddressInfo).port;
		await new Promise((resolve) => probe.close(resolve));
		const res = await sendWebhook({ url: `http://127.0.0.1:${port}/`, headers, body: payload });
		expect(res).toMatchObject({ outcome: 'retry', attemptResult: 'network' });
		expect(res.error).toMatch(/ECONNREFUSED/);
	});

	it('reads only the start of a huge response body', async () => {
		hugeBytesWritten = 0;
		const res = await sendWebhook({ url: `${base}/huge`, headers, body: payload, timeoutMs: 5_000 });
		expect(res).toMatchObject({ outcome: 'retry', status: 500 });
		expect(res.responseSnippet).toBe('x'.repeat(512));
		await hugeClosed;
		// Only socket buffers' worth was ever written, nowhere near the 200 MB on offer.
		expect(hugeBytesWritten).toBeLessThan(16 * 1024 * 1024);
	});

	it('cuts the snippet at 512 characters without splitting a UTF-8 sequence', async () => {
		const res = await sendWebhook({ url: `${base}/unicode`, headers, body: payload });
		expect(Array.from(res.responseSnippet)).toHaveLength(512);
		expect(res.responseSnippet.endsWith('a😀')).toBe(true);
		expect(res.responseSnippet).not.toContain('\uFFFD');
		const split = await sendWebhook({ url: `${base}/split-utf8`, headers, body: payload });
		expect(split.responseSnippet).toBe('café');
	});

	it('returns an empty snippet for a bodiless 204', async () => {
		const res = await sendWebhook({ url: `${base}/empty`, headers, body: payload });
		expect(res).toMatchObject({ outcome: 'acknowledged', status: 204, responseSnippet: '' });
	});
});

describe('sendWebhook never throws', () => {
	it('turns an unusable URL into a final result', async () => {
		expect(await sendWebhook({ url: 'not a url', headers, body: payload })).toMatchObject({
			outcome: 'final',
			attemptResult: 'invalid_url'
		});
		expect(await sendWebhook({ url: 'ftp://example.com/x', headers, body: payload })).toMatchObject({
			outcome: 'final',
			attemptResult: 'invalid_url'
		});
	});

	it('turns a throwing fetch into a network error', async () => {
		const fetch = (async () => {
			throw new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }) });
		}) as typeof globalThis.fetch;
		const res = await sendWebhook({ url: 'https://x.invalid/', headers, body: payload, fetch });
		expect(res).toMatchObject({ outcome: 'retry', attemptResult: 'network', error: 'ENOTFOUND: getaddrinfo ENOTFOUND x' });
	});

	it('keeps the status when the body breaks after the headers', async () => {
		const body = new ReadableStream<Uint8Array>({
			start(c) {
				c.enqueue(new TextEncoder().encode('par'));
				c.error(new Error('socket hang up'));
			}
		});
		const fetch = (async () => new Response(body, { status: 200 })) as typeof globalThis.fetch;
		const res = await sendWebhook({ url: 'https://x.example/', headers, body: payload, fetch });
		expect(res).toMatchObject({ outcome: 'acknowledged', status: 200, responseSnippet: '' });
	});
});

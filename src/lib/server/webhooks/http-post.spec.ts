import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpPost } from './http-post.ts';
import { sendWebhook } from './webhook-sender.ts';

let server: Server;
let base: string;
const seen: { method?: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
			if (req.url === '/ok') res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
			else if (req.url === '/redirect') res.writeHead(302, { location: `${base}/ok` }).end();
			else if (req.url === '/slow') setTimeout(() => !res.destroyed && res.writeHead(200).end('late'), 2_000).unref();
			else if (req.url === '/huge') {
				res.writeHead(500);
				const chunk = Buffer.alloc(64 * 1024, 'y');
				const pump = () => {
					while (!res.destroyed && res.write(chunk));
					if (!res.destroyed) res.once('drain', pump);
				};
				pump();
			} else res.writeHead(204).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

const send = (path: string, extra: { timeoutMs?: number } = {}) => sendWebhook({ url: `${base}${path}`, headers: { 'X-Service-Signature': 't=1,v1=ab' }, body: '{"id":"evt_1"}', fetch: httpPost, ...extra });

describe('httpPost as the webhook sender\'s fetch', () => {
	it('posts the body and headers and reads the answer', async () => {
		const res = await send('/ok');
		expect(res).toMatchObject({ outcome: 'acknowledged', status: 200, responseSnippet: 'thanks' });
		const got = seen[seen.length - 1];
		expect(got).toMatchObject({ method: 'POST', body: '{"id":"evt_1"}' });
		expect(got.headers).toMatchObject({ 'x-service-signature': 't=1,v1=ab', 'content-type': 'application/json', 'content-length': '14', 'user-agent': 'Veriflow-Webhooks/1' });
		expect(await send('/empty')).toMatchObject({ outcome: 'acknowledged', status: 204, responseSnippet: '' });
	});

	it('never follows a redirect', async () => {
		const before = seen.length;
		expect(await send('/redirect')).toMatchObject({ outcome: 'final', status: 302 });
		expect(seen.length - before).toBe(1);
	});

	it('times out, reports refused connections with their code, and reads only the start of a huge body', async () => {
		const slow = await send('/slow', { timeoutMs: 300 });
		expect(slow).toMatchObject({ outcome: 'retry', attemptResult: 'timeout' });
		const probe = createServer();
		await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
		const port = (probe.address() as AddressInfo).port;
		await new Promise((resolve) => probe.close(resolve));
		const refused = await sendWebhook({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', fetch: httpPost });
		expect(refused).toMatchObject({ outcome: 'retry', attemptResult: 'network' });
		expect(refused.error).toMatch(/^ECONNREFUSED/);
		const huge = await send('/huge', { timeoutMs: 5_000 });
		expect(huge).toMatchObject({ outcome: 'retry', status: 500, responseSnippet: 'y'.repeat(512) });
	});

	it('reuses connections (keep-alive)', async () => {
		let connections = 0;
		const count = () => connections++;
		server.on('connection', count);
		try {
			for (let i = 0; i < 20; i++) await send('/ok');
		} finally {
			server.off('connection', count);
		}
		expect(connections).toBeLessThanOrEqual(1);
	});
});

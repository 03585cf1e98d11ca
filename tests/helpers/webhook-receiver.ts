import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
	json: { id: string; type: string; createdAt: number; sessionId: string; media?: Record<string, unknown> };
	at: number;
}

export type ReceiverReply = { status: number; body?: string; delayMs?: number };

/** A real node:http webhook receiver that records every request; replies per `reply` (default 200). */
export async function startReceiver(reply: (path: string, hit: ReceivedWebhook) => ReceiverReply = () => ({ status: 200, body: 'ok' })) {
	const received: ReceivedWebhook[] = [];
	let current = reply;
	/** Event ids of requests received and not answered yet. */
	const pending = new Set<string>();
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			let json: ReceivedWebhook['json'];
			try {
				json = JSON.parse(body);
			} catch {
				json = { id: '', type: '', createdAt: 0, sessionId: '' };
			}
			const hit = { path: req.url ?? '/', headers: req.headers, body, json, at: Date.now() };
			received.push(hit);
			const r = current(hit.path, hit);
			pending.add(hit.json.id);
			const send = () => {
				pending.delete(hit.json.id);
				if (!res.destroyed) res.writeHead(r.status, { 'content-type': 'text/plain' }).end(r.body ?? '');
			};
			if (r.delayMs) setTimeout(send, r.delayMs).unref();
			else send();
		});
	});
	server.keepAliveTimeout = 5000;
	let connections = 0;
	server.on('connection', () => connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		received,
		pending: () => [...pending],
		/** TCP connections accepted so far (keep-alive reuse shows as few). */
		connections: () => connections,
		setReply(next: typeof reply) {
			current = next;
		},
		/** Distinct event ids received, with how often each came. */
		counts(): Map<string, number> {
			const m = new Map<string, number>();
			for (const r of received) m.set(r.json.id, (m.get(r.json.id) ?? 0) + 1);
			return m;
		},
		async close() {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	};
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

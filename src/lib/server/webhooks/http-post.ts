import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/*
 * A minimal `fetch` for webhook POSTs over node:http(s) with keep-alive agents. undici's fetch
 * spends about as much CPU per request as the rest of a delivery (claim, sign, log) together;
 * this does what `sendWebhook` needs (POST, headers, body, abort signal, no redirects followed,
 * a streamed response body) at a fraction of that. Same contract as fetch for those uses.
 */

const agents = {
	'http:': new http.Agent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 10_000 }),
	'https:': new https.Agent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 10_000 })
};

export const httpPost: typeof globalThis.fetch = (input, init = {}) =>
	new Promise<Response>((resolve, reject) => {
		const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
		const lib = url.protocol === 'https:' ? https : http;
		const agent = agents[url.protocol as 'http:' | 'https:'];
		if (!agent) return reject(new TypeError(`unsupported protocol ${url.protocol}`));
		const headers: Record<string, string> = {};
		new Headers(init.headers).forEach((value, name) => (headers[name] = value));
		const body = typeof init.body === 'string' ? init.body : init.body ? Buffer.from(init.body as ArrayBuffer) : undefined;
		if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
		const signal = init.signal ?? undefined;
		if (signal?.aborted) return reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
		const req = lib.request(url, { method: init.method ?? 'GET', headers, agent });
		const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
		signal?.addEventListener('abort', onAbort, { once: true });
		req.on('error', (err) => {
			signal?.removeEventListener('abort', onAbort);
			// fetch's shape: a TypeError whose cause is the socket error (sendWebhook reports the cause).
			reject(signal?.aborted ? err : new TypeError('fetch failed', { cause: err }));
		});
		req.on('response', (res) => {
			res.on('close', () => signal?.removeEventListener('abort', onAbort));
			const responseHeaders = new Headers();
			for (const [name, value] of Object.entries(res.headers)) {
				if (value === undefined) continue;
				for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
			}
			const status = res.statusCode ?? 0;
			const nullBody = status === 204 || status === 304 || init.method === 'HEAD';
			if (nullBody) res.resume();
			resolve(new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status: status < 200 || status > 599 ? 599 : status, headers: responseHeaders }));
		});
		req.end(body);
	});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetchImage, type SafeFetchOptions } from './safe-fetch.ts';

/** A fresh self-signed pair from openssl, or the committed test-only pair where openssl is missing. */
function testCertificate(): { key: Buffer; cert: Buffer } {
	const dir = mkdtempSync(join(tmpdir(), 'veriflow-tls-'));
	try {
		execFileSync(
			'openssl',
			[
				'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
				'-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1',
				'-subj', '/CN=localhost',
				'-addext', 'subjectAltName=DNS:localhost,DNS:images.test,DNS:redirect.test,IP:127.0.0.1,IP:::1'
			],
			{ stdio: 'ignore', timeout: 20_000 }
		);
		return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
	} catch {
		const fixtures = join(import.meta.dirname, '../../../../tests/fixtures/http');
		return {
			key: readFileSync(join(fixtures, 'test-only-localhost.key.pem')),
			cert: readFileSync(join(fixtures, 'test-only-localhost.cert.pem'))
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

let server: Server;
let port: number;
let cert: Buffer;
let png: Buffer;
let jpeg: Buffer;
let gif: Buffer;
const hits: string[] = [];
let bigBytesWritten = 0;
let bigClosed: Promise<void> = Promise.resolve();

function route(req: IncomingMessage, res: ServerResponse) {
	hits.push(req.url ?? '');
	const u = new URL(req.url ?? '/', 'https://x');
	switch (u.pathname) {
		case '/photo.png':
			res.writeHead(200, { 'content-type': 'image/png' }).end(png);
			return;
		case '/photo.jpg':
			// A lying header: the bytes decide.
			res.writeHead(200, { 'content-type': 'text/plain' }).end(jpeg);
			return;
		case '/fake.jpg':
			res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html><body>not an image</body></html>');
			return;
		case '/anim.gif':
			res.writeHead(200, { 'content-type': 'image/gif' }).end(gif);
			return;
		case '/missing.png':
			res.writeHead(404).end('nope');
			return;
		case '/redirect':
			res.writeHead(302, { location: u.searchParams.get('to') ?? '/photo.png' }).end();
			return;
		case '/loop':
			res.writeHead(302, { location: '/loop' }).end();
			return;
		case '/stall':
			return; // never answers
		case '/drip': {
			res.writeHead(200, { 'content-type': 'image/png' });
			res.write(png.subarray(0, 16));
			const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(Buffer.alloc(1))), 50);
			res.on('close', () => clearInterval(t));
			return;
		}
		case '/declared-huge':
			res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50 * 1024 * 1024) });
			res.write(png);
			return;
		case '/chunked-huge': {
			res.writeHead(200, { 'content-type': 'image/png' });
			bigClosed = new Promise((resolve) => res.on('close', () => resolve()));
			const chunk = Buffer.alloc(64 * 1024);
			png.copy(chunk);
			const pump = () => {
				while (!res.destroyed && bigBytesWritten < 100 * 1024 * 1024) {
					bigBytesWritten += chunk.length;
					if (!res.write(chunk)) return void res.once('drain', pump);
				}
				res.end();
			};
			pump();
			return;
		}
		default:
			res.writeHead(404).end();
	}
}

beforeAll(async () => {
	const tls = testCertificate();
	cert = tls.cert;
	const base = sharp({ create: { width: 16, height: 16, channels: 3, background: '#3a6' } });
	png = await base.clone().png().toBuffer();
	jpeg = await base.clone().jpeg().toBuffer();
	gif = await base.clone().gif().toBuffer();
	server = createServer({ key: tls.key, cert: tls.cert }, route);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	port = (server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

/** Test-only options: trust the self-signed certificate, allow exactly 127.0.0.1, fake DNS for *.test. */
const testOptions = (extra: SafeFetchOptions = {}): SafeFetchOptions => ({
	ca: cert,
	allowPrivateForTests: ['127.0.0.1'],
	resolve: async (host) => {
		if (host === 'localhost' || host.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
		throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
	},
	...extra
});

describe('safeFetchImage defaults (no test overrides)', () => {
	it('refuses 127.0.0.1 without sending anything', async () => {
		const before = hits.length;
		const res = await safeFetchImage(`https://127.0.0.1:${port}/photo.png`, { ca: cert });
		expect(res).toMatchObject({ ok: false, error: 'blocked_address' });
		expect(hits.length).toBe(before);
	});

	it.each([
		'https://localhost/x.png', // resolves to loopback
		'https://[::1]/x.png',
		'https://[::ffff:127.0.0.1]/x.png',
		'https://169.254.169.254/latest/meta-data/',
		'https://10.0.0.1/x.png',
		'https://100.64.1.1/x.png',
		'https://2130706433/x.png', // decimal 127.0.0.1
		'https://0x7f.1/x.png', // hex/short form of 127.0.0.1
		'https://0.0.0.0/x.png',
		'https://[fe80::1]/x.png',
		'https://[fd00::1]/x.png'
	])('blocks %s', async (url) => {
		expect(await safeFetchImage(url)).toMatchObject({ ok: false, error: 'blocked_address' });
	});

	it('blocks a name whose DNS answer includes any private address (rebinding-style mix)', async () => {
		const res = await safeFetchImage('https://images.example/x.png', {
			resolve: async () => [
				{ address: '93.184.215.14', family: 4 },
				{ address: '10.1.2.3', family: 4 }
			]
		});
		expect(res).toMatchObject({ ok: false, error: 'blocked_address' });
	});

	it.each([
		['http://example.com/x.png', 'not_https'],
		['ftp://example.com/x.png', 'not_https'],
		['file:///etc/passwd', 'not_https'],
		['https://user:pw@example.com/x.png', 'invalid_url'],
		['not a url', 'invalid_url']
	])('%s → %s', async (url, error) => {
		expect(await safeFetchImage(url)).toMatchObject({ ok: false, error });
	});

	it('refuses the test allow-list outside tests', async () => {
		const saved = { VITEST: process.env.VITEST, NODE_ENV: process.env.NODE_ENV };
		delete process.env.VITEST;
		process.env.NODE_ENV = 'production';
		try {
			await expect(safeFetchImage('https://127.0.0.1/x.png', { allowPrivateForTests: ['127.0.0.1'] })).rejects.toThrow(
				/only available in tests/
			);
		} finally {
			process.env.VITEST = saved.VITEST;
			process.env.NODE_ENV = saved.NODE_ENV;
		}
	});
});

describe('safeFetchImage against a local https server (test allow-list)', () => {
	it('fetches a PNG and reports the sniffed type', async () => {
		const res = await safeFetchImage(`https://127.0.0.1:${port}/photo.png`, testOptions());
		expect(res.ok).toBe(true);
		if (!res.ok) return;
		expect(res.contentType).toBe('image/png');
		expect(Buffer.from(res.bytes).equals(png)).toBe(true);
	});

	it('connects to the address its own lookup checked (name resolved by the injected resolver)', async () => {
		// images.test exists in no real DNS; success proves the socket used the checked answer.
		const res = await safeFetchImage(`https://images.test:${port}/photo.jpg`, testOptions());
		expect(res).toMatchObject({ ok: true, contentType: 'image/jpeg' });
	});

	it('ignores a lying Content-Type and rejects what is not JPEG/PNG/WebP', async () => {
		expect(await safeFetchImage(`https://127.0.0.1:${port}/fake.jpg`, testOptions())).toMatchObject({
			ok: false,
			error: 'not_an_image'
		});
		expect(await safeFetchImage(`https://127.0.0.1:${port}/anim.gif`, testOptions())).toMatchObject({
			ok: false,
			error: 'not_an_image'
		});
	});

	it('reports a non-2xx status', async () => {
		expect(await safeFetchImage(`https://127.0.0.1:${port}/missing.png`, testOptions())).toMatchObject({
			ok: false,
			error: 'bad_status',
			status: 404
		});
	});

	it('follows a redirect and re-checks the next hop', async () => {
		const ok = await safeFetchImage(`https://127.0.0.1:${port}/redirect?to=/photo.png`, testOptions());
		expect(ok).toMatchObject({ ok: true, url: `https://127.0.0.1:${port}/photo.png` });
		const toHttp = encodeURIComponent(`http://127.0.0.1:${port}/photo.png`);
		expect(await safeFetchImage(`https://127.0.0.1:${port}/redirect?to=${toHttp}`, testOptions())).toMatchObject({
			ok: false,
			error: 'not_https'
		});
		// 127.0.0.2 is loopback too but not on the test allow-list.
		const toOther = encodeURIComponent(`https://127.0.0.2:${port}/photo.png`);
		expect(await safeFetchImage(`https://127.0.0.1:${port}/redirect?to=${toOther}`, testOptions())).toMatchObject({
			ok: false,
			error: 'blocked_address'
		});
		const toMetadata = encodeURIComponent('https://169.254.169.254/latest/meta-data/');
		expect(await safeFetchImage(`https://127.0.0.1:${port}/redirect?to=${toMetadata}`, testOptions())).toMatchObject({
			ok: false,
			error: 'blocked_address'
		});
	});

	it('stops after 3 redirects', async () => {
		const before = hits.length;
		expect(await safeFetchImage(`https://127.0.0.1:${port}/loop`, testOptions())).toMatchObject({
			ok: false,
			error: 'too_many_redirects'
		});
		expect(hits.length - before).toBe(4);
		expect(await safeFetchImage(`https://127.0.0.1:${port}/redirect`, testOptions({ maxRedirects: 0 }))).toMatchObject({
			ok: false,
			error: 'too_many_redirects'
		});
	});

	it('times out a server that never answers', async () => {
		const t = performance.now();
		const res = await safeFetchImage(`https://127.0.0.1:${port}/stall`, testOptions({ timeoutMs: 300 }));
		expect(res).toMatchObject({ ok: false, error: 'timeout' });
		expect(performance.now() - t).toBeLessThan(2_000);
	});

	it('applies one deadline to the whole body, not an idle timer', async () => {
		const t = performance.now();
		const res = await safeFetchImage(`https://127.0.0.1:${port}/drip`, testOptions({ timeoutMs: 400 }));
		expect(res).toMatchObject({ ok: false, error: 'timeout' });
		expect(performance.now() - t).toBeLessThan(2_000);
	});

	it('refuses a declared oversize body from its Content-Length', async () => {
		expect(await safeFetchImage(`https://127.0.0.1:${port}/declared-huge`, testOptions())).toMatchObject({
			ok: false,
			error: 'too_large'
		});
	});

	it('aborts an undeclared oversize body as soon as it passes the cap', async () => {
		bigBytesWritten = 0;
		const res = await safeFetchImage(`https://127.0.0.1:${port}/chunked-huge`, testOptions({ maxBytes: 256 * 1024 }));
		expect(res).toMatchObject({ ok: false, error: 'too_large' });
		await bigClosed;
		expect(bigBytesWritten).toBeLessThan(16 * 1024 * 1024);
	});
});

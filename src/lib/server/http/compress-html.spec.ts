import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressHtml, pickHtmlEncoding } from './compress-html.ts';

const PAGE = `<!doctype html><html lang="en"><body>${'<p class="vf-muted">Allow the camera to continue.</p>'.repeat(200)}</body></html>`;

const html = (body = PAGE, headers: Record<string, string> = {}) =>
	new Response(body, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'x-robots-tag': 'noindex, nofollow', ...headers } });
const request = (acceptEncoding?: string, method = 'GET') => new Request('http://localhost/verify?cs=x', { method, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('pickHtmlEncoding', () => {
	it.each([
		[null, null],
		['', null],
		['identity', null],
		['gzip, deflate, br, zstd', 'br'],
		['gzip', 'gzip'],
		['x-gzip', 'gzip'],
		['br;q=0, gzip', 'gzip'],
		['br;q=0.5, gzip;q=0.8', 'gzip'],
		['BR', 'br'],
		['*', 'br'],
		['*;q=0, gzip', 'gzip'],
		['br;q=0, gzip;q=0', null],
		['deflate', null],
		['br;q=abc', null]
	])('%j → %j', (header, expected) => {
		expect(pickHtmlEncoding(header)).toBe(expected);
	});
});

describe('compressHtml', () => {
	it('sends brotli to a browser that accepts it, with the same page inside and the other headers kept', async () => {
		const res = await compressHtml(request('gzip, deflate, br'), html());
		expect(res.status).toBe(200);
		expect(res.headers.get('content-encoding')).toBe('br');
		expect(res.headers.get('vary')).toContain('Accept-Encoding');
		expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
		const body = Buffer.from(await res.arrayBuffer());
		expect(Number(res.headers.get('content-length'))).toBe(body.byteLength);
		expect(body.byteLength).toBeLessThan(PAGE.length / 10);
		expect(brotliDecompressSync(body).toString()).toBe(PAGE);
	});

	it('sends gzip where brotli is not accepted, and keeps the status of an error page', async () => {
		const res = await compressHtml(request('gzip'), new Response(PAGE, { status: 404, headers: { 'content-type': 'text/html' } }));
		expect(res.status).toBe(404);
		expect(res.headers.get('content-encoding')).toBe('gzip');
		expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(PAGE);
	});

	it('sends the page as it is without an accepted encoding, still saying that the answer varies with it', async () => {
		for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
			const res = await compressHtml(request(accept), html());
			expect(res.headers.get('content-encoding')).toBeNull();
			expect(res.headers.get('vary')).toContain('Accept-Encoding');
			expect(await res.text()).toBe(PAGE);
		}
	});

	it('leaves a small page, a HEAD answer, JSON and an already encoded body alone', async () => {
		const small = await compressHtml(request('br'), html('<p>ok</p>'));
		expect(small.headers.get('content-encoding')).toBeNull();
		expect(await small.text()).toBe('<p>ok</p>');

		const head = html();
		expect(await compressHtml(request('br', 'HEAD'), head)).toBe(head);
		const json = new Response(JSON.stringify({ a: PAGE }), { headers: { 'content-type': 'application/json' } });
		expect(await compressHtml(request('br'), json)).toBe(json);
		const encoded = html(PAGE, { 'content-encoding': 'gzip' });
		expect(await compressHtml(request('br'), encoded)).toBe(encoded);
	});

	it('gives a compressed answer its own entity tag', async () => {
		const res = await compressHtml(request('br'), html(PAGE, { etag: '"abc"' }));
		expect(res.headers.get('etag')).toBe('"abc-br"');
	});
});

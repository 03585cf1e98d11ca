import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { frameRefusalResponse, refusedEmbedder } from './frame-refusal.ts';

const url = new URL('https://verify.example.com/verify?cs=cs_abc');
const framed = (referer?: string) => new Request(url, { headers: { 'sec-fetch-dest': 'iframe', ...(referer ? { referer } : {}) } });

describe('refusedEmbedder', () => {
	it('names a framing origin that is not allowed', () => {
		expect(refusedEmbedder(framed('https://evil.example/page?x=1'), url, ['https://shop.example'])).toBe('https://evil.example');
	});
	it('lets allowed, same-origin, unnamed and top-level requests through to the real page', () => {
		expect(refusedEmbedder(framed('https://shop.example/checkout'), url, ['https://shop.example'])).toBeNull();
		expect(refusedEmbedder(framed('https://verify.example.com/demo'), url, [])).toBeNull();
		expect(refusedEmbedder(framed(), url, [])).toBeNull();
		expect(refusedEmbedder(new Request(url, { headers: { referer: 'https://evil.example/' } }), url, [])).toBeNull();
	});
});

describe('frameRefusalResponse', () => {
	it('explains in the browser language, links to the same link, and allows only its own script', async () => {
		const res = frameRefusalResponse(new Request(url, { headers: { 'accept-language': 'de-DE,de;q=0.9' } }), url, 'https://evil.example');
		const html = await res.text();
		expect(html).toContain('<html lang="de">');
		expect(html).toContain('<strong>evil.example</strong>');
		expect(html).toContain('href="/verify?cs=cs_abc"');
		const script = /<script>(.*)<\/script>/.exec(html)![1];
		expect(script).toContain("code: 'frame_not_allowed'");
		const csp = res.headers.get('content-security-policy')!;
		expect(csp).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
		expect(csp).toContain('frame-ancestors *');
	});
	it('escapes what comes from the request', async () => {
		const odd = new URL('https://verify.example.com/verify?cs="><script>x</script>');
		const html = await frameRefusalResponse(new Request(odd), odd, 'https://evil.example').text();
		expect(html).not.toContain('<script>x</script>');
	});
});

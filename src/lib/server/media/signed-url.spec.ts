import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MEDIA_URL_TTL_MS, signMediaUrl, verifyMediaSignature } from './signed-url.ts';

const secret = 'test-secret-0123456789abcdef0123456789abcdef';
const now = Date.UTC(2026, 0, 1);

function parse(url: string) {
	const u = new URL(url, 'https://host.example');
	return { id: u.pathname.replace('/media/', ''), exp: u.searchParams.get('exp'), sig: u.searchParams.get('sig') };
}

describe('signMediaUrl', () => {
	it('builds /media/<id>?exp=<ms>&sig=<hex hmac of "<id>.<exp>"> valid for 15 minutes', () => {
		const { url, expires } = signMediaUrl({ id: 'med_abc123', secret, now });
		expect(MEDIA_URL_TTL_MS).toBe(900_000);
		expect(expires).toBe(now + 900_000);
		const sig = createHmac('sha256', secret).update(`med_abc123.${expires}`).digest('hex');
		expect(url).toBe(`/media/med_abc123?exp=${expires}&sig=${sig}`);
	});

	it('prefixes an origin without doubling the slash', () => {
		const { url } = signMediaUrl({ id: 'm1', secret, now, baseUrl: 'https://verify.example.com/' });
		expect(url.startsWith('https://verify.example.com/media/m1?exp=')).toBe(true);
	});

	it('refuses ids that would need escaping and weak secrets', () => {
		expect(() => signMediaUrl({ id: '../etc', secret, now })).toThrow(/media id/);
		expect(() => signMediaUrl({ id: 'a/b', secret, now })).toThrow(/media id/);
		expect(() => signMediaUrl({ id: 'm1', secret: 'short', now })).toThrow(/secret/);
		expect(() => verifyMediaSignature({ id: 'm1', exp: '1', sig: 'a', secret: '' })).toThrow(/secret/);
	});
});

describe('verifyMediaSignature', () => {
	const { url, expires } = signMediaUrl({ id: 'med_abc123', secret, now });
	const good = parse(url);

	it('accepts the link until it expires and refuses it from the expiry on', () => {
		expect(verifyMediaSignature({ ...good, secret, now })).toBe(true);
		expect(verifyMediaSignature({ ...good, secret, now: expires - 1 })).toBe(true);
		expect(verifyMediaSignature({ ...good, secret, now: expires })).toBe(false);
		expect(verifyMediaSignature({ ...good, secret, now: expires + 60_000 })).toBe(false);
	});

	it('refuses a link for another id, a stretched expiry or a changed signature', () => {
		expect(verifyMediaSignature({ ...good, id: 'med_abc124', secret, now })).toBe(false);
		expect(verifyMediaSignature({ ...good, exp: String(expires + 3_600_000), secret, now })).toBe(false);
		const flipped = (good.sig![0] === 'a' ? 'b' : 'a') + good.sig!.slice(1);
		expect(verifyMediaSignature({ ...good, sig: flipped, secret, now })).toBe(false);
		expect(verifyMediaSignature({ ...good, secret: `${secret}x`, now })).toBe(false);
	});

	it('refuses a re-formatted expiry that hashes to the same number', () => {
		expect(verifyMediaSignature({ ...good, exp: `0${good.exp}`, secret, now })).toBe(false);
	});

	it.each([
		['missing exp', { exp: null }],
		['missing sig', { sig: null }],
		['non-numeric exp', { exp: '1e20' }],
		['negative exp', { exp: '-1' }],
		['short sig', { sig: 'abcd' }],
		['upper-case sig', { sig: good.sig!.toUpperCase() }],
		['sig with junk', { sig: `${good.sig!.slice(0, 63)}z` }],
		['id with slash', { id: 'med/abc123' }]
	])('refuses %s', (_name, patch) => {
		expect(verifyMediaSignature({ ...good, ...patch, secret, now })).toBe(false);
	});
});

import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, standardWebhooksKey, verifyServiceSignature } from './webhook-signature.ts';

/** How the lead generates endpoint secrets. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const body = JSON.stringify({ id: 'evt_1', type: 'session.status', createdAt: 1767225600000, sessionId: 's_1' });

describe('signWebhook', () => {
	it('matches the published Standard Webhooks test vector', () => {
		const headers = signWebhook({
			id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
			timestampMs: 1614265330 * 1000,
			body: '{"test": 2432232314}',
			secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
		});
		expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
		expect(headers['webhook-timestamp']).toBe('1614265330');
	});

	it('signs "<t>.<body>" in hex with the secret string as key, t in ms', () => {
		const secret = newSecret();
		const headers = signWebhook({ id: 'evt_1', timestampMs: 1767225600123, body, secret });
		const expected = createHmac('sha256', secret).update(`1767225600123.${body}`).digest('hex');
		expect(headers['X-Service-Signature']).toBe(`t=1767225600123,v1=${expected}`);
		expect(headers['webhook-id']).toBe('evt_1');
		// Standard Webhooks wants whole seconds, floored.
		expect(headers['webhook-timestamp']).toBe('1767225600');
	});

	it('is accepted by the standardwebhooks library given the secret unchanged', () => {
		const secret = newSecret();
		const headers = signWebhook({ id: 'evt_abc', timestampMs: Date.now(), body, secret });
		const payload = new Webhook(secret).verify(body, headers);
		expect(payload).toEqual(JSON.parse(body));
		// Header names are case-insensitive for receivers behind proxies that rewrite them.
		const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
		expect(new Webhook(secret).verify(Buffer.from(body), upper)).toEqual(JSON.parse(body));
	});

	it('is rejected by the library when body, timestamp, id, signature or secret are tampered with', () => {
		const secret = newSecret();
		const headers = signWebhook({ id: 'evt_abc', timestampMs: Date.now(), body, secret });
		const wh = new Webhook(secret);
		const tamperedBody = body.replace('s_1', 's_2');
		expect(() => wh.verify(tamperedBody, headers)).toThrow(WebhookVerificationError);
		const shifted = String(Number(headers['webhook-timestamp']) - 1);
		expect(() => wh.verify(body, { ...headers, 'webhook-timestamp': shifted })).toThrow(WebhookVerificationError);
		expect(() => wh.verify(body, { ...headers, 'webhook-id': 'evt_abd' })).toThrow(WebhookVerificationError);
		const sig = headers['webhook-signature'];
		const flipped = `v1,${sig[3] === 'A' ? 'B' : 'A'}${sig.slice(4)}`;
		expect(() => wh.verify(body, { ...headers, 'webhook-signature': flipped })).toThrow(WebhookVerificationError);
		expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
	});

	it('is rejected by the library when older than its 5 minute window', () => {
		const secret = newSecret();
		const headers = signWebhook({ id: 'evt_old', timestampMs: Date.now() - 6 * 60_000, body, secret });
		expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
	});

	it('refuses malformed secrets and ids', () => {
		expect(() => standardWebhooksKey('abc')).toThrow(/whsec_/);
		expect(() => standardWebhooksKey('whsec_not base64!')).toThrow(/base64/);
		expect(() => standardWebhooksKey(`whsec_${randomBytes(8).toString('base64')}`)).toThrow(/24–64/);
		expect(standardWebhooksKey(`whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toEqual(Buffer.alloc(32, 7));
		expect(() => signWebhook({ id: 'a b', timestampMs: 1, body, secret: newSecret() })).toThrow(/webhook id/);
		expect(() => signWebhook({ id: 'a', timestampMs: 1.5, body, secret: newSecret() })).toThrow(/timestampMs/);
	});
});

describe('verifyServiceSignature', () => {
	const secret = newSecret();
	const t = 1767225600000;
	const header = signWebhook({ id: 'evt_1', timestampMs: t, body, secret })['X-Service-Signature'];

	it('accepts an untouched delivery within tolerance', () => {
		expect(verifyServiceSignature(header, body, secret, { now: t + 60_000 })).toEqual({ ok: true, timestampMs: t });
		expect(verifyServiceSignature(header, Buffer.from(body), secret, { now: t - 60_000 })).toEqual({
			ok: true,
			timestampMs: t
		});
	});

	it('rejects a tampered body', () => {
		expect(verifyServiceSignature(header, `${body} `, secret, { now: t })).toEqual({
			ok: false,
			reason: 'signature_mismatch'
		});
	});

	it('rejects a tampered timestamp (signature no longer matches)', () => {
		const moved = header.replace(`t=${t}`, `t=${t + 1}`);
		expect(verifyServiceSignature(moved, body, secret, { now: t })).toEqual({ ok: false, reason: 'signature_mismatch' });
	});

	it('rejects a tampered signature and a wrong secret', () => {
		const last = header.at(-1)!;
		const flipped = header.slice(0, -1) + (last === '0' ? '1' : '0');
		expect(verifyServiceSignature(flipped, body, secret, { now: t }).ok).toBe(false);
		expect(verifyServiceSignature(header, body, newSecret(), { now: t }).ok).toBe(false);
	});

	it('rejects replays outside the tolerance, in both directions', () => {
		expect(verifyServiceSignature(header, body, secret, { now: t + 5 * 60_000 }).ok).toBe(true);
		expect(verifyServiceSignature(header, body, secret, { now: t + 5 * 60_000 + 1 })).toEqual({
			ok: false,
			reason: 'timestamp_out_of_tolerance'
		});
		expect(verifyServiceSignature(header, body, secret, { now: t - 10 * 60_000 }).ok).toBe(false);
		expect(verifyServiceSignature(header, body, secret, { now: t + 3_600_000, toleranceMs: 3_600_000 }).ok).toBe(true);
	});

	it('accepts any of several v1 signatures (secret rotation)', () => {
		const other = signWebhook({ id: 'evt_1', timestampMs: t, body, secret: newSecret() })['X-Service-Signature'];
		const both = `${other},${header.split(',')[1]}`;
		expect(verifyServiceSignature(both, body, secret, { now: t }).ok).toBe(true);
	});

	it.each([null, '', 'garbage', 't=,v1=ab', `v1=${'a'.repeat(64)}`, `t=${t}`, `t=12e3,v1=${'a'.repeat(64)}`])(
		'rejects malformed header %j',
		(h) => {
			expect(verifyServiceSignature(h, body, secret, { now: t })).toEqual({ ok: false, reason: 'malformed_header' });
		}
	);
});

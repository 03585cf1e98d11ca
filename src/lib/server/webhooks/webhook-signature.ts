import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signing. Every delivery carries two independent signatures over the same raw body:
 *
 * 1. `X-Service-Signature: t=<unix ms>,v1=<hex>` (the interface's own header), where
 *    `<hex> = HMAC-SHA256(key = the endpoint secret string exactly as shown to the integrator, UTF-8,
 *    "whsec_" prefix included; message = "<t>.<raw body>")`. Using the string as-is means a receiver
 *    in any language needs one line (`hmac(secret, t + "." + body)`) and cannot get the decoding wrong.
 * 2. Standard Webhooks (`webhook-id`, `webhook-timestamp` in unix *seconds*, `webhook-signature:
 *    v1,<base64>`), where the key is what that spec defines for a `whsec_` secret: the base64 text after
 *    the prefix, decoded (our secrets are `whsec_` + base64 of 32 random bytes, so the key is those 32
 *    bytes). This is what `new Webhook(secret)` from the `standardwebhooks` package derives, so
 *    integrators pass the secret to that library unchanged.
 *
 * The two schemes therefore use different key bytes (the string vs. its decoded payload), which also
 * keeps one scheme's MAC from ever being replayable as the other's.
 */

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SECRET_PREFIX = 'whsec_';
/** Default replay window for {@link verifyServiceSignature}, matching Standard Webhooks' 5 minutes. */
export const DEFAULT_TOLERANCE_MS = 5 * 60 * 1000;

export interface SignWebhookInput {
	/** Event id; becomes `webhook-id` (receivers deduplicate on it). */
	id: string;
	/** Send time in unix ms; set per attempt so retries are not rejected as stale. */
	timestampMs: number;
	/** The exact bytes that will be sent as the request body. */
	body: string;
	/** Endpoint secret, `whsec_` + base64. */
	secret: string;
}

export type WebhookSignatureHeaders = {
	'X-Service-Signature': string;
	'webhook-id': string;
	'webhook-timestamp': string;
	'webhook-signature': string;
};

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The Standard Webhooks key bytes of an endpoint secret. Throws on a malformed secret: that is a
 * programming or storage error, not something a delivery can recover from.
 */
export function standardWebhooksKey(secret: string): Buffer {
	if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with "whsec_"');
	const encoded = secret.slice(SECRET_PREFIX.length);
	// Canonical padded base64 only: the standardwebhooks library's decoder rejects anything else, so a
	// secret we accepted here but it cannot read would make every delivery unverifiable.
	if (!BASE64.test(encoded)) throw new Error('webhook secret is not valid base64 after "whsec_"');
	const key = Buffer.from(encoded, 'base64');
	if (key.length < 24 || key.length > 64) {
		throw new Error('webhook secret must decode to 24–64 bytes (Standard Webhooks)');
	}
	return key;
}

function serviceHmacHex(secret: string, t: string, body: string | Buffer): string {
	return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** The headers to send with one delivery attempt. */
export function signWebhook({ id, timestampMs, body, secret }: SignWebhookInput): WebhookSignatureHeaders {
	if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
		throw new Error('timestampMs must be a non-negative integer of milliseconds');
	}
	if (!id || /[\s,.]/.test(id)) {
		// A "." would make "<id>.<ts>.<body>" ambiguous; whitespace and commas break header parsing.
		throw new Error('webhook id must be non-empty and contain no whitespace, "," or "."');
	}
	const key = standardWebhooksKey(secret);
	const t = String(timestampMs);
	const seconds = String(Math.floor(timestampMs / 1000));
	const standard = createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64');
	return {
		'X-Service-Signature': `t=${t},v1=${serviceHmacHex(secret, t, body)}`,
		'webhook-id': id,
		'webhook-timestamp': seconds,
		'webhook-signature': `v1,${standard}`
	};
}

export interface VerifyOptions {
	/** Largest accepted |now - t|; default 5 minutes. */
	toleranceMs?: number;
	/** Current time in unix ms (injectable for tests). */
	now?: number;
}

export type VerifyResult =
	| { ok: true; timestampMs: number }
	| { ok: false; reason: 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch' };

/**
 * Verifies an `X-Service-Signature` header against the raw request body (before any JSON parsing).
 * Several `v1=` entries are accepted so a secret can be rotated with both signatures sent for a while.
 */
export function verifyServiceSignature(
	header: string | null | undefined,
	body: string | Buffer,
	secret: string,
	{ toleranceMs = DEFAULT_TOLERANCE_MS, now = Date.now() }: VerifyOptions = {}
): VerifyResult {
	if (!header) return { ok: false, reason: 'malformed_header' };
	let t: string | undefined;
	const signatures: string[] = [];
	for (const part of header.split(',')) {
		const eq = part.indexOf('=');
		if (eq < 0) return { ok: false, reason: 'malformed_header' };
		const name = part.slice(0, eq).trim();
		const value = part.slice(eq + 1).trim();
		if (name === 't') t = value;
		else if (name === 'v1') signatures.push(value);
	}
	if (!t || !/^\d{1,16}$/.test(t) || signatures.length === 0) return { ok: false, reason: 'malformed_header' };
	const timestampMs = Number(t);
	if (Math.abs(now - timestampMs) > toleranceMs) return { ok: false, reason: 'timestamp_out_of_tolerance' };
	const expected = Buffer.from(serviceHmacHex(secret, t, body), 'hex');
	for (const sig of signatures) {
		if (!/^[0-9a-f]{64}$/i.test(sig)) continue;
		if (timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return { ok: true, timestampMs };
	}
	return { ok: false, reason: 'signature_mismatch' };
}

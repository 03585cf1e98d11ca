import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring media download links: `/media/<id>?exp=<unix ms>&sig=<hex HMAC-SHA256 of
 * "<id>.<exp>">` with a server-only secret. The link is the whole authorisation (webhook receivers
 * fetch it with no API key), so the route answers 403 for anything `verifyMediaSignature` refuses.
 */

/** The interface's signed media URL lifetime. */
export const MEDIA_URL_TTL_MS = 15 * 60 * 1000;
export const MEDIA_PATH_PREFIX = '/media/';

const MEDIA_ID = /^[A-Za-z0-9_-]{1,128}$/;
const MIN_SECRET_BYTES = 32;

export type MediaUrlSecret = string | Uint8Array;

function checkSecret(secret: MediaUrlSecret): void {
	const length = typeof secret === 'string' ? Buffer.byteLength(secret) : secret.length;
	// A short or empty secret is a configuration mistake that would make links forgeable: fail loudly.
	if (length < MIN_SECRET_BYTES) throw new Error(`media URL secret must be at least ${MIN_SECRET_BYTES} bytes`);
}

/** Hex HMAC-SHA256 of `"<id>.<exp>"`. */
export function mediaSignature(id: string, exp: number, secret: MediaUrlSecret): string {
	checkSecret(secret);
	return createHmac('sha256', secret).update(`${id}.${exp}`).digest('hex');
}

export interface SignMediaUrlInput {
	/** Media id: letters, digits, `_` and `-` (it goes into the path unescaped). */
	id: string;
	secret: MediaUrlSecret;
	/** Unix ms; injectable for tests. */
	now?: number;
	ttlMs?: number;
	/** Origin to prefix, e.g. `https://verify.example.com`; omitted gives a root-relative URL. */
	baseUrl?: string;
}

/** A signed URL and its expiry, as the media object of webhook events and session reports needs. */
export function signMediaUrl({
	id,
	secret,
	now = Date.now(),
	ttlMs = MEDIA_URL_TTL_MS,
	baseUrl = ''
}: SignMediaUrlInput): { url: string; expires: number } {
	if (!MEDIA_ID.test(id)) throw new Error('media id must match [A-Za-z0-9_-]{1,128}');
	if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) throw new Error('ttlMs must be a positive integer');
	const expires = Math.floor(now) + ttlMs;
	const sig = mediaSignature(id, expires, secret);
	return { url: `${baseUrl.replace(/\/+$/, '')}${MEDIA_PATH_PREFIX}${id}?exp=${expires}&sig=${sig}`, expires };
}

export interface VerifyMediaSignatureInput {
	id: string;
	/** The raw `exp` query parameter. */
	exp: string | null | undefined;
	/** The raw `sig` query parameter. */
	sig: string | null | undefined;
	secret: MediaUrlSecret;
	now?: number;
}

/**
 * True only for an untampered link that has not expired (valid while `now < exp`). Compares in
 * constant time; every malformed input is simply `false`.
 */
export function verifyMediaSignature({ id, exp, sig, secret, now = Date.now() }: VerifyMediaSignatureInput): boolean {
	checkSecret(secret);
	if (typeof id !== 'string' || !MEDIA_ID.test(id)) return false;
	if (typeof exp !== 'string' || !/^\d{1,15}$/.test(exp)) return false;
	if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return false;
	const expires = Number(exp);
	const expected = Buffer.from(mediaSignature(id, expires, secret), 'hex');
	const given = Buffer.from(sig, 'hex');
	// Check the MAC before the clock so timing does not reveal which of the two failed.
	const authentic = timingSafeEqual(expected, given);
	// The MAC covers the canonical number, so "0123" would reuse the signature of "123": refuse it.
	return authentic && String(expires) === exp && now < expires;
}

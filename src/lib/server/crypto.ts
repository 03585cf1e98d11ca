import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * CSPRNG bytes drawn from a pool refilled 4 KB at a time, each byte handed out once (what
 * crypto.randomUUID does): a create takes four ids and a secret, and a system call for each
 * showed in the profile of POST /sessions.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function nextRandomByte(): number {
	if (poolOffset === pool.length) {
		randomFillSync(pool);
		poolOffset = 0;
	}
	return pool[poolOffset++];
}

/** Random base62 string with `bytes` of entropy (rejection sampling: no modulo bias). */
export function randomBase62(bytes: number): string {
	const length = Math.ceil((bytes * 8) / Math.log2(62));
	let out = '';
	while (out.length < length) {
		const b = nextRandomByte();
		if (b < 248) out += BASE62[b % 62];
	}
	return out;
}

/** Identifiers: a type prefix and 128 random bits (`ses_…`, `evt_…`). */
export const newId = (prefix: string) => `${prefix}_${randomBase62(16)}`;

export const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

export const hmacHex = (key: Buffer | string, value: string) => createHmac('sha256', key).update(value).digest('hex');

/** Constant-time comparison of two strings (false on different lengths, without early exit on content). */
export function safeEqual(a: string, b: string): boolean {
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	if (x.length !== y.length) {
		timingSafeEqual(x, x);
		return false;
	}
	return timingSafeEqual(x, y);
}

/**
 * The server key and what is derived from it: one sub-key per purpose (HKDF), so a leak of one
 * use (say, media URL signatures) says nothing about another (sealed secrets).
 */
export class ServerKeys {
	private readonly sealKey: Buffer;
	readonly mediaKey: Buffer;
	readonly pageTokenKey: Buffer;
	readonly otpKey: Buffer;

	constructor(secret: string) {
		const ikm = Buffer.from(secret, 'utf8');
		const derive = (info: string) => Buffer.from(hkdfSync('sha256', ikm, 'veriflow', info, 32));
		this.sealKey = derive('seal');
		this.mediaKey = derive('media-url');
		this.pageTokenKey = derive('page-token');
		this.otpKey = derive('otp');
	}

	/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
	seal(plain: string): string {
		const iv = randomBytes(12);
		const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
		const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
		return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
	}

	unseal(sealed: string): string {
		const [version, iv, tag, data] = sealed.split('.');
		if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed value');
		const decipher = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(iv, 'base64url'));
		decipher.setAuthTag(Buffer.from(tag, 'base64url'));
		return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
	}
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { IMAGE_TYPES, sniffMediaType, type SniffedMediaType } from '../media/magic-bytes.ts';
import { classifyAddress, formatIp, parseIp } from '../net/ip-address.ts';

/**
 * Fetches an image from a URL an integrator supplied (face_scan `referenceImageUrl`) without letting
 * that URL reach inside our network (SSRF):
 * - https only, on every hop; no credentials in the URL;
 * - every address a host name resolves to must be public (no loopback, RFC 1918, CGNAT, link-local
 *   incl. cloud metadata 169.254.169.254, unique-local, multicast, reserved, or IPv4-mapped/NAT64/6to4
 *   forms of those), and the connection is made to exactly the address that was checked: the check
 *   runs inside the socket's own `lookup`, so there is no second resolution to rebind;
 * - redirects are followed by hand, at most 3, each hop checked again from scratch;
 * - one deadline for the whole exchange (DNS, connect, TLS, redirects, body), default 5 s;
 * - a size cap (default 5 MB) enforced from Content-Length and again while reading, aborting at once;
 * - the bytes must sniff as JPEG, PNG or WebP; the Content-Type header is ignored.
 */

export type SafeFetchErrorCode =
	| 'invalid_url'
	| 'not_https'
	| 'blocked_address'
	| 'too_many_redirects'
	| 'timeout'
	| 'network'
	| 'bad_status'
	| 'too_large'
	| 'not_an_image';

export type SafeFetchResult =
	| { ok: true; bytes: Uint8Array; contentType: SniffedMediaType; url: string }
	| { ok: false; error: SafeFetchErrorCode; message: string; status?: number };

export interface SafeFetchOptions {
	timeoutMs?: number;
	maxBytes?: number;
	maxRedirects?: number;
	allowedTypes?: readonly SniffedMediaType[];
	/** Host name resolution (all addresses); injectable so tests can simulate DNS answers. */
	resolve?: (hostname: string) => Promise<LookupAddress[]>;
	/** Extra trusted CA certificates (PEM), e.g. a test server's self-signed certificate. */
	ca?: string | Buffer;
	/**
	 * Exact non-public addresses to allow anyway. Honoured only under vitest (`VITEST` set or
	 * `NODE_ENV=test`); anywhere else passing it throws, so it can never open a hole in production.
	 */
	allowPrivateForTests?: readonly string[];
}

export const SAFE_FETCH_DEFAULTS = {
	timeoutMs: 5_000,
	maxBytes: 5 * 1024 * 1024,
	maxRedirects: 3
} as const;

class Failure extends Error {
	constructor(
		readonly code: SafeFetchErrorCode,
		message: string,
		readonly status?: number
	) {
		super(message);
	}
}

const defaultResolve = (hostname: string) =>
	new Promise<LookupAddress[]>((resolve, reject) =>
		dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)))
	);

function isTestEnvironment(): boolean {
	return Boolean(process.env.VITEST) || process.env.NODE_ENV === 'test';
}

/** Fetches and checks the image; never throws for anything the URL or the remote side does. */
export async function safeFetchImage(url: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
	if (options.allowPrivateForTests && !isTestEnvironment()) {
		throw new Error('allowPrivateForTests is only available in tests');
	}
	const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
	const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), timeoutMs);
	try {
		let current = url;
		for (let hop = 0; ; hop++) {
			const outcome = await fetchOnce(current, options, controller.signal);
			if (outcome.kind === 'redirect') {
				if (hop >= maxRedirects) throw new Failure('too_many_redirects', `more than ${maxRedirects} redirects`);
				current = outcome.location;
				continue;
			}
			const contentType = sniffMediaType(outcome.bytes);
			const allowed = options.allowedTypes ?? IMAGE_TYPES;
			if (!contentType || !allowed.includes(contentType)) {
				throw new Failure('not_an_image', `content is ${contentType ?? 'not a recognised image'}, expected ${allowed.join(', ')}`);
			}
			return { ok: true, bytes: outcome.bytes, contentType, url: current };
		}
	} catch (err) {
		if (err instanceof Failure) return { ok: false, error: err.code, message: err.message, status: err.status };
		if (controller.signal.aborted) return { ok: false, error: 'timeout', message: `no complete answer within ${timeoutMs} ms` };
		return { ok: false, error: 'network', message: err instanceof Error ? err.message : String(err) };
	} finally {
		clearTimeout(timer);
	}
}

type Outcome = { kind: 'redirect'; location: string } | { kind: 'body'; bytes: Uint8Array };

function checkAddress(address: string, options: SafeFetchOptions): void {
	const parsed = parseIp(address);
	const cls = classifyAddress(address);
	if (cls === 'public') return;
	if (parsed && options.allowPrivateForTests?.some((a) => parseIp(a) && formatIp(parseIp(a)!) === formatIp(parsed))) return;
	throw new Failure('blocked_address', `address ${address} is ${cls ?? 'invalid'}, not public`);
}

async function fetchOnce(url: string, options: SafeFetchOptions, signal: AbortSignal): Promise<Outcome> {
	let target: URL;
	try {
		target = new URL(url);
	} catch {
		throw new Failure('invalid_url', 'not a valid URL');
	}
	if (target.protocol !== 'https:') throw new Failure('not_https', `${target.protocol} is not allowed, only https:`);
	if (target.username || target.password) throw new Failure('invalid_url', 'credentials in URLs are not allowed');
	// WHATWG parsing already turned 2130706433, 0x7f.1 and friends into dotted quads.
	const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
	if (isIP(host)) checkAddress(host, options);
	const resolveAll = options.resolve ?? defaultResolve;

	// Resolution and the check happen here, inside the connection's own lookup: the socket connects
	// to the address that passed, not to a fresh answer from a DNS server that may have changed it.
	const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
		resolveAll(hostname)
			.then((addresses) => {
				if (addresses.length === 0) throw new Failure('network', `${hostname} has no addresses`);
				for (const a of addresses) checkAddress(a.address, options);
				const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
				const usable = family ? addresses.filter((a) => a.family === family) : addresses;
				if (usable.length === 0) throw new Failure('network', `${hostname} has no IPv${family} address`);
				if (lookupOptions.all) callback(null, usable);
				else callback(null, usable[0].address, usable[0].family);
			})
			.catch((err: Error) => callback(err as NodeJS.ErrnoException, ''));
	};

	const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
	const requestOptions: RequestOptions = {
		method: 'GET',
		protocol: 'https:',
		hostname: host,
		port: target.port || 443,
		path: `${target.pathname}${target.search}`,
		headers: {
			accept: 'image/jpeg, image/png, image/webp',
			'accept-encoding': 'identity',
			'user-agent': 'Veriflow/1 (reference image fetch)'
		},
		lookup,
		agent: false,
		signal,
		...(options.ca ? { ca: options.ca } : {})
	};

	return new Promise<Outcome>((resolve, reject) => {
		const req = request(requestOptions, (res: IncomingMessage) => {
			const status = res.statusCode ?? 0;
			// Reject before destroying: destroy() can emit 'aborted'/'error' synchronously.
			const fail = (err: Failure) => {
				reject(err);
				res.destroy();
			};
			if (status >= 300 && status < 400) {
				const location = res.headers.location;
				res.destroy(); // a redirect's body is never needed
				if (!location) return fail(new Failure('bad_status', `HTTP ${status} without Location`, status));
				try {
					return resolve({ kind: 'redirect', location: new URL(location, target).toString() });
				} catch {
					return fail(new Failure('invalid_url', 'redirect to an invalid URL'));
				}
			}
			if (status < 200 || status >= 300 || status === 204 || status === 206) {
				return fail(new Failure('bad_status', `HTTP ${status}`, status));
			}
			const declared = Number(res.headers['content-length']);
			if (Number.isFinite(declared) && declared > maxBytes) {
				return fail(new Failure('too_large', `Content-Length ${declared} exceeds ${maxBytes} bytes`));
			}
			const chunks: Buffer[] = [];
			let size = 0;
			res.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size > maxBytes) return fail(new Failure('too_large', `body exceeds ${maxBytes} bytes`));
				chunks.push(chunk);
			});
			res.on('end', () => resolve({ kind: 'body', bytes: new Uint8Array(Buffer.concat(chunks)) }));
			res.on('error', reject);
			res.on('aborted', () => reject(new Error('response aborted')));
		});
		req.on('error', (err: Error & { cause?: unknown }) => {
			// The lookup's Failure arrives wrapped or as is, depending on the code path in net.
			if (err instanceof Failure) return reject(err);
			if (err.cause instanceof Failure) return reject(err.cause);
			reject(err);
		});
		req.end();
	});
}

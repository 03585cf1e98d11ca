import { formatIp, parseIp } from '../net/ip-address.ts';

/**
 * The end user's IP address for the report's `location`.
 *
 * `TRUST_PROXY` (an integer 0–10, parsed in config.ts) says how many reverse proxies stand between
 * the internet and this process:
 * - `0` (default): use the socket's peer address; `X-Forwarded-For` is ignored, since any client can
 *   send one.
 * - `N` >= 1: each proxy appends the address that connected to it to `X-Forwarded-For`. In the list
 *   [...X-Forwarded-For, socket address] the last N entries are our own proxies, and the entry just
 *   before them is whoever connected to the outermost one: the client. Entries further left are
 *   whatever the client sent and are never used. One load balancer in front: 1; a CDN in front of a
 *   load balancer: 2.
 * Setting N higher than the real number of proxies lets a client choose its reported address; setting
 * it lower reports a proxy's address. In SvelteKit, pass `event.getClientAddress()` as the socket
 * address and leave adapter-node's own `ADDRESS_HEADER`/`XFF_DEPTH` unset so it returns the peer.
 */

export interface ClientIpInput {
	/** The TCP peer address (e.g. SvelteKit's `getClientAddress()` without ADDRESS_HEADER). */
	socketAddress: string | null | undefined;
	/** Raw `X-Forwarded-For` header value(s); several headers are joined in order. */
	forwardedFor?: string | string[] | null;
	trustProxy: number;
}

/** Canonical text of an address, accepting `[v6]:port`, `v4:port` and IPv4-mapped forms. */
function canonical(text: string | null | undefined): string | null {
	if (!text) return null;
	const ip = parseIp(text);
	if (!ip) return null;
	if (ip.version === 6 && ip.bytes.subarray(0, 10).every((b) => b === 0) && ip.bytes[10] === 0xff && ip.bytes[11] === 0xff) {
		return formatIp({ version: 4, bytes: ip.bytes.slice(12) });
	}
	return formatIp(ip);
}

/**
 * The client's address, or null when none can be determined (then the report has no location).
 * A malformed entry at the trusted position yields null rather than a guess from another hop.
 */
export function getClientIp({ socketAddress, forwardedFor, trustProxy }: ClientIpInput): string | null {
	const socket = canonical(socketAddress);
	if (trustProxy <= 0 || !forwardedFor) return socket;
	const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
	const hops = header
		.split(',')
		.map((s) => s.trim())
		.filter((s) => s.length > 0);
	const chain = [...hops, socketAddress ?? ''];
	// Fewer entries than trusted proxies: the leftmost one is the best anyone can know.
	const index = Math.max(0, chain.length - 1 - trustProxy);
	return canonical(chain[index]);
}

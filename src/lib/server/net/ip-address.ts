import { isIPv4, isIPv6 } from 'node:net';

/**
 * IP address parsing and classification shared by GeoIP (only public addresses are looked up) and
 * safe-fetch (only public addresses may be connected to). Written over raw bytes rather than with
 * `net.BlockList` so that IPv4 embedded in IPv6 (mapped, 6to4, NAT64) is classified as the IPv4
 * address it really reaches, and so the table is explicit and testable.
 */

export type AddressClass =
	| 'public'
	| 'unspecified'
	| 'loopback'
	| 'private'
	| 'cgnat'
	| 'link_local'
	| 'unique_local'
	| 'multicast'
	| 'broadcast'
	| 'documentation'
	| 'benchmarking'
	| 'reserved';

export interface ParsedIp {
	version: 4 | 6;
	/** 4 bytes for IPv4, 16 for IPv6. */
	bytes: Uint8Array;
}

/** Strips `[…]`, a `%zone` and, for IPv4 and bracketed IPv6, a `:port` suffix. */
export function normalizeIpText(text: string): string {
	let s = text.trim();
	if (s.startsWith('[')) {
		const end = s.indexOf(']');
		if (end > 0) s = s.slice(1, end);
	} else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(s)) {
		s = s.slice(0, s.lastIndexOf(':'));
	}
	const zone = s.indexOf('%');
	if (zone >= 0) s = s.slice(0, zone);
	return s;
}

/** Parses a textual IPv4 or IPv6 address (strict dotted quad, no octal/hex tricks); null if invalid. */
export function parseIp(text: string): ParsedIp | null {
	const s = normalizeIpText(text);
	if (isIPv4(s)) {
		const bytes = new Uint8Array(4);
		const parts = s.split('.');
		for (let i = 0; i < 4; i++) bytes[i] = Number(parts[i]);
		return { version: 4, bytes };
	}
	if (isIPv6(s)) return { version: 6, bytes: parseIpv6(s) };
	return null;
}

function parseIpv6(s: string): Uint8Array {
	const bytes = new Uint8Array(16);
	let text = s.toLowerCase();
	// A trailing dotted quad (::ffff:1.2.3.4) becomes two hex groups.
	const lastColon = text.lastIndexOf(':');
	const tail = text.slice(lastColon + 1);
	if (tail.includes('.')) {
		const q = tail.split('.').map(Number);
		text = `${text.slice(0, lastColon + 1)}${((q[0] << 8) | q[1]).toString(16)}:${((q[2] << 8) | q[3]).toString(16)}`;
	}
	const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
	const headGroups = head ? head.split(':') : [];
	const tailGroups = rest === undefined ? [] : rest ? rest.split(':') : [];
	const groups =
		rest === undefined
			? headGroups
			: [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
	for (let i = 0; i < 8; i++) {
		const v = parseInt(groups[i], 16);
		bytes[i * 2] = v >> 8;
		bytes[i * 2 + 1] = v & 0xff;
	}
	return bytes;
}

/** Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, longest zero run compressed). */
export function formatIp(ip: ParsedIp): string {
	if (ip.version === 4) return Array.from(ip.bytes).join('.');
	const groups: number[] = [];
	for (let i = 0; i < 8; i++) groups.push((ip.bytes[i * 2] << 8) | ip.bytes[i * 2 + 1]);
	let bestStart = -1;
	let bestLen = 0;
	for (let i = 0; i < 8; ) {
		if (groups[i] !== 0) {
			i++;
			continue;
		}
		let j = i;
		while (j < 8 && groups[j] === 0) j++;
		if (j - i > bestLen && j - i > 1) {
			bestStart = i;
			bestLen = j - i;
		}
		i = j;
	}
	const hex = groups.map((g) => g.toString(16));
	if (bestStart < 0) return hex.join(':');
	return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/**
 * The IPv4 address an IPv6 address stands for when it embeds one that the network actually routes to:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated), NAT64 (64:ff9b::/96) and
 * 6to4 (2002:AABB:CCDD::/16).
 */
export function embeddedIpv4(ip: ParsedIp): ParsedIp | null {
	if (ip.version !== 6) return null;
	const b = ip.bytes;
	const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
	if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return { version: 4, bytes: b.slice(12, 16) };
	if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && b[15] === 1)) {
		return { version: 4, bytes: b.slice(12, 16) };
	}
	if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) {
		return { version: 4, bytes: b.slice(12, 16) };
	}
	if (b[0] === 0x20 && b[1] === 0x02) return { version: 4, bytes: b.slice(2, 6) };
	return null;
}

function inV4(b: Uint8Array, a: number, bb: number, c: number, d: number, prefix: number): boolean {
	const addr = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
	const net = ((a << 24) | (bb << 16) | (c << 8) | d) >>> 0;
	const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
	return (addr & mask) >>> 0 === (net & mask) >>> 0;
}

function classifyV4(b: Uint8Array): AddressClass {
	if (inV4(b, 0, 0, 0, 0, 8)) return 'unspecified'; // "this network"; 0.0.0.0 reaches localhost on Linux
	if (inV4(b, 10, 0, 0, 0, 8)) return 'private';
	if (inV4(b, 100, 64, 0, 0, 10)) return 'cgnat';
	if (inV4(b, 127, 0, 0, 0, 8)) return 'loopback';
	if (inV4(b, 169, 254, 0, 0, 16)) return 'link_local'; // includes 169.254.169.254 cloud metadata
	if (inV4(b, 172, 16, 0, 0, 12)) return 'private';
	if (inV4(b, 192, 0, 0, 0, 24)) return 'reserved'; // IETF protocol assignments
	if (inV4(b, 192, 0, 2, 0, 24)) return 'documentation';
	if (inV4(b, 192, 88, 99, 0, 24)) return 'reserved'; // 6to4 relay anycast (deprecated)
	if (inV4(b, 192, 168, 0, 0, 16)) return 'private';
	if (inV4(b, 198, 18, 0, 0, 15)) return 'benchmarking';
	if (inV4(b, 198, 51, 100, 0, 24)) return 'documentation';
	if (inV4(b, 203, 0, 113, 0, 24)) return 'documentation';
	if (inV4(b, 224, 0, 0, 0, 4)) return 'multicast';
	if (inV4(b, 255, 255, 255, 255, 32)) return 'broadcast';
	if (inV4(b, 240, 0, 0, 0, 4)) return 'reserved';
	return 'public';
}

function classifyV6(ip: ParsedIp): AddressClass {
	const b = ip.bytes;
	const allZero = b.every((x) => x === 0);
	if (allZero) return 'unspecified';
	if (b.subarray(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
	const v4 = embeddedIpv4(ip);
	if (v4) {
		// 6to4 and NAT64 are only as safe as the IPv4 address they lead to.
		return classifyV4(v4.bytes);
	}
	if (b[0] === 0xff) return 'multicast';
	if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link_local';
	if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'private'; // fec0::/10 site-local (deprecated)
	if ((b[0] & 0xfe) === 0xfc) return 'unique_local';
	if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'documentation';
	if (b[0] === 0x3f && b[1] === 0xff && (b[2] & 0xf0) === 0x00) return 'documentation'; // 3fff::/20
	if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0 && b[5] === 1) {
		return 'private'; // 64:ff9b:1::/48 local-use NAT64 (RFC 8215)
	}
	// 2001::/23 holds Teredo (2001::/32) and other protocol assignments that tunnel or are unroutable.
	if (b[0] === 0x20 && b[1] === 0x01 && b[2] < 0x02) return 'reserved';
	if (b[0] === 0x01 && b[1] === 0x00 && b.subarray(2, 8).every((x) => x === 0)) return 'reserved'; // 100::/64 discard
	// Only 2000::/3 is allocated as global unicast.
	if ((b[0] & 0xe0) !== 0x20) return 'reserved';
	return 'public';
}

/** Classifies a parsed address; IPv4 embedded in IPv6 is classified as the IPv4 address. */
export function classifyIp(ip: ParsedIp): AddressClass {
	return ip.version === 4 ? classifyV4(ip.bytes) : classifyV6(ip);
}

/** Classifies a textual address; `null` when it is not an IP address. */
export function classifyAddress(text: string): AddressClass | null {
	const ip = parseIp(text);
	return ip ? classifyIp(ip) : null;
}

/** True only for globally routable unicast addresses. */
export function isPublicAddress(text: string): boolean {
	return classifyAddress(text) === 'public';
}

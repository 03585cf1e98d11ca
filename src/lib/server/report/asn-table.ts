import { readFile } from 'node:fs/promises';
import { parseIp, type ParsedIp } from '../net/ip-address.ts';

/**
 * In-memory IP → AS number/organisation table built from the `@ip-location-db/asn` CSV files
 * (`start,end,asn,organisation`, inclusive ranges sorted by start; the v4 file has one overlap, two
 * DoD ranges, where bisection answers with the later one). That package ships no
 * MMDB (its `asn-mmdb` sibling is not published), so the CSV is parsed once into typed arrays:
 * ~410k IPv4 and ~100k IPv6 ranges take a few MB and are searched by bisection.
 */

export interface AsnRecord {
	asn: number;
	organization?: string;
}

interface RangeTable {
	/** IPv4: one word a bound; IPv6: four big-endian words a bound. */
	starts: Uint32Array;
	ends: Uint32Array;
	asns: Uint32Array;
	orgs: Uint32Array;
	count: number;
}

/** One address family's ranges (the data comes as one file per family, loaded when first needed). */
export class AsnTable {
	private constructor(
		readonly version: 4 | 6,
		private readonly table: RangeTable,
		private readonly orgNames: string[]
	) {}

	get size(): number {
		return this.table.count;
	}

	static async load(csvPath: string, version: 4 | 6): Promise<AsnTable> {
		const orgNames: string[] = [''];
		const orgIndex = new Map<string, number>([['', 0]]);
		const table = parseTable(await readFile(csvPath, 'utf8'), version === 4 ? 1 : 4, orgNames, orgIndex);
		return new AsnTable(version, table, orgNames);
	}

	/** The AS announcing `ip`, or null (also for the other address family). */
	lookup(ip: ParsedIp): AsnRecord | null {
		if (ip.version !== this.version) return null;
		const table = this.table;
		const words = ip.version === 4 ? 1 : 4;
		const key = toWords(ip);
		// Last range whose start <= key.
		let lo = 0;
		let hi = table.count - 1;
		let found = -1;
		while (lo <= hi) {
			const mid = (lo + hi) >>> 1;
			if (compare(table.starts, mid * words, key, words) <= 0) {
				found = mid;
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}
		if (found < 0 || compare(table.ends, found * words, key, words) < 0) return null;
		const asn = table.asns[found];
		if (asn === 0) return null;
		const organization = this.orgNames[table.orgs[found]];
		return organization ? { asn, organization } : { asn };
	}
}

function toWords(ip: ParsedIp): Uint32Array {
	const b = ip.bytes;
	const out = new Uint32Array(b.length / 4);
	for (let i = 0; i < out.length; i++) {
		out[i] = ((b[i * 4] << 24) | (b[i * 4 + 1] << 16) | (b[i * 4 + 2] << 8) | b[i * 4 + 3]) >>> 0;
	}
	return out;
}

/** Compares the bound at `arr[offset..offset+words)` with `key`. */
function compare(arr: Uint32Array, offset: number, key: Uint32Array, words: number): number {
	for (let i = 0; i < words; i++) {
		const a = arr[offset + i];
		const k = key[i];
		if (a !== k) return a < k ? -1 : 1;
	}
	return 0;
}

function parseTable(text: string, words: 1 | 4, orgNames: string[], orgIndex: Map<string, number>): RangeTable {
	let capacity = 1024;
	let starts = new Uint32Array(capacity * words);
	let ends = new Uint32Array(capacity * words);
	let asns = new Uint32Array(capacity);
	let orgs = new Uint32Array(capacity);
	let count = 0;
	let pos = 0;
	while (pos < text.length) {
		let nl = text.indexOf('\n', pos);
		if (nl < 0) nl = text.length;
		const line = text.charCodeAt(nl - 1) === 13 ? text.slice(pos, nl - 1) : text.slice(pos, nl);
		pos = nl + 1;
		if (!line) continue;
		const c1 = line.indexOf(',');
		const c2 = line.indexOf(',', c1 + 1);
		const c3 = line.indexOf(',', c2 + 1);
		if (c1 < 0 || c2 < 0) continue;
		if (count === capacity) {
			capacity *= 2;
			starts = grow(starts, capacity * words);
			ends = grow(ends, capacity * words);
			asns = grow(asns, capacity);
			orgs = grow(orgs, capacity);
		}
		if (!writeAddress(line.slice(0, c1), words, starts, count * words)) continue;
		if (!writeAddress(line.slice(c1 + 1, c2), words, ends, count * words)) continue;
		const asn = Number(line.slice(c2 + 1, c3 < 0 ? undefined : c3));
		if (!Number.isInteger(asn) || asn < 0 || asn > 0xffffffff) continue;
		let org = c3 < 0 ? '' : line.slice(c3 + 1);
		if (org.startsWith('"') && org.endsWith('"')) org = org.slice(1, -1).replaceAll('""', '"');
		let idx = orgIndex.get(org);
		if (idx === undefined) {
			idx = orgNames.length;
			orgNames.push(org);
			orgIndex.set(org, idx);
		}
		asns[count] = asn;
		orgs[count] = idx;
		count++;
	}
	return {
		starts: starts.slice(0, count * words),
		ends: ends.slice(0, count * words),
		asns: asns.slice(0, count),
		orgs: orgs.slice(0, count),
		count
	};
}

/**
 * Writes an address as big-endian words at `out[offset]`; false if it is not one of `words`' family.
 * A hand-written IPv4 fast path: half a million regex-validated parses cost seconds at start-up.
 */
function writeAddress(text: string, words: 1 | 4, out: Uint32Array, offset: number): boolean {
	if (words === 1) {
		let value = 0;
		let octet = 0;
		let digits = 0;
		let dots = 0;
		for (let i = 0; i < text.length; i++) {
			const c = text.charCodeAt(i);
			if (c === 46) {
				if (digits === 0 || ++dots > 3) return false;
				value = value * 256 + octet;
				octet = 0;
				digits = 0;
			} else if (c >= 48 && c <= 57 && digits < 3) {
				octet = octet * 10 + (c - 48);
				digits++;
				if (octet > 255) return false;
			} else {
				return false;
			}
		}
		if (dots !== 3 || digits === 0) return false;
		out[offset] = value * 256 + octet;
		return true;
	}
	return writeIpv6(text, out, offset);
}

/** Plain hex-group IPv6 (the data's form) parsed by hand; a dotted tail goes through parseIp. */
function writeIpv6(text: string, out: Uint32Array, offset: number): boolean {
	if (text.includes('.')) {
		const ip = parseIp(text);
		if (!ip || ip.version !== 6) return false;
		out.set(toWords(ip), offset);
		return true;
	}
	const gap = text.indexOf('::');
	const head = gap < 0 ? text : text.slice(0, gap);
	const tail = gap < 0 ? '' : text.slice(gap + 2);
	if (tail.includes('::')) return false;
	const hg = head ? head.split(':') : [];
	const tg = tail ? tail.split(':') : [];
	if (gap < 0 ? hg.length !== 8 : hg.length + tg.length > 7) return false;
	const groups = new Array<number>(8).fill(0);
	for (let i = 0; i < hg.length; i++) groups[i] = hexGroup(hg[i]);
	for (let i = 0; i < tg.length; i++) groups[8 - tg.length + i] = hexGroup(tg[i]);
	if (groups.some((x) => x < 0)) return false;
	for (let w = 0; w < 4; w++) out[offset + w] = ((groups[w * 2] << 16) | groups[w * 2 + 1]) >>> 0;
	return true;
}

function hexGroup(s: string): number {
	if (s.length === 0 || s.length > 4) return -1;
	let v = 0;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		const h = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
		if (h < 0) return -1;
		v = v * 16 + h;
	}
	return v;
}

function grow(a: Uint32Array, length: number): Uint32Array<ArrayBuffer> {
	const b = new Uint32Array(length);
	b.set(a);
	return b;
}

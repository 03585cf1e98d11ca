import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bundledGeoIpDatabases, createGeoIp, geoIpOptionsFromEnv, normalizeCityRecord, type GeoIp } from './geoip.ts';
import { HOSTING_ASNS, isHostingNetwork } from './hosting-asn.ts';

// These use the real bundled databases (pinned package versions), with addresses whose owner and
// country have been stable for many years.
let geo: GeoIp;
beforeAll(async () => {
	geo = createGeoIp({ onError: (err) => console.error(err) });
	await geo.warm();
}, 60_000);

describe('lookup of public addresses', () => {
	it('8.8.8.8 is Google in the US, flagged as hosting, with coordinates and a time zone', async () => {
		const loc = await geo.lookup('8.8.8.8');
		expect(loc).toMatchObject({ ip: '8.8.8.8', countryCode: 'US', asn: 15169, isHosting: true });
		expect(loc.asOrganization).toMatch(/google/i);
		expect(loc.isp).toBe(loc.asOrganization);
		expect(loc.latitude).toBeTypeOf('number');
		expect(loc.longitude).toBeTypeOf('number');
		expect(loc.timezone).toMatch(/^America\//);
		expect(loc.city).toBeTruthy();
		expect(loc.region).toBeTruthy();
		// Coordinates are rounded, not float32 noise.
		expect(String(loc.latitude).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(4);
	});

	it('1.1.1.1 is Cloudflare (hosting/VPN network)', async () => {
		expect(await geo.lookup('1.1.1.1')).toMatchObject({ asn: 13335, isHosting: true });
	});

	it('81.2.69.142 is a British ISP, not hosting', async () => {
		const loc = await geo.lookup('81.2.69.142');
		expect(loc).toMatchObject({ countryCode: 'GB', asn: 20712, isHosting: false });
		expect(loc.timezone).toBe('Europe/London');
	});

	it('a Canadian cable customer range is not hosting', async () => {
		const loc = await geo.lookup('24.48.0.1');
		expect(loc).toMatchObject({ countryCode: 'CA', asn: 5769, isHosting: false });
		expect(loc.timezone).toMatch(/^America\//);
	});

	it('IPv6: the WIDE Project in Japan', async () => {
		const loc = await geo.lookup('2001:200::1');
		expect(loc).toMatchObject({ ip: '2001:200::1', countryCode: 'JP', asn: 2500, timezone: 'Asia/Tokyo', isHosting: false });
	});

	it('IPv6: Google public DNS is Google and hosting', async () => {
		const loc = await geo.lookup('2001:4860:4860::8888');
		expect(loc).toMatchObject({ ip: '2001:4860:4860::8888', asn: 15169, isHosting: true });
		expect(loc.countryCode).toMatch(/^[A-Z]{2}$/);
	});

	it('an IPv4-mapped IPv6 address is looked up and shown as IPv4', async () => {
		expect(await geo.lookup('::ffff:8.8.8.8')).toMatchObject({ ip: '8.8.8.8', countryCode: 'US', asn: 15169 });
	});

	it('answers a warm lookup in well under a millisecond on average', async () => {
		const ips = Array.from({ length: 2000 }, (_, i) => `${(i % 200) + 1}.${(i * 7) % 256}.${(i * 13) % 256}.1`);
		const t = performance.now();
		for (const ip of ips) await geo.lookup(ip);
		expect((performance.now() - t) / ips.length).toBeLessThan(1);
	});
});

describe('addresses with no location', () => {
	it.each([
		['10.0.0.1', '10.0.0.1'],
		['192.168.1.20', '192.168.1.20'],
		['172.16.5.4', '172.16.5.4'],
		['100.64.0.1', '100.64.0.1'],
		['127.0.0.1', '127.0.0.1'],
		['169.254.169.254', '169.254.169.254'],
		['::1', '::1'],
		['fe80::1', 'fe80::1'],
		['fd00::1', 'fd00::1'],
		['2001:db8::1', '2001:db8::1'],
		['::ffff:192.168.0.1', '192.168.0.1'],
		['0.0.0.0', '0.0.0.0'],
		['not an ip', 'not an ip']
	])('%s gives only the ip', async (input, ip) => {
		expect(await geo.lookup(input)).toEqual({ ip });
	});
});

describe('createGeoIp', () => {
	it('opens nothing until the first lookup, then degrades to { ip } when data is missing', async () => {
		const onError = vi.fn();
		const g = createGeoIp({
			cityDb: { v4: '/nonexistent/city4.mmdb', v6: '/nonexistent/city6.mmdb' },
			asnDb: { v4: '/nonexistent/asn4.csv', v6: '/nonexistent/asn6.csv' },
			onError
		});
		expect(onError).not.toHaveBeenCalled();
		expect(await g.lookup('8.8.8.8')).toEqual({ ip: '8.8.8.8' });
		expect(onError).toHaveBeenCalledTimes(2);
		// The failure is remembered, not retried on every lookup.
		await g.lookup('8.8.4.4');
		expect(onError).toHaveBeenCalledTimes(2);
	});

	it('reads an MMDB file for ASN data as well (GeoLite2-ASN schema)', async () => {
		// The city MMDB has no ASN fields: every lookup finds a record but no AS number.
		const { cityDb } = bundledGeoIpDatabases();
		const g = createGeoIp({ asnDb: cityDb });
		const loc = await g.lookup('8.8.8.8');
		expect(loc.countryCode).toBe('US');
		expect(loc.asn).toBeUndefined();
		expect(loc.isHosting).toBeUndefined();
	});

	it('takes combined databases from GEOIP_CITY_DB / GEOIP_ASN_DB', () => {
		expect(geoIpOptionsFromEnv({})).toEqual({});
		expect(geoIpOptionsFromEnv({ GEOIP_CITY_DB: '/d/city.mmdb', GEOIP_ASN_DB: ' /d/asn.mmdb ' })).toEqual({
			cityDb: { v4: '/d/city.mmdb', v6: '/d/city.mmdb' },
			asnDb: { v4: '/d/asn.mmdb', v6: '/d/asn.mmdb' }
		});
	});
});

describe('normalizeCityRecord', () => {
	it('reads the flat ip-location-db record and derives the time zone', () => {
		expect(
			normalizeCityRecord({
				city: 'San Jose (Tasman and Zanker)',
				country_code: 'us',
				latitude: 37.40840148925781,
				longitude: -121.9540023803711,
				postcode: '',
				state1: 'California',
				state2: '',
				timezone: ''
			})
		).toEqual({
			city: 'San Jose',
			region: 'California',
			countryCode: 'US',
			latitude: 37.4084,
			longitude: -121.954,
			timezone: 'America/Los_Angeles'
		});
	});

	it("reads MaxMind's nested City schema", () => {
		expect(
			normalizeCityRecord({
				city: { names: { en: 'Berlin', de: 'Berlin' } },
				country: { iso_code: 'DE' },
				subdivisions: [{ names: { en: 'Land Berlin' } }],
				location: { latitude: 52.5244, longitude: 13.4105, time_zone: 'Europe/Berlin' }
			})
		).toEqual({
			city: 'Berlin',
			region: 'Land Berlin',
			countryCode: 'DE',
			latitude: 52.5244,
			longitude: 13.4105,
			timezone: 'Europe/Berlin'
		});
	});

	it('invents nothing for a country-only record or (0, 0) coordinates', () => {
		expect(normalizeCityRecord({ country_code: 'FR', city: '', state1: '', latitude: 0, longitude: 0, timezone: '' })).toEqual({
			countryCode: 'FR'
		});
	});
});

describe('hosting heuristic', () => {
	it('lists only AS numbers that exist in the bundled ASN data', async () => {
		const { asnDb } = bundledGeoIpDatabases();
		const seen = new Set<number>();
		for (const path of [asnDb.v4, asnDb.v6]) {
			for (const m of (await readFile(path, 'utf8')).matchAll(/^[^,]+,[^,]+,(\d+),/gm)) seen.add(Number(m[1]));
		}
		const missing = [...HOSTING_ASNS.keys()].filter((asn) => !seen.has(asn));
		expect(missing).toEqual([]);
	}, 30_000);

	it.each([
		[24940, 'Hetzner Online GmbH', true],
		[64500, 'Hetzner Online GmbH', false], // the name alone says nothing: that is what the list is for
		[64500, 'Example Hosting LLC', true],
		[64500, 'Acme Datacenter B.V.', true],
		[64500, 'FooVPN Ltd', false], // "VPN" must be a word
		[64500, 'Foo VPN Ltd', true],
		[64500, 'UK Dedicated Servers Limited', true],
		[64500, 'Comcast Cable Communications, LLC', false],
		[64500, 'Deutsche Telekom AG', false],
		[64500, 'Cloud Mobile Telecom', false], // an access network despite "Cloud"
		[64500, undefined, false],
		[16509, 'Amazon.com, Inc.', true],
		[7922, 'Comcast Cable Communications, LLC', false]
	] as const)('AS%i %s → %s', (asn, org, expected) => {
		expect(isHostingNetwork(asn, org)).toBe(expected);
	});
});

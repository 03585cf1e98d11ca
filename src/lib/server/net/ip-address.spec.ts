import { describe, expect, it } from 'vitest';
import { classifyAddress, formatIp, isPublicAddress, normalizeIpText, parseIp } from './ip-address.ts';

describe('classifyAddress', () => {
	it.each([
		// IPv4
		['8.8.8.8', 'public'],
		['1.1.1.1', 'public'],
		['0.0.0.0', 'unspecified'],
		['0.1.2.3', 'unspecified'],
		['10.0.0.1', 'private'],
		['10.255.255.255', 'private'],
		['11.0.0.0', 'public'],
		['100.63.255.255', 'public'],
		['100.64.0.0', 'cgnat'],
		['100.127.255.255', 'cgnat'],
		['100.128.0.0', 'public'],
		['127.0.0.1', 'loopback'],
		['127.255.255.254', 'loopback'],
		['169.254.169.254', 'link_local'],
		['169.254.0.1', 'link_local'],
		['172.15.255.255', 'public'],
		['172.16.0.0', 'private'],
		['172.31.255.255', 'private'],
		['172.32.0.0', 'public'],
		['192.0.0.8', 'reserved'],
		['192.0.2.1', 'documentation'],
		['192.88.99.1', 'reserved'],
		['192.167.255.255', 'public'],
		['192.168.1.1', 'private'],
		['198.18.0.1', 'benchmarking'],
		['198.19.255.255', 'benchmarking'],
		['198.20.0.0', 'public'],
		['198.51.100.7', 'documentation'],
		['203.0.113.9', 'documentation'],
		['224.0.0.1', 'multicast'],
		['239.255.255.255', 'multicast'],
		['240.0.0.1', 'reserved'],
		['255.255.255.255', 'broadcast'],
		// IPv6
		['::', 'unspecified'],
		['::1', 'loopback'],
		['0:0:0:0:0:0:0:1', 'loopback'],
		['2001:4860:4860::8888', 'public'],
		['2606:4700:4700::1111', 'public'],
		['fe80::1', 'link_local'],
		['febf:ffff::1', 'link_local'],
		['fec0::1', 'private'],
		['fc00::1', 'unique_local'],
		['fd12:3456:789a::1', 'unique_local'],
		['ff02::1', 'multicast'],
		['2001:db8::1', 'documentation'],
		['3fff::1', 'documentation'],
		['2001::1', 'reserved'], // Teredo
		['100::1', 'reserved'],
		['4000::1', 'reserved'],
		['::ffff:127.0.0.1', 'loopback'],
		['::ffff:7f00:1', 'loopback'],
		['::ffff:10.1.2.3', 'private'],
		['::ffff:169.254.169.254', 'link_local'],
		['::ffff:8.8.8.8', 'public'],
		['::127.0.0.1', 'loopback'], // IPv4-compatible (deprecated)
		['64:ff9b::a9fe:a9fe', 'link_local'], // NAT64 of 169.254.169.254
		['64:ff9b::808:808', 'public'],
		['64:ff9b:1::1', 'private'],
		['2002:7f00:1::', 'loopback'], // 6to4 wrapping 127.0.0.1
		['2002:0808:0808::1', 'public'],
		['[::1]', 'loopback'],
		['fe80::1%eth0', 'link_local'],
		['127.0.0.1:8080', 'loopback']
	] as const)('%s → %s', (text, expected) => {
		expect(classifyAddress(text)).toBe(expected);
	});

	it.each(['', 'localhost', '1.2.3', '01.2.3.4', '256.1.1.1', '0x7f.0.0.1', '2130706433', '::g', '1::2::3'])(
		'rejects %j as not an address',
		(text) => {
			expect(classifyAddress(text)).toBeNull();
			expect(isPublicAddress(text)).toBe(false);
		}
	);
});

describe('parseIp / formatIp', () => {
	it.each([
		['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
		['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
		['::ffff:1.2.3.4', '::ffff:102:304'],
		['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
		['1:0:3:4:5:6:7:8', '1:0:3:4:5:6:7:8'],
		['::', '::'],
		['8.8.4.4', '8.8.4.4']
	])('%s formats as %s', (input, canonical) => {
		const ip = parseIp(input);
		expect(ip).not.toBeNull();
		expect(formatIp(ip!)).toBe(canonical);
	});

	it('normalises brackets, ports and zones', () => {
		expect(normalizeIpText(' [2001:db8::1]:443 ')).toBe('2001:db8::1');
		expect(normalizeIpText('203.0.113.5:51234')).toBe('203.0.113.5');
		expect(normalizeIpText('fe80::1%25eth0')).toBe('fe80::1');
	});
});

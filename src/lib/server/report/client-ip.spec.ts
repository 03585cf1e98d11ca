import { describe, expect, it } from 'vitest';
import { getClientIp } from './client-ip.ts';

describe('getClientIp', () => {
	it.each([
		// [socket, X-Forwarded-For, TRUST_PROXY, expected]
		['203.0.113.7', null, 0, '203.0.113.7'],
		['203.0.113.7', '1.2.3.4', 0, '203.0.113.7'], // not trusted: a client can send anything
		['10.0.0.2', '198.51.100.9', 1, '198.51.100.9'], // one load balancer
		['10.0.0.2', '6.6.6.6, 198.51.100.9', 1, '198.51.100.9'], // spoofed entry on the left is ignored
		['10.0.0.2', '6.6.6.6, 198.51.100.9, 172.16.0.5', 2, '198.51.100.9'], // CDN + load balancer
		['10.0.0.2', '198.51.100.9', 3, '198.51.100.9'], // fewer hops than configured: leftmost
		['10.0.0.2', '', 1, '10.0.0.2'],
		['10.0.0.2', null, 1, '10.0.0.2'],
		['10.0.0.2', 'garbage', 1, null], // never guess from another hop
		['10.0.0.2', '[2001:db8::1]:4711', 1, '2001:db8::1'],
		['10.0.0.2', '198.51.100.9:51234', 1, '198.51.100.9'],
		['::ffff:203.0.113.7', null, 0, '203.0.113.7'],
		['2001:DB8:0:0::1', null, 0, '2001:db8::1'],
		[undefined, null, 0, null],
		['unix-socket', null, 0, null]
	] as const)('socket %s, XFF %j, trust %i → %s', (socketAddress, forwardedFor, trustProxy, expected) => {
		expect(getClientIp({ socketAddress, forwardedFor, trustProxy })).toBe(expected);
	});

	it('joins repeated X-Forwarded-For headers in order', () => {
		expect(getClientIp({ socketAddress: '10.0.0.2', forwardedFor: ['6.6.6.6', '198.51.100.9'], trustProxy: 1 })).toBe(
			'198.51.100.9'
		);
	});
});

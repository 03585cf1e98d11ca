import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
	const clocked = (ttl: number, max?: number) => {
		let t = 0;
		const cache = new TtlCache<string, string>(ttl, max, () => t);
		return { cache, advance: (ms: number) => (t += ms) };
	};

	it('serves an entry until its TTL runs out, then asks again', async () => {
		const { cache, advance } = clocked(5000);
		let loads = 0;
		const load = async () => `v${++loads}`;
		expect(await cache.getOr('k', load)).toBe('v1');
		advance(4999);
		expect(await cache.getOr('k', load)).toBe('v1');
		advance(1);
		expect(await cache.getOr('k', load)).toBe('v2');
	});

	it('does not keep what the loader did not find', async () => {
		const { cache } = clocked(5000);
		expect(await cache.getOr('k', async () => undefined)).toBeUndefined();
		expect(await cache.getOr('k', async () => 'found')).toBe('found');
	});

	it('drops the entries a change names, and a load that raced the change is not stored', async () => {
		const { cache } = clocked(5000);
		cache.set('a', 'key_1');
		cache.set('b', 'key_2');
		cache.deleteWhere((v) => v === 'key_1');
		expect(cache.get('a')).toBeUndefined();
		expect(cache.get('b')).toBe('key_2');

		// A lookup reads the key as active, the key is revoked before the lookup returns: the stale
		// answer goes to that one request, but the next request reads the store again.
		let release!: () => void;
		const slow = cache.getOr('c', () => new Promise<string>((r) => (release = () => r('active'))));
		cache.deleteWhere((v) => v === 'active');
		release();
		expect(await slow).toBe('active');
		expect(cache.get('c')).toBeUndefined();
	});

	it('holds at most maxEntries, oldest out first', () => {
		const { cache } = clocked(5000, 2);
		cache.set('a', '1');
		cache.set('b', '2');
		cache.set('c', '3');
		expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, '2', '3']);
	});
});

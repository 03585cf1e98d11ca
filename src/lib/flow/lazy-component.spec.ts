import { describe, expect, it } from 'vitest';
import { LazyComponent } from './lazy-component.svelte.ts';

describe('LazyComponent', () => {
	it('fetches once, however often it is asked, and holds the component once loaded', async () => {
		let calls = 0;
		const lazy = new LazyComponent(async () => {
			calls++;
			return { default: 'screen' };
		});
		expect(lazy.current).toBeNull();
		const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
		await lazy.load();
		expect([a, b, lazy.current, calls]).toEqual(['screen', 'screen', 'screen', 1]);
	});

	it('forgets a failed fetch, so the next call tries again', async () => {
		let calls = 0;
		const lazy = new LazyComponent(async () => {
			if (++calls === 1) throw new Error('offline');
			return { default: 'screen' };
		});
		await expect(lazy.load()).rejects.toThrow('offline');
		expect(lazy.current).toBeNull();
		await expect(lazy.load()).resolves.toBe('screen');
		expect([lazy.current, calls]).toEqual(['screen', 2]);
	});
});

import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from './crypto.ts';

describe('random identifiers', () => {
	it('are base62 of the length their entropy needs, all distinct across many pool refills', () => {
		const ids = Array.from({ length: 2000 }, () => newId('ses'));
		for (const id of ids) expect(id).toMatch(/^ses_[0-9A-Za-z]{22}$/);
		expect(new Set(ids).size).toBe(ids.length);
		expect(randomBase62(32)).toMatch(/^[0-9A-Za-z]{43}$/);
	});

	it('use every letter of the alphabet', () => {
		const seen = new Set(Array.from({ length: 2000 }, () => randomBase62(16)).join(''));
		expect(seen.size).toBe(62);
	});
});

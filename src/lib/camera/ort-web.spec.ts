import { describe, expect, it } from 'vitest';
import type { OrtSession, OrtTensor } from '#lib/face/ort-runtime.ts';
import { lazySession } from './ort-web.ts';

const tensor = (v: number): OrtTensor => ({ data: new Float32Array([v]), dims: [1] });
const doubling: OrtSession = {
	inputNames: ['input'],
	outputNames: ['out'],
	run: async (feeds) => ({ out: tensor((feeds.input.data as Float32Array)[0] * 2) })
};

describe('lazySession', () => {
	it('creates the session on the first run only, and knows its names before', async () => {
		let created = 0;
		const lazy = lazySession(async () => (created++, doubling), { inputNames: ['input'], outputNames: ['out'] });
		expect(created).toBe(0);
		expect(lazy.inputNames).toEqual(['input']);
		const [a, b] = await Promise.all([lazy.run({ input: tensor(2) }), lazy.run({ input: tensor(5) })]);
		expect([(a.out.data as Float32Array)[0], (b.out.data as Float32Array)[0]]).toEqual([4, 10]);
		await lazy.run({ input: tensor(1) });
		expect(created).toBe(1);
	});

	it('tries again after a failed creation (a lost download) instead of failing for good', async () => {
		let tries = 0;
		const lazy = lazySession(async () => {
			if (++tries === 1) throw new Error('HTTP 503');
			return doubling;
		}, doubling);
		await expect(lazy.run({ input: tensor(1) })).rejects.toThrow('HTTP 503');
		expect((await lazy.run({ input: tensor(3) })).out.data).toEqual(new Float32Array([6]));
		expect(tries).toBe(2);
	});
});

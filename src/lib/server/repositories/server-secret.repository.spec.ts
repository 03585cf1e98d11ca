import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_KINDS, createTestApp } from '../../../../tests/helpers/test-store.ts';

describe.each(STORE_KINDS)('server secrets on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	beforeAll(async () => {
		app = await createTestApp(kind);
	});
	afterAll(() => app?.dispose());

	it('keeps the first value written under a name: instances starting together agree on it', async () => {
		const repo = app.uow.repos.serverSecrets;
		const [a, b] = await Promise.all([repo.findOrCreate('master-test', 'first', 1), repo.findOrCreate('master-test', 'second', 2)]);
		expect(a).toBe(b);
		expect(await repo.findOrCreate('master-test', 'third', 3)).toBe(a);
		expect(await repo.findOrCreate('other', 'own', 4)).toBe('own');
	});
});

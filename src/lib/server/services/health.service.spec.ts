import { describe, expect, it } from 'vitest';
import { HealthService } from './health.service.ts';

describe('health', () => {
	it('answers with the store kind and the round trip, or ok: false when the store does not answer', async () => {
		const up = new HealthService({ storeKind: 'postgres', ping: async () => [{ '?column?': 1 }] });
		expect(up.storeKind).toBe('postgres');
		expect(await up.store()).toEqual({ kind: 'postgres', ok: true, latencyMs: expect.any(Number) });
		const down = new HealthService({ storeKind: 'pglite', ping: () => Promise.reject(new Error('closed')) });
		expect(await down.store()).toEqual({ kind: 'pglite', ok: false });
	});
});

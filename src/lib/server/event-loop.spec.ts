import { describe, expect, it } from 'vitest';
import { loadInTurn, measureLoopHold } from './event-loop.ts';

/** Holds the event loop for `ms`, as onnxruntime-node's session creation does. */
function hold(ms: number): void {
	const end = performance.now() + ms;
	while (performance.now() < end);
}

describe('loading in turn', () => {
	it('lets a waiting request run between two loads and keeps their order', async () => {
		const seen: string[] = [];
		const loads = ['a', 'b'].map((name) => async () => {
			seen.push(name);
			setImmediate(() => seen.push(`request after ${name}`));
			return name;
		});
		expect(await loadInTurn(loads)).toEqual(['a', 'b']);
		expect(seen).toEqual(['a', 'request after a', 'b']);
	});

	it('measures the longest hold: one 80 ms piece, not the 160 ms of two loads', async () => {
		const { result, maxHoldMs } = await measureLoopHold(() => loadInTurn([async () => hold(80), async () => hold(80)]));
		expect(result).toHaveLength(2);
		expect(maxHoldMs).toBeGreaterThanOrEqual(80);
		expect(maxHoldMs).toBeLessThan(160);
		// Without yields the two loads are one piece.
		const together = await measureLoopHold(async () => {
			hold(80);
			hold(80);
		});
		expect(together.maxHoldMs).toBeGreaterThanOrEqual(160);
	});
});

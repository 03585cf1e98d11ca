// onnxruntime-node creates an inference session synchronously on the calling thread (100–200 ms
// for an OCR model on this machine): code that loads several models yields between them, so a
// request that arrives meanwhile waits for one model at most, not for all of them.

/** Lets pending I/O (requests, timers) run before the caller goes on. */
export function yieldToRequests(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `loads` one after another with a yield before each: the models of a component, each a
 * separate block of the event loop instead of one long one.
 */
export async function loadInTurn<T>(loads: readonly (() => Promise<T>)[]): Promise<T[]> {
	const out: T[] = [];
	for (const load of loads) {
		await yieldToRequests();
		out.push(await load());
	}
	return out;
}

/** The longest gap between the turns of a 5 ms timer while `run` runs: how long the loop was held. */
export async function measureLoopHold<T>(run: () => Promise<T>): Promise<{ result: T; maxHoldMs: number }> {
	let last = performance.now();
	let max = 0;
	const timer = setInterval(() => {
		const now = performance.now();
		max = Math.max(max, now - last);
		last = now;
	}, 5);
	try {
		const result = await run();
		max = Math.max(max, performance.now() - last);
		return { result, maxHoldMs: Math.round(max) };
	} finally {
		clearInterval(timer);
	}
}

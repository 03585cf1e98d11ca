/** A small closed-loop HTTP load generator: `concurrency` workers, each sending its next request when the last answers. */
export interface LoadResult {
	requests: number;
	errors: number;
	seconds: number;
	rps: number;
	p50: number;
	p99: number;
	statuses: Record<number, number>;
}

export async function load(
	makeRequest: (i: number) => { url: string; init?: RequestInit },
	{ seconds = 8, concurrency = 16, warmupSeconds = 1 }: { seconds?: number; concurrency?: number; warmupSeconds?: number } = {}
): Promise<LoadResult> {
	const latencies: number[] = [];
	const statuses: Record<number, number> = {};
	let errors = 0;
	let counter = 0;
	const started = performance.now();
	const warmEnd = started + warmupSeconds * 1000;
	const end = warmEnd + seconds * 1000;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (performance.now() < end) {
				const { url, init } = makeRequest(counter++);
				const t0 = performance.now();
				try {
					const res = await fetch(url, init);
					await res.arrayBuffer();
					if (t0 >= warmEnd) {
						latencies.push(performance.now() - t0);
						statuses[res.status] = (statuses[res.status] ?? 0) + 1;
					}
				} catch {
					if (t0 >= warmEnd) errors++;
				}
			}
		})
	);
	latencies.sort((a, b) => a - b);
	const q = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
	return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: q(0.5), p99: q(0.99), statuses };
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

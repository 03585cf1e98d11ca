/** A small closed-loop HTTP load generator: `concurrency` workers, each sending its next request when the last answers. */
import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far, from /proc; null where there is none.
 * On a machine shared with other work, a server's CPU per request moves much less than its rate.
 */
export function cpuSeconds(pid: number | undefined): number | null {
	if (!pid) return null;
	try {
		// Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return (Number(fields[11]) + Number(fields[12])) / 100;
	} catch {
		return null;
	}
}

export interface LoadResult {
	requests: number;
	errors: number;
	seconds: number;
	rps: number;
	p50: number;
	p99: number;
	statuses: Record<number, number>;
	/** Server CPU milliseconds per measured request (when `cpuPid` was given and /proc exists). */
	cpuMsPerRequest: number;
}

export async function load(
	makeRequest: (i: number) => { url: string; init?: RequestInit },
	{ seconds = 8, concurrency = 16, warmupSeconds = 1, cpuPid }: { seconds?: number; concurrency?: number; warmupSeconds?: number; cpuPid?: number } = {}
): Promise<LoadResult> {
	const latencies: number[] = [];
	const statuses: Record<number, number> = {};
	let errors = 0;
	let counter = 0;
	const started = performance.now();
	const warmEnd = started + warmupSeconds * 1000;
	const end = warmEnd + seconds * 1000;
	let cpuStart: number | null = null;
	const cpuTimer = setTimeout(() => (cpuStart = cpuSeconds(cpuPid)), warmupSeconds * 1000);
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
	clearTimeout(cpuTimer);
	const cpuEnd = cpuSeconds(cpuPid);
	latencies.sort((a, b) => a - b);
	const q = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
	// Requests answered after the window's end still count: they ran inside it, mostly.
	const cpuMsPerRequest = cpuStart !== null && cpuEnd !== null && latencies.length ? ((cpuEnd - cpuStart) * 1000) / latencies.length : NaN;
	return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: q(0.5), p99: q(0.99), statuses, cpuMsPerRequest };
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

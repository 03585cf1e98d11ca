/**
 * `npm run bench first-read`: the first document read after the server starts, with and without
 * WARM_MODELS, in the same run. Each variant starts the production server on a fresh store, waits
 * until it answers /healthz (its readiness), keeps probing /healthz every 25 ms for BENCH_FR_WAIT_S
 * seconds (how long the warm-up keeps the event loop from answering), then uploads the passport
 * specimen td3-passport-2.jpg to the document node's evidence endpoint as the page does (no
 * browser) and times the round trip; a second upload right after is the steady state. Peer: the
 * reader alone, in-process, warm, on the same image (floor of what a read costs on this machine).
 * Writes bench/results/first-read.md. Run after `npm run build` (npm run bench builds first).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { DocumentReader } from '../src/lib/server/documents/document-reader.service.ts';
import { startServer, type RunningServer } from '../tests/helpers/server.ts';
import { PASSPORT_SCAN_FLOW } from './flows.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results');
const KEY = 'sk_test_BenchFirstReadBenchFirstRd01';
const ROUNDS = Number(process.env.BENCH_FR_ROUNDS ?? 2);
const WAIT_S = Number(process.env.BENCH_FR_WAIT_S ?? 8);
/** `BENCH_BUILD=<folder>`: also run an older build (with WARM_MODELS on) as "before". */
const BEFORE_BUILD = process.env.BENCH_BUILD;
const IMAGE = readFileSync(path.join(ROOT, 'tests/fixtures/documents/td3-passport-2.jpg'));
mkdirSync(RESULTS, { recursive: true });

const FLOW = PASSPORT_SCAN_FLOW;

async function post(url: string, body: unknown, token: string): Promise<any> {
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
	if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
	return res.json();
}

/** One document read through the evidence endpoint: round trip and the server's own figures. */
async function upload(server: RunningServer): Promise<{ roundTrip: number; total: number; serverMs: number }> {
	const created = await post(`${server.url}/api/sessions`, { clientReferenceId: 'bench-first-read', flow: FLOW }, KEY);
	const res = await fetch(`${server.url}/api/client/open`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientSecret: created.clientSecret.secret, languages: ['en'] }) });
	const opened = await res.json();
	const token = opened.pageToken as string;
	const granted = await post(`${server.url}/api/client/nodes/perm`, { step: opened.state.session.step, action: 'granted', payload: { camera: true } }, token);
	const t0 = performance.now();
	await post(`${server.url}/api/client/nodes/doc/evidence`, { step: granted.state.session.step, images: [{ side: 'front', image: IMAGE.toString('base64') }], claim: {} }, token);
	const roundTrip = performance.now() - t0;
	const got = await fetch(`${server.url}/api/sessions/${created.session.id}`, { headers: { authorization: `Bearer ${KEY}` } });
	const report = (await got.json()).session.report.nodeReports.find((r: { nodeId: string }) => r.nodeId === 'doc');
	if (report.outcome !== 'scanSuccess') throw new Error(`upload: ${report.outcome}`);
	return { roundTrip, total: report.details.timings.total, serverMs: report.details.serverMs };
}

/** /healthz every 25 ms for `seconds`: the slowest answer says how long the event loop was held. */
async function probe(server: RunningServer, seconds: number): Promise<{ max: number; p99: number; n: number }> {
	const times: number[] = [];
	const end = performance.now() + seconds * 1000;
	while (performance.now() < end) {
		const t = performance.now();
		await fetch(`${server.url}/healthz`).then((r) => r.arrayBuffer());
		times.push(performance.now() - t);
		await new Promise((r) => setTimeout(r, 25));
	}
	times.sort((a, b) => a - b);
	return { max: times.at(-1) ?? NaN, p99: times[Math.floor(times.length * 0.99)] ?? NaN, n: times.length };
}

interface Row {
	label: string;
	ready: number;
	probe: { max: number; p99: number; n: number };
	first: { roundTrip: number; total: number; serverMs: number };
	second: { roundTrip: number; total: number; serverMs: number };
	warmMs: number | null;
	/** The longest the warm-up held the event loop, as the server logged it (builds that log it). */
	holdMs: number | null;
}

async function variant(label: string, warm: boolean, build?: string): Promise<Row> {
	const t = performance.now();
	const server = await startServer({ SEED_API_KEYS: KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'info', WARM_MODELS: String(warm) }, { build });
	const ready = performance.now() - t;
	try {
		const p = await probe(server, WAIT_S);
		const first = await upload(server);
		const second = await upload(server);
		const m = /"ms":(\d+)[^\n]*models (?:loaded|warmed)/.exec(server.logs());
		const hold = /"maxHoldMs":(\d+)/.exec(server.logs());
		return { label, ready, probe: p, first, second, warmMs: m ? Number(m[1]) : null, holdMs: hold ? Number(hold[1]) : null };
	} finally {
		await server.stop();
	}
}

const reader = await DocumentReader.load();
await reader.read(IMAGE, { mode: 'SINGLE_SIDE' });
const alone: number[] = [];
const rows: Row[] = [];
for (let i = 0; i < ROUNDS; i++) {
	if (BEFORE_BUILD) rows.push(await variant(`before (${BEFORE_BUILD}), WARM_MODELS=true`, true, BEFORE_BUILD));
	rows.push(await variant('WARM_MODELS=false', false));
	rows.push(await variant('WARM_MODELS=true', true));
	const t = performance.now();
	await reader.read(IMAGE, { mode: 'SINGLE_SIDE' });
	alone.push(performance.now() - t);
}

const r0 = (v: number | null) => (v === null || !Number.isFinite(v) ? '–' : String(Math.round(v)));
const lines = [
	`First document read after a start, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}: production server, fresh embedded store, td3-passport-2.jpg (1426×1056 JPEG) uploaded to the evidence endpoint ${WAIT_S} s after /healthz first answered; ${ROUNDS} rounds, variants interleaved.`,
	'',
	'| variant | ready (spawn → /healthz) ms | /healthz during warm-up, p99 / max ms | warm-up ms / longest loop hold ms (log) | first read: round trip ms | first read: server read ms | second read: round trip ms |',
	'|---|---:|---:|---:|---:|---:|---:|',
	...rows.map((r) => `| ${r.label} | ${r0(r.ready)} | ${r0(r.probe.p99)} / ${r0(r.probe.max)} | ${r0(r.warmMs)} / ${r0(r.holdMs)} | ${r0(r.first.roundTrip)} | ${r0(r.first.total)} | ${r0(r.second.roundTrip)} |`),
	'',
	`Peer: the reader alone, in-process and warm, same image: ${alone.map(r0).join(', ')} ms. Load average at the end: ${loadavg().map((v) => v.toFixed(1)).join(' / ')}.`
];
const table = lines.join('\n') + '\n';
console.log(`\n${table}`);
writeFileSync(path.join(RESULTS, 'first-read.md'), table);

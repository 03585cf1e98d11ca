/**
 * `npm run bench documents`: the document_scan node in headless Chromium against the production
 * server, with a fake camera showing the passport specimen td3-passport-2.jpg (1280×720 MJPEG).
 * Per session: the page's per-frame check (edges, blur, glare on a 640-px copy), from the first
 * check that found the document to the capture, the capture + JPEG encode, the upload + server read
 * until the next screen, and the server's own stages (decode, locate, text detection, recognition,
 * parse, barcode, portrait) from the node report. The same with the CPU throttled 4× (DevTools
 * protocol; a mid-range phone). Peers, measured in the same run and interleaved with the browser
 * sessions (the machine is shared, so only figures taken side by side compare): the same camera
 * frame uploaded straight to the evidence endpoint (no page), and the reader alone, in-process and
 * warm, on that frame.
 * Writes bench/results/documents.md. Run after `npm run build` (npm run bench builds first).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { DocumentReader } from '../src/lib/server/documents/document-reader.service.ts';
import { documentClip } from '../tests/e2e/support/document-clips.ts';
import { startServer, type RunningServer } from '../tests/helpers/server.ts';
import { PASSPORT_SCAN_FLOW } from './flows.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results');
const KEY = 'sk_test_BenchDocumentsBenchDocs0001';
const RUNS = Number(process.env.BENCH_DOC_RUNS ?? 3);
const THROTTLED_RUNS = Number(process.env.BENCH_DOC_THROTTLED_RUNS ?? 2);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
mkdirSync(RESULTS, { recursive: true });

const FLOW = PASSPORT_SCAN_FLOW;

interface Sample {
	/** Page clock (ms): first check that found the document → capture starts → upload starts → next screen. */
	foundToCapture: number;
	capture: number;
	uploadAndRead: number;
	total: number;
	/** The page's mean per-frame check (ms) and checks made. */
	check: number;
	checks: number;
	server: Record<string, number>;
	outcome: string;
}

async function api(server: RunningServer, method: string, p: string, body?: unknown) {
	const res = await fetch(`${server.url}/api${p}`, { method, headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
	if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
	return res.json();
}

/** Records (page clock) when the document node's phase and guidance change and when the end screen shows. */
const RECORDER = () => {
	const marks: Record<string, number> = {};
	(window as unknown as { docMarks: Record<string, number> }).docMarks = marks;
	const observer = new MutationObserver(() => {
		const node = document.querySelector('[data-testid="document-node"]');
		const now = performance.now();
		if (node) {
			marks.node ??= now;
			const guidance = node.getAttribute('data-guidance');
			if (guidance && guidance !== 'fitInFrame') marks.found ??= now;
			const phase = node.getAttribute('data-phase') ?? '';
			if (phase) marks[phase] ??= now;
		}
		if (document.querySelector('[data-screen="end"]')) marks.end ??= now;
	});
	addEventListener('DOMContentLoaded', () => observer.observe(document.body, { subtree: true, attributes: true, childList: true }));
};

async function runSession(server: RunningServer, clip: string, throttle: number): Promise<Sample> {
	const created = await api(server, 'POST', '/sessions', { clientReferenceId: 'bench-doc', flow: FLOW });
	const url = new URL(created.clientSecret.url);
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${clip}`] });
	try {
		const context = await browser.newContext({ baseURL: server.url, locale: 'en-US', viewport: { width: 1280, height: 800 }, permissions: ['camera', 'microphone'] });
		const page = await context.newPage();
		await page.addInitScript(RECORDER);
		if (throttle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
		await page.goto(url.pathname + url.search);
		await page.getByTestId('permissions-continue').click();
		await page.locator('[data-screen="end"]').waitFor({ timeout: 120_000 });
		const marks = (await page.evaluate(() => (window as unknown as { docMarks: Record<string, number> }).docMarks)) as Record<string, number>;
		const session = (await api(server, 'GET', `/sessions/${created.session.id}`)).session;
		const report = session.report.nodeReports.find((r: { nodeId: string }) => r.nodeId === 'doc');
		const d = report.details;
		return {
			foundToCapture: marks.capturing - marks.found,
			capture: marks.uploading - marks.capturing,
			uploadAndRead: marks.end - marks.uploading,
			total: marks.end - marks.found,
			check: d.claim?.timings?.check ?? NaN,
			checks: d.claim?.framesSeen ?? 0,
			server: { ...d.timings, serverMs: d.serverMs },
			outcome: report.outcome
		};
	} finally {
		await browser.close();
	}
}

const median = (xs: number[]) => {
	const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
	return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '–');

// The clip: the passport only (the node ends on the first good read); one of its frames for the peers.
const clip = documentClip('passport-only', [{ still: 'documents/td3-passport-2.jpg', seconds: 6 }]);
const frameFile = path.join(ROOT, 'bench/.out/passport-frame.png');
mkdirSync(path.dirname(frameFile), { recursive: true });
execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', clip, '-vf', 'select=eq(n\\,15)', '-frames:v', '1', frameFile]);
// As the page sends it: JPEG, quality 0.92.
const frameJpeg = await sharp(readFileSync(frameFile)).jpeg({ quality: 92 }).toBuffer();
rmSync(frameFile, { force: true });

/** The camera frame posted straight to the evidence endpoint, as the page would (no browser). */
async function directUpload(server: RunningServer): Promise<{ roundTrip: number; server: Record<string, number> }> {
	const created = await api(server, 'POST', '/sessions', { clientReferenceId: 'bench-doc-direct', flow: FLOW });
	const client = async (p: string, body: unknown, token?: string) => {
		const res = await fetch(`${server.url}/api/client${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
		if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
		return res.json();
	};
	const opened = await client('/open', { clientSecret: created.clientSecret.secret, languages: ['en'] });
	const token = opened.pageToken as string;
	const granted = await client('/nodes/perm', { step: opened.state.session.step, action: 'granted', payload: { camera: true } }, token);
	const t0 = performance.now();
	await client('/nodes/doc/evidence', { step: granted.state.session.step, images: [{ side: 'front', image: frameJpeg.toString('base64') }], claim: {} }, token);
	const roundTrip = performance.now() - t0;
	const report = (await api(server, 'GET', `/sessions/${created.session.id}`)).session.report.nodeReports.find((r: { nodeId: string }) => r.nodeId === 'doc');
	if (report.outcome !== 'scanSuccess') throw new Error(`direct upload: ${report.outcome}`);
	return { roundTrip, server: { ...report.details.timings, serverMs: report.details.serverMs } };
}

const reader = await DocumentReader.load();
/**
 * `text`: the MRZ read as greedy text and repaired (the reader before constrained decoding), same
 * frame; `crossCheckViz: false`: without reading the visual zone (the reader before the cross-check).
 */
async function readAlone(mrzDecode: 'constrained' | 'text' = 'constrained', crossCheckViz = true): Promise<Record<string, number>> {
	const r = await reader.read(frameJpeg, { mode: 'SINGLE_SIDE', allowedDocumentTypes: ['MRTD_TYPE_PASSPORT'], mrzDecode, crossCheckViz });
	if (r.status !== 'read') throw new Error('reader alone: not read');
	return { ...r.timings };
}

const server = await startServer({ SEED_API_KEYS: KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'warn' });
const samples: { label: string; runs: Sample[] }[] = [
	{ label: 'headless Chromium', runs: [] },
	{ label: 'CPU throttled 4×', runs: [] }
];
const direct: { roundTrip: number; server: Record<string, number> }[] = [];
const alone: Record<string, number>[] = [];
const aloneText: Record<string, number>[] = [];
const aloneNoViz: Record<string, number>[] = [];
try {
	// Warm-up: the server and this process load the OCR and portrait models on their first read.
	await runSession(server, clip, 1);
	await directUpload(server);
	await readAlone();
	await readAlone('text', false);
	await readAlone('constrained', false);
	for (let i = 0; i < Math.max(RUNS, THROTTLED_RUNS); i++) {
		if (i < RUNS) samples[0].runs.push(await runSession(server, clip, 1));
		direct.push(await directUpload(server));
		// One untimed read first, so that "warm" holds: after the page sessions (Chromium and the server
		// busy for seconds) the first in-process read ran 1.2–1.4 s, its detection 470–540 ms against
		// 150 ms, whichever peer came first, though the machine was idle again within 300 ms
		// (2026-12-07, checked with /proc/stat); an idle pause alone costs nothing (3 s: 643 ms). The
		// process's memory, not its neighbours, is what went cold.
		await readAlone('constrained', false);
		alone.push(await readAlone());
		aloneText.push(await readAlone('text', false));
		aloneNoViz.push(await readAlone('constrained', false));
		if (i < THROTTLED_RUNS) samples[1].runs.push(await runSession(server, clip, 4));
	}
} finally {
	await server.stop();
}

const lines: string[] = [];
lines.push(`Document scan, ${new Date().toISOString().slice(0, 10)}, ${process.arch}, Node ${process.version}; medians of ${RUNS} sessions (${THROTTLED_RUNS} throttled) after one warm-up; peers: medians of ${Math.max(RUNS, THROTTLED_RUNS)} each, interleaved.`, '');
lines.push('| stage | ' + samples.map((s) => s.label).join(' | ') + ' |', '|---|' + samples.map(() => '---:').join('|') + '|');
const row = (name: string, pick: (s: Sample) => number) => lines.push(`| ${name} | ${samples.map((s) => ms(median(s.runs.map(pick)))).join(' | ')} |`);
row('page: one frame check (edges + blur + glare, 640 px)', (s) => s.check);
row('page: document found → capture (2 good checks, 300 ms apart)', (s) => s.foundToCapture);
row('page: capture 1280×720 + JPEG encode', (s) => s.capture);
row('upload + server read + next screen', (s) => s.uploadAndRead);
row('**document found → result on screen**', (s) => s.total);
for (const k of ['decode', 'locate', 'det', 'rec', 'parse', 'viz', 'portrait', 'total', 'serverMs']) row(`server: ${k === 'serverMs' ? 'check + read (evidence service)' : k}`, (s) => s.server[k] ?? NaN);
lines.push('', `Outcomes: ${samples.flatMap((s) => s.runs.map((r) => r.outcome)).join(', ')}.`, '');
lines.push('| peer, same frame (1280×720 JPEG), interleaved | round trip | server total | decode | locate | det | rec | parse | viz | portrait |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const STAGES = ['decode', 'locate', 'det', 'rec', 'parse', 'viz', 'portrait'];
lines.push(`| upload to the evidence endpoint, no page | ${ms(median(direct.map((d) => d.roundTrip)))} | ${ms(median(direct.map((d) => d.server.total)))} | ${STAGES.map((k) => ms(median(direct.map((d) => d.server[k])))).join(' | ')} |`);
lines.push(`| reader alone, in-process, warm | – | ${ms(median(alone.map((a) => a.total)))} | ${STAGES.map((k) => ms(median(alone.map((a) => a[k])))).join(' | ')} |`);
lines.push(`| reader alone, without the visual-zone cross-check (the reader before it) | – | ${ms(median(aloneNoViz.map((a) => a.total)))} | ${STAGES.map((k) => ms(median(aloneNoViz.map((a) => a[k])))).join(' | ')} |`);
lines.push(`| reader alone, MRZ as greedy text, no cross-check (the reader before constrained decoding) | – | ${ms(median(aloneText.map((a) => a.total)))} | ${STAGES.map((k) => ms(median(aloneText.map((a) => a[k])))).join(' | ')} |`);
lines.push('', `Load average at the end: ${(await import('node:os')).loadavg().map((v) => v.toFixed(1)).join(' / ')} on ${(await import('node:os')).cpus().length} cores (the machine is shared; compare columns of one run only).`);
const table = lines.join('\n') + '\n';
console.log(`\n${table}`);
writeFileSync(path.join(RESULTS, 'documents.md'), table);

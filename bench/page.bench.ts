/**
 * The hosted page's first load and the page API: bytes of JavaScript and CSS a browser fetches
 * before the permissions page is interactive (hydrated), the time until then on localhost, and how
 * long the server takes to advance a node. The first two are compared with a minimal SvelteKit
 * page (/bench/minimal) measured the same way in the same run. Writes bench/results/page.md.
 * Run with `npm run bench` (or `npx tsx bench/page.bench.ts` after `npm run build`).
 *
 * BENCH_PAGE_BEFORE=<folder>: another production build (e.g. the last commit's, copied aside) is
 * served beside this one and loaded in turn with it, so a change is compared under the same load.
 * BENCH_PAGE_NETWORK=<round trip ms>/<kbit/s>: Chromium emulates that network for every load (slow
 * 4G: 150/1600). BENCH_PAGE_CONTINUE_AFTER_MS: how long the user reads before Continue (default 0,
 * before the node screens' background prefetch). BENCH_PAGE_CPU=<n>: Chromium runs the page n times
 * slower (4: a mid-range phone), so the JavaScript parsed and run before hydration shows in the
 * times. BENCH_PAGE_FLOW=face: the link opens a flow with a
 * face step (permissions → face_scan → end), whose page also preloads the face detector's files;
 * Continue is not timed then (there is no first line to wait for). BENCH_PAGE_WATERFALL=1: each
 * load's requests around Continue (start…end in ms from the click) on stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../tests/helpers/server.ts';

const KEY = 'sk_test_BenchPageBenchPageBench0001';
const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 7);
const ADVANCES = Number(process.env.BENCH_PAGE_ADVANCES ?? 20);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BEFORE = process.env.BENCH_PAGE_BEFORE;
const NETWORK = process.env.BENCH_PAGE_NETWORK?.match(/^(\d+)\/(\d+)$/);
if (process.env.BENCH_PAGE_NETWORK && !NETWORK) throw new Error('BENCH_PAGE_NETWORK is <round trip ms>/<kbit/s>, e.g. 150/1600');
const CPU = Number(process.env.BENCH_PAGE_CPU ?? 1);
if (!(CPU >= 1 && CPU <= 20)) throw new Error('BENCH_PAGE_CPU is a slow-down factor from 1 to 20, e.g. 4');
const CONTINUE_AFTER_MS = Number(process.env.BENCH_PAGE_CONTINUE_AFTER_MS ?? 0);

const FACE_FLOW = [
	{ id: 'start', type: 'start', outcome: 'perm' },
	{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'selfie', permissionsDenied: 'end' } },
	{ id: 'selfie', type: 'face_scan', mode: 'capture', outcomes: { passed: 'end', notPassed: 'end', cancelled: 'end', error: 'end' } },
	{ id: 'end', type: 'end' }
];
const TALK_FLOW = [
	{ id: 'start', type: 'start', outcome: 'hello' },
	{ id: 'hello', type: 'conversation', prompt: 'Greet the user and ask whether they are ready to begin', outcomes: [{ id: 'ready', condition: 'The user is ready', targetNodeId: 'email' }] },
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'code', canceled: 'end' } },
	{ id: 'code', type: 'two_factor_email', outcomes: { verified: 'end', delivery_failed: 'end', failed_unverified: 'end', cancelled: 'end', error: 'end' } },
	{ id: 'end', type: 'end' }
];
const FACE = process.env.BENCH_PAGE_FLOW === 'face';
const FLOW = FACE ? FACE_FLOW : TALK_FLOW;

interface LoadSample {
	/** ms from navigation start until hydrated. */
	interactiveMs: number;
	/** Bytes on the wire as Chromium negotiated them (brotli or gzip), by kind. */
	wire: { js: number; css: number; html: number };
	/** The same JS and CSS files gzipped (level 6), the usual yardstick. */
	gzip: { js: number; css: number };
	files: number;
	/** ms from the Continue click (at once after hydration) to the first conversation line on screen; verify only. */
	firstLineMs?: number;
}

async function api(server: RunningServer, method: string, p: string, body?: unknown, token = KEY) {
	const res = await fetch(`${server.url}/api${p}`, {
		method,
		headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined
	});
	if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
	return res.json();
}

const newSession = async (server: RunningServer, flow = FLOW) => {
	const created = await api(server, 'POST', '/sessions', { clientReferenceId: 'bench', flow });
	return { id: created.session.id as string, secret: created.clientSecret.secret as string, path: new URL(created.clientSecret.url).pathname + new URL(created.clientSecret.url).search };
};

/** One cold load (new context, no cache) of `url`, until `data-vf-ready` is set. */
async function measureLoad(browser: Browser, url: string, continueToFirstLine = false): Promise<LoadSample> {
	const context = await browser.newContext();
	const page = await context.newPage();
	if (process.env.BENCH_PAGE_WATERFALL) page.on('console', (m) => m.text().startsWith('waterfall') && console.error(`${new URL(url).port} ${m.text()}`));
	const cdp = await context.newCDPSession(page);
	await cdp.send('Network.enable');
	await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
	if (CPU > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
	if (NETWORK) {
		const bytesPerSecond = (Number(NETWORK[2]) * 1000) / 8;
		await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: Number(NETWORK[1]), downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond / 2 });
	}
	const kinds = new Map<string, { type: string; url: string }>();
	const sizes = new Map<string, number>();
	const sentAt = new Map<string, number>();
	cdp.on('Network.requestWillBeSent', (e) => sentAt.set(e.requestId, e.wallTime * 1000));
	cdp.on('Network.responseReceived', (e) => kinds.set(e.requestId, { type: e.type, url: e.response.url }));
	cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
	await page.goto(url);
	await page.waitForFunction(() => document.documentElement.dataset.vfReady);
	const interactiveMs = Number(await page.evaluate(() => document.documentElement.dataset.vfReady));
	// What was asked for before the page was interactive counts: it was interactive with these bytes.
	// Not what the browser fetched after (the runner's code, prefetched when the browser is first
	// idle), which a fast machine may have finished by the time this reads the list.
	const interactiveAt = Number(await page.evaluate(() => performance.timeOrigin)) + interactiveMs;
	const wire = { js: 0, css: 0, html: 0 };
	const bodies: { type: 'js' | 'css'; url: string }[] = [];
	for (const [id, { type, url: u }] of kinds) {
		if ((sentAt.get(id) ?? Infinity) > interactiveAt) continue;
		const size = sizes.get(id) ?? 0;
		if (type === 'Script') (wire.js += size), bodies.push({ type: 'js', url: u });
		else if (type === 'Stylesheet') (wire.css += size), bodies.push({ type: 'css', url: u });
		else if (type === 'Document') wire.html += size;
	}
	const gzip = { js: 0, css: 0 };
	const perFile: string[] = [];
	for (const { type, url: u } of bodies) {
		const raw = Buffer.from(await (await fetch(u, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
		const size = gzipSync(raw, { level: 6 }).length;
		gzip[type] += size;
		perFile.push(`${(size / 1000).toFixed(1).padStart(6)} KB gzip ${(raw.length / 1000).toFixed(1).padStart(6)} KB  ${new URL(u).pathname}`);
	}
	// BENCH_PAGE_FILES=1: each file of the first load, to see what a change moved.
	if (process.env.BENCH_PAGE_FILES) console.error(`${url}\n${perFile.sort().reverse().join('\n')}`);
	// Continue at once (the node screens' background prefetch has not run yet): the open call, the
	// first node's screen and its first line, as a user who does not read the permissions page sees them.
	let firstLineMs: number | undefined;
	if (continueToFirstLine && !FACE) {
		if (CONTINUE_AFTER_MS) await page.waitForTimeout(CONTINUE_AFTER_MS);
		// A string, not a function: tsx's name helper (__name) does not exist in the page.
		firstLineMs = await page.evaluate<number>(`new Promise((resolve, reject) => {
			const button = document.querySelector('[data-testid="permissions-continue"]');
			if (!button) return reject(new Error('no Continue button'));
			const t0 = performance.now();
			button.click();
			const poll = () => {
				const captions = document.querySelector('[data-testid="captions"]');
				if (captions && captions.textContent.trim()) {
					const ms = performance.now() - t0;
					// BENCH_PAGE_WATERFALL=1: what was fetched around Continue, relative to the click.
					if (${Boolean(process.env.BENCH_PAGE_WATERFALL)}) {
						const rows = performance.getEntriesByType('resource').filter((e) => e.responseEnd >= t0 - 50).map((e) => Math.round(e.startTime - t0) + '…' + Math.round(e.responseEnd - t0) + ' ' + new URL(e.name).pathname.split('/').pop());
						console.log('waterfall ' + Math.round(ms) + ' ms: ' + rows.join(' | '));
					}
					resolve(ms);
				}
				else if (performance.now() - t0 > 20000) reject(new Error('no first line within 20 s'));
				else requestAnimationFrame(poll);
			};
			poll();
		})`);
	}
	await context.close();
	return { interactiveMs, wire, gzip, files: bodies.length, ...(firstLineMs !== undefined ? { firstLineMs } : {}) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function main() {
	const server = await startServer({ SEED_API_KEYS: KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
	const before = BEFORE ? await startServer({ SEED_API_KEYS: KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'error' }, { build: BEFORE }) : null;
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] });
	try {
		// Warm the server (first requests compile routes and fill caches) before timing.
		await measureLoad(browser, `${server.url}/bench/minimal`);
		await measureLoad(browser, `${server.url}${(await newSession(server)).path}`);
		if (before) await measureLoad(browser, `${before.url}${(await newSession(before)).path}`);

		const verify: LoadSample[] = [];
		const verifyBefore: LoadSample[] = [];
		const minimal: LoadSample[] = [];
		for (let i = 0; i < LOADS; i++) {
			verify.push(await measureLoad(browser, `${server.url}${(await newSession(server)).path}`, true));
			if (before) verifyBefore.push(await measureLoad(browser, `${before.url}${(await newSession(before)).path}`, true));
			minimal.push(await measureLoad(browser, `${server.url}/bench/minimal`));
		}

		// Node advances through the page API: a conversation reply (dialog engine) and an e-mail
		// (which also issues and sends the passcode of the next node).
		const reply: number[] = [];
		const email: number[] = [];
		for (let i = 0; i < ADVANCES; i++) {
			const s = await newSession(server, TALK_FLOW);
			const opened = await (await fetch(`${server.url}/api/client/open`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientSecret: s.secret, languages: ['en'] }) })).json();
			const token = opened.pageToken as string;
			let t = performance.now();
			const a = await api(server, 'POST', '/client/nodes/hello', { step: opened.state.session.step, requestId: `bench-${i}-a`, action: 'reply', payload: { text: 'yes, I am ready' } }, token);
			reply.push(performance.now() - t);
			if (a.state.node?.id !== 'email') throw new Error('the reply did not advance');
			t = performance.now();
			const b = await api(server, 'POST', '/client/nodes/email', { step: a.state.session.step, requestId: `bench-${i}-b`, action: 'submit', payload: { email: 'bench@example.com' } }, token);
			email.push(performance.now() - t);
			if (b.state.node?.id !== 'code') throw new Error('the e-mail did not advance');
		}

		const row = (name: string, xs: LoadSample[]) => {
			const pick = xs[Math.floor(xs.length / 2)]!;
			return `| ${name} | ${kb(pick.gzip.js)} | ${kb(pick.gzip.css)} | ${kb(pick.gzip.js + pick.gzip.css)} | ${kb(pick.wire.js + pick.wire.css)} | ${kb(pick.wire.html)} | ${pick.files} | ${ms(median(xs.map((x) => x.interactiveMs)))} | ${ms(pct(xs.map((x) => x.interactiveMs), 0.9))} |`;
		};
		const v = verify[0]!;
		const m = minimal[0]!;
		const firstLine = (xs: LoadSample[]) => `median ${ms(median(xs.map((x) => x.firstLineMs!)))}, p90 ${ms(pct(xs.map((x) => x.firstLineMs!), 0.9))}`;
		const lines = [
			`# Hosted page: first load and node advances`,
			'',
			`${new Date().toISOString().slice(0, 10)}, production build on localhost, headless Chromium (${browser.version()}), ${LOADS} cold loads each (new context, cache off), ${ADVANCES} node advances of each kind${NETWORK ? `, network emulated at ${NETWORK[1]} ms round trip and ${NETWORK[2]} kbit/s` : ''}${CPU > 1 ? `, CPU throttled ${CPU}×` : ''}${CONTINUE_AFTER_MS ? `, Continue ${CONTINUE_AFTER_MS} ms after interactive` : ''}. Machine: ${process.arch}, ${(await import('node:os')).cpus().length} CPU cores shared with other work.`,
			'',
			'## Before the permissions page is interactive',
			'',
			'| page | JS (gzip) | CSS (gzip) | JS + CSS (gzip) | JS + CSS (as served) | HTML (as served) | JS/CSS files | time to interactive (median) | p90 |',
			'|---|---|---|---|---|---|---|---|---|',
			row('/verify (permissions page)', verify),
			...(before ? [row(`/verify, the build in ${BEFORE} (loaded in turn with the above)`, verifyBefore)] : []),
			row('/bench/minimal (bare SvelteKit page)', minimal),
			'',
			`The hosted page costs ${kb(v.gzip.js + v.gzip.css - m.gzip.js - m.gzip.css)} of gzipped JS + CSS above the framework's own floor. "As served" is what Chromium received (the server precompresses with brotli); "gzip" is the same files at gzip -6. The HTML carries the page's UI text for its language (for the server-rendered first paint and hydration). Interactive = hydrated (the page's onMount ran), measured from navigation start.`,
			'',
			...(FACE
				? [`The link opened a flow with a face step (\`BENCH_PAGE_FLOW=face\`): the page also preloads the face detector's files at low priority; a preloaded script (MediaPipe's loader) counts as JS above when it arrived before hydration.`, '']
				: [`Permissions page Continue → the first conversation line on screen (open call, first node's screen fetched, its first line): ${firstLine(verify)}${before ? `; the build in ${BEFORE}: ${firstLine(verifyBefore)}` : ''}.`, '']),
			'## Page API: advancing a node (server time seen by the client, localhost)',
			'',
			'| action | median | p95 |',
			'|---|---|---|',
			`| conversation reply → next node (embedded dialog engine) | ${ms(median(reply))} | ${ms(pct(reply, 0.95))} |`,
			`| e-mail submitted → two-factor node (passcode issued and sent to the sandbox outbox) | ${ms(median(email))} | ${ms(pct(email, 0.95))} |`,
			''
		];
		const out = lines.join('\n');
		console.log(out);
		const dir = path.resolve(import.meta.dirname, 'results');
		mkdirSync(dir, { recursive: true });
		writeFileSync(path.join(dir, FACE ? 'page-face-flow.md' : 'page.md'), out);
	} finally {
		await browser.close();
		await server.stop();
		await before?.stop();
	}
}

await main();

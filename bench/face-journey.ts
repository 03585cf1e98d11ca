// The face steps end to end, as a cooperative user lives them: the production build (`node build`),
// a session whose flow is permissions → face_scan (capture) → liveness_detection (turnLeft) → end,
// and a fake camera that does what the page asks (frontal; the head turned left as soon as the page
// shows the challenge; frontal again after). The page records, with a MutationObserver on the face
// node, when each node opened, when its picture first showed, when its first guidance from the
// detector showed, when the ring was full and when the next screen came; the driver reads it.
// Used by faces.bench.ts (`npm run bench -- faces`); `npx tsx bench/face-journey.ts` runs it alone.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import { startServer, type RunningServer } from '../tests/helpers/server.ts';
import { sceneCamera } from '../tests/e2e/support/scene-camera.ts';
import { FAKE_MEDIA_ARGS } from '../playwright.config.ts';

const KEY = 'sk_test_BenchFaceJourneyBench00001';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

// BENCH_FACE_FIRST=liveness: the flow opens with the liveness node (permissions → liveness → end).
const LIVENESS_FIRST = process.env.BENCH_FACE_FIRST === 'liveness';
const FLOW = [
	{ id: 'start', type: 'start', outcome: 'perm' },
	{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: LIVENESS_FIRST ? 'live' : 'selfie', permissionsDenied: 'end' } },
	{ id: 'selfie', type: 'face_scan', mode: 'capture', minFaceSize: 60, outcomes: { passed: 'live', notPassed: 'live', cancelled: 'live', error: 'live' } },
	{ id: 'live', type: 'liveness_detection', minFaceSize: 60, testMode: { challenge: 'turnLeft' }, outcomes: { livenessDetected: 'end', deepfakeDetected: 'end', noFace: 'end' } },
	{ id: 'end', type: 'end' }
].filter((n) => !(LIVENESS_FIRST && n.id === 'selfie'));

// A cooperative head: barack_obama_1 faces the camera. barack_obama_2 is the same man a little to his
// right (−16° yaw, still "frontal" to the challenge), and mirrored the same head turned to his left
// (+18°, the image's right): shown in turn, a turn to the left of about 34°, what turnLeft asks for
// (from the frontal still alone, +16° is short of the 18° the challenge needs).
const SCENES = {
	frontal: 'faces/barack_obama_1.jpg',
	left: [
		{ still: 'faces/barack_obama_2.jpg', seconds: 0.4 },
		{ still: 'faces/barack_obama_2.jpg', seconds: 1.2, flip: true }
	]
};

/** One face node's timeline, ms after the node opened (null: never happened). */
export interface NodeTimeline {
	node: string;
	/** The camera's picture first showed in the node (a frame painted in its <video>). */
	pictureMs: number | null;
	/** The first guidance from the detector (any message other than "Getting the camera ready…" and the instruction before it). */
	firstGuidanceMs: number | null;
	/** The first words other than "Getting the camera ready…": the instruction the page shows with the picture while the detector is not yet ready, or the detector's guidance. */
	firstWordsMs: number | null;
	/** The ring was full: the hold ended (the challenge or "Checking…" began). */
	ringFullMs: number | null;
	/** The next screen replaced the node. */
	totalMs: number;
	/** Messages in order, with when they showed. */
	messages: [number, string][];
	/** Tries the server asked for (a retry notice), 0 for a first-try pass. */
	retries: number;
	outcome: string | null;
	/** The server's own analysis of the last try's frames (`details.serverMs`): part of "Checking…". */
	serverMs: number | null;
}

export interface JourneyResult {
	nodes: NodeTimeline[];
	cpuThrottle: number;
}

async function api(server: RunningServer, method: string, p: string, body?: unknown) {
	const res = await fetch(`${server.url}/api${p}`, {
		method,
		headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined
	});
	if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
	return res.json();
}

/** Watches the face node in the page: every change of node, phase and message, with its time. */
function recorder() {
	type Event = { t: number; node: string | null; phase: string | null; message: string | null; picture?: boolean };
	const events: Event[] = [];
	(window as unknown as { __vfFaceEvents: Event[] }).__vfFaceEvents = events;
	let last = '';
	let watched: HTMLVideoElement | null = null;
	const look = () => {
		const el = document.querySelector('[data-testid="face-node"]');
		const node = el?.getAttribute('data-node') ?? null;
		const phase = el?.getAttribute('data-phase') ?? null;
		const message = el?.getAttribute('data-message') ?? null;
		const key = `${node}|${phase}|${message}`;
		if (key !== last) {
			last = key;
			events.push({ t: performance.now(), node, phase, message });
		}
		const video = el?.querySelector('video') ?? null;
		if (video && video !== watched) {
			watched = video;
			// The first frame painted in this node's preview: the moment the user sees themselves.
			const painted = () => events.push({ t: performance.now(), node, phase: null, message: null, picture: true });
			if ('requestVideoFrameCallback' in video) video.requestVideoFrameCallback(painted);
			else (video as HTMLVideoElement).addEventListener('playing', painted, { once: true });
		}
	};
	new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-node', 'data-phase', 'data-message'] });
}

type Recorded = { t: number; node: string | null; phase: string | null; message: string | null; picture?: boolean };

function timelines(events: Recorded[], reports: Record<string, { outcome: string; details?: { previousTries?: unknown[]; serverMs?: number } }>): NodeTimeline[] {
	const out: NodeTimeline[] = [];
	const nodes = [...new Set(events.flatMap((e) => (e.node ? [e.node] : [])))];
	for (const node of nodes) {
		const start = events.findIndex((e) => e.node === node && !e.picture);
		const opened = events[start].t;
		const end = events.slice(start).find((e) => !e.picture && e.node !== node);
		const mine = events.slice(start).filter((e) => e.node === node && (!end || e.t < end.t));
		const rel = (e: Recorded | undefined) => (e ? Math.round(e.t - opened) : null);
		const messages: [number, string][] = [];
		for (const e of mine) if (e.message && messages.at(-1)?.[1] !== e.message) messages.push([Math.round(e.t - opened), e.message]);
		const report = Object.entries(reports).find(([id]) => id === (node === 'face_scan' ? 'selfie' : 'live'))?.[1];
		out.push({
			node,
			pictureMs: rel(mine.find((e) => e.picture)),
			firstGuidanceMs: rel(mine.find((e) => !e.picture && e.message && e.message !== 'guidance.loading' && e.message !== 'guidance.frame')),
			firstWordsMs: rel(mine.find((e) => !e.picture && e.message && e.message !== 'guidance.loading')),
			ringFullMs: rel(mine.find((e) => e.phase === 'challenge' || e.phase === 'analysing' || e.phase === 'uploading')),
			totalMs: end ? Math.round(end.t - opened) : NaN,
			messages,
			retries: report?.details?.previousTries?.length ?? 0,
			outcome: report?.outcome ?? null,
			serverMs: report?.details?.serverMs ?? null
		});
	}
	return out;
}

/** `BENCH_FACE_NETWORK=150/5000`: Chromium emulates a 150 ms round trip and 5 Mbit/s both ways. */
function networkFromEnv(): { rttMs: number; kbps: number } | null {
	const m = /^(\d+)\/(\d+)$/.exec(process.env.BENCH_FACE_NETWORK ?? '');
	return m ? { rttMs: Number(m[1]), kbps: Number(m[2]) } : null;
}

/** One session through both face nodes; `cpuThrottle` slows the page's CPU (DevTools protocol). */
export async function runFaceJourney(browser: Browser, server: RunningServer, cpuThrottle = 1, network = networkFromEnv()): Promise<JourneyResult> {
	const created = await api(server, 'POST', '/sessions', { clientReferenceId: 'bench-faces', flow: FLOW });
	const url = new URL(created.clientSecret.url);
	const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 }, permissions: ['camera'] });
	try {
		const page = await context.newPage();
		// tsx (esbuild, keepNames) wraps inner functions in __name(): the init scripts below are such
		// functions' source, so the page needs a __name of its own.
		await page.addInitScript('globalThis.__name = (f) => f;');
		const camera = await sceneCamera(page, SCENES);
		await page.addInitScript(recorder);
		const cdp = await context.newCDPSession(page);
		if (network) {
			await cdp.send('Network.enable');
			await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: network.rttMs, downloadThroughput: (network.kbps * 1000) / 8, uploadThroughput: (network.kbps * 1000) / 8 });
		}
		await page.goto(`${server.url}${url.pathname}${url.search}`);
		await page.getByTestId('permissions-continue').click();
		if (cpuThrottle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottle });
		// The cooperative user: turns left the moment the page asks, looks back when it stops asking.
		const face = page.getByTestId('face-node');
		const ended = page.locator('[data-screen="end"]');
		let turned = false;
		const deadline = Date.now() + Number(process.env.BENCH_FACE_DEADLINE_MS ?? 120_000);
		while (!(await ended.isVisible())) {
			if (Date.now() > deadline) {
				await page.screenshot({ path: 'bench/.out/face-journey-stuck.png' });
				const seen = await page.evaluate(() => JSON.stringify((window as unknown as { __vfFaceEvents: unknown }).__vfFaceEvents));
				throw new Error(`face journey did not reach the end screen in 120 s; at ${page.url()}; face node events: ${seen}`);
			}
			const phase = await face.getAttribute('data-phase', { timeout: 1000 }).catch(() => null);
			const challenge = phase === 'challenge';
			if (challenge !== turned) {
				await camera.show(challenge ? 'left' : 'frontal');
				turned = challenge;
			}
			await page.waitForTimeout(30);
		}
		if (cpuThrottle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
		const events = (await page.evaluate(() => (window as unknown as { __vfFaceEvents: Recorded[] }).__vfFaceEvents)) as Recorded[];
		const session = await api(server, 'GET', `/sessions/${created.session.id}`);
		const reports = Object.fromEntries((session.session?.report?.nodeReports ?? []).map((r: { nodeId: string }) => [r.nodeId, r]));
		return { nodes: timelines(events, reports), cpuThrottle };
	} finally {
		await context.close();
	}
}

export async function startJourneyServer(build?: string): Promise<RunningServer> {
	// Models warmed at start, as a deployment runs (the test helper turns warming off).
	return startServer({ SEED_API_KEYS: KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'error', WARM_MODELS: 'true' }, build ? { build } : {});
}

export async function launchJourneyBrowser(): Promise<Browser> {
	return chromium.launch({ executablePath: CHROMIUM, args: FAKE_MEDIA_ARGS });
}

const median = (xs: number[]) => {
	const s = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
	return s.length ? s[(s.length - 1) >> 1] : NaN;
};

/** Medians per node over `runs` sessions (each in a new browser context: a first visit, nothing cached). */
export function summarise(runs: JourneyResult[]): Record<string, { pictureMs: number; firstGuidanceMs: number; afterPictureMs: number; wordsAfterPictureMs: number; ringFullMs: number; totalMs: number; serverMs: number; retries: number; outcomes: string }> {
	const out: ReturnType<typeof summarise> = {};
	for (const node of ['face_scan', 'liveness_detection']) {
		const of = runs.flatMap((r) => r.nodes.filter((n) => n.node === node));
		out[node] = {
			pictureMs: median(of.map((n) => n.pictureMs ?? NaN)),
			firstGuidanceMs: median(of.map((n) => n.firstGuidanceMs ?? NaN)),
			afterPictureMs: median(of.map((n) => (n.firstGuidanceMs ?? NaN) - (n.pictureMs ?? NaN))),
			wordsAfterPictureMs: median(of.map((n) => (n.firstWordsMs ?? NaN) - (n.pictureMs ?? NaN))),
			ringFullMs: median(of.map((n) => n.ringFullMs ?? NaN)),
			totalMs: median(of.map((n) => n.totalMs)),
			serverMs: median(of.map((n) => n.serverMs ?? NaN)),
			retries: of.reduce((a, n) => a + n.retries, 0),
			outcomes: of.map((n) => n.outcome).join(',')
		};
	}
	return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	// BENCH_BUILD_BEFORE (a build folder relative to the repo root): that build is served beside this
	// one and the two are run in turn, session by session, so both see the same machine load.
	const runs = Number(process.env.BENCH_FACE_JOURNEYS ?? 3);
	const throttles = (process.env.BENCH_FACE_CPU ?? '1,4').split(',').map(Number);
	const builds = [{ name: 'current', server: await startJourneyServer() }];
	if (process.env.BENCH_BUILD_BEFORE) builds.push({ name: 'before', server: await startJourneyServer(process.env.BENCH_BUILD_BEFORE) });
	const browser = await launchJourneyBrowser();
	try {
		for (const throttle of throttles) {
			const results = new Map<string, JourneyResult[]>(builds.map((b) => [b.name, []]));
			for (let i = 0; i < runs; i++) {
				for (const build of i % 2 ? [...builds].reverse() : builds) {
					const r = await runFaceJourney(browser, build.server, throttle);
					console.log(`${build.name} cpu ${throttle}× run ${i + 1}`, JSON.stringify(r.nodes));
					results.get(build.name)!.push(r);
				}
			}
			for (const [name, of] of results) console.log(`${name} cpu ${throttle}× medians`, JSON.stringify(summarise(of)));
		}
	} finally {
		await browser.close();
		for (const build of builds) await build.server.stop();
	}
}

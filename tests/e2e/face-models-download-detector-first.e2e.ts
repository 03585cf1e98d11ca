import { expect, test, type BrowserContext, type Request } from '@playwright/test';
import { DETECTOR_PRELOADS } from '../../src/lib/camera/model-files.ts';
import { faceFlow, QUICK } from './support/face-journey.ts';
import { contextFor } from './support/face-clips.ts';
import { baseUrl, createSession, FLOWS } from './support/journey.ts';

// On a first visit the face steps need 8 MB of files; the first guidance needs only the detector's
// 2.4 MB of them. The page's HTML asks for those at once (before it hydrates and imports its way to
// the detector), and the face worker's models wait until the detector is built, so on a phone they
// share neither its link nor its cores with it (at 10 Mbit/s the first guidance came 6.5 s after the
// picture, now 1.7 s). Each file is fetched once: a preload that does not match the detector's own
// request (`as`, `crossorigin`) would be downloaded twice.

const isDetectorFile = (url: string) => DETECTOR_PRELOADS.some((f) => new URL(url).pathname === f.href);
const isWorkerFile = (url: string) => /\/models\/(faceplugin|ort)\//.test(new URL(url).pathname);

test('a face flow’s page preloads the detector’s files, fetches each once, and the worker’s models after them', async ({ browser }) => {
	test.setTimeout(90_000);
	const created = await createSession({ flow: faceFlow([{ id: 'selfie', type: 'face_scan', mode: 'capture', ...QUICK }]) });
	const context = await contextFor(browser, baseUrl());
	try {
		const page = await context.newPage();
		// The detector's WebAssembly is held back 3 s, as a slow link would: long enough that the
		// worker, started beside it, would be seen fetching before it arrived.
		await page.route('**/models/mediapipe/vision_wasm_internal.wasm', async (route) => {
			await new Promise((r) => setTimeout(r, 3_000));
			await route.continue();
		});
		const requests: Request[] = [];
		const startedAt = new Map<Request, number>();
		const finished = new Map<Request, number>();
		context.on('request', (r) => {
			requests.push(r);
			startedAt.set(r, Date.now());
		});
		context.on('requestfinished', (r) => finished.set(r, Date.now()));
		await page.goto(created.path);
		const links = await page.locator('head link[rel="preload"]').evaluateAll((ls) => ls.map((l) => ({ href: l.getAttribute('href'), as: l.getAttribute('as'), crossorigin: l.getAttribute('crossorigin') })));
		expect(links).toEqual(DETECTOR_PRELOADS.map((f) => ({ href: f.href, as: f.as, crossorigin: 'anonymous' })));
		// The user reads the permissions page: the detector is built and the worker's models come in.
		await expect.poll(() => requests.filter((r) => isWorkerFile(r.url()) && finished.has(r)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
		const detectorRequests = requests.filter((r) => isDetectorFile(r.url()));
		expect(detectorRequests.map((r) => new URL(r.url()).pathname).sort()).toEqual(DETECTOR_PRELOADS.map((f) => f.href).sort());
		for (const r of detectorRequests) expect(finished.has(r), r.url()).toBe(true);
		const detectorIn = Math.max(...detectorRequests.map((r) => finished.get(r)!));
		const workerStarts = requests.filter((r) => isWorkerFile(r.url())).map((r) => startedAt.get(r)!);
		expect(Math.min(...workerStarts)).toBeGreaterThanOrEqual(detectorIn);
	} finally {
		await context.close();
	}
});

/** Opens `path` in `context` and asserts the page neither links nor fetches any detector file. */
async function expectNoDetectorDownload(context: BrowserContext, path: string): Promise<void> {
	try {
		const page = await context.newPage();
		const requests: string[] = [];
		context.on('request', (r) => requests.push(r.url()));
		await page.goto(path);
		await expect(page.locator('[data-current-screen]')).toBeVisible();
		await expect(page.locator('head link[rel="preload"]')).toHaveCount(0);
		await page.waitForTimeout(1_000);
		expect(requests.filter(isDetectorFile)).toEqual([]);
	} finally {
		await context.close();
	}
}

test('a flow without face steps preloads none of the detector’s files', async ({ browser }) => {
	const created = await createSession({ flow: FLOWS.cameraWithPermissions });
	await expectNoDetectorDownload(await contextFor(browser, baseUrl()), created.path);
});

test('an in-app browser, sent to open the link elsewhere, is not made to download the detector', async ({ browser }) => {
	const created = await createSession({ flow: faceFlow([{ id: 'selfie', type: 'face_scan', mode: 'capture', ...QUICK }]) });
	const context = await browser.newContext({
		baseURL: baseUrl(),
		userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.1.1.28.108 (iPhone13,2; iOS 17_1; en_US; en; scale=3.00; 1170x2532; 541635890)'
	});
	await expectNoDetectorDownload(context, created.path);
});

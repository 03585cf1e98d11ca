// Steps shared by the face journeys: open a session's page with a given camera, grant the camera on
// the permissions page, wait for the flow to end, read what the server decided.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { baseUrl, createSession, getSession } from './journey.ts';
import { browserWithCamera, contextFor } from './face-clips.ts';
import { sceneCamera, type SceneCamera } from './scene-camera.ts';

export const PERMISSIONS = { id: 'perm', type: 'permissions' } as const;

/** START → permissions → nodes (each to the next on every outcome) → END. */
export function faceFlow(nodes: Record<string, unknown>[]): Record<string, unknown>[] {
	const KEYS: Record<string, string[]> = {
		liveness_detection: ['livenessDetected', 'deepfakeDetected', 'noFace'],
		face_scan: ['passed', 'notPassed', 'cancelled', 'error'],
		face_compare: ['match', 'noMatch', 'imageUnavailable'],
		recognition: ['recognized', 'newUser', 'noFace']
	};
	const chain = nodes.map((n, i) => ({ ...n, outcomes: Object.fromEntries(KEYS[n.type as string].map((k) => [k, (nodes[i + 1]?.id as string) ?? 'end'])) }));
	return [
		{ id: 'start', type: 'start', outcome: 'perm' },
		{ id: "perm", type: "permissions", outcomes: { permissionsGranted: nodes[0].id as string, permissionsDenied: "end" } },
		...chain,
		{ id: 'end', type: 'end' }
	];
}

export const fixtureBase64 = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../fixtures/faces', name)).toString('base64');

/** Quick capture settings for tests (the spec's 3 s hold would only slow the suite). */
export const QUICK = { captureDelay: 800, detectionInterval: 120, minFaceSize: 60 } as const;

export interface FaceRun {
	sessionId: string;
	session: any;
	outcomes: Record<string, string>;
	reports: Record<string, any>;
}

/**
 * Runs one session's flow in a fresh browser whose camera plays `clip`, until the session ends.
 * `beforeStart` may patch the page (a tampered page).
 */
export async function runFaceSession(clip: string, settings: Record<string, unknown>, options: { beforeStart?: (page: Page) => Promise<void>; timeoutMs?: number } = {}): Promise<FaceRun> {
	const created = await createSession(settings);
	const browser = await browserWithCamera(clip);
	try {
		const context = await contextFor(browser, baseUrl());
		const page = await context.newPage();
		await options.beforeStart?.(page);
		// VF_FACE_DEBUG=1: what the face node shows, the page's console and the server's answers.
		const debug = !!process.env.VF_FACE_DEBUG;
		let poll: ReturnType<typeof setInterval> | null = null;
		if (debug) {
			page.on('console', (m) => console.log(`[console.${m.type()}] ${m.text().slice(0, 300)}`));
			page.on('pageerror', (e) => console.log(`[pageerror] ${e.message}`));
			page.on('response', async (r) => {
				if (r.url().includes('/evidence')) console.log(`[evidence ${r.status()}] ${(await r.text().catch(() => '')).slice(0, 400)}`);
			});
			let last = "";
			const t0 = Date.now();
			poll = setInterval(async () => {
				const now = await page
					.locator('[data-testid="face-node"]')
					.evaluate((el) => `${el.getAttribute('data-node')} ${el.getAttribute('data-phase')} ${el.getAttribute('data-message')}`)
					.catch(() => 'no face node');
				if (now !== last) console.log(`[face +${((Date.now() - t0) / 1000).toFixed(1)}s] ${(last = now)}`);
			}, 200);
		}
		try {
			await page.goto(created.path);
			await page.getByTestId('permissions-continue').click();
			await expect(page.locator('[data-screen="end"]')).toBeVisible({ timeout: options.timeoutMs ?? 60_000 });
		} finally {
			if (poll) clearInterval(poll);
		}
	} finally {
		await browser.close();
	}
	return readRun(created.id);
}

/**
 * Like runFaceSession, in the worker's browser with a scene camera (scene-camera.ts): `drive`
 * switches the picture when the page reaches a state (the user turns their head when asked), so the
 * journey never races a clip's clock.
 */
export async function runSceneSession(
	browser: Browser,
	scenes: Parameters<typeof sceneCamera>[1],
	settings: Record<string, unknown>,
	drive: (page: Page, camera: SceneCamera) => Promise<void>,
	options: { timeoutMs?: number } = {}
): Promise<FaceRun> {
	const created = await createSession(settings);
	const context = await contextFor(browser, baseUrl());
	try {
		const page = await context.newPage();
		const camera = await sceneCamera(page, scenes);
		try {
			await page.goto(created.path);
			await page.getByTestId('permissions-continue').click();
			await drive(page, camera);
			await expect(page.locator('[data-screen="end"]')).toBeVisible({ timeout: options.timeoutMs ?? 60_000 });
		} catch (e) {
			// A failure on a busy CI machine is only worth something if it says where the page was.
			(e as Error).message += `\n\nwhere the page was: ${await whereIs(page, created.id)}`;
			throw e;
		}
	} finally {
		await context.close();
	}
	return readRun(created.id);
}

/** The page's URL, the screen or face node it shows, and the session's state on the server. */
async function whereIs(page: Page, sessionId: string): Promise<string> {
	const shown = await page
		.evaluate(() => {
			const screen = document.querySelector('[data-screen]')?.getAttribute('data-screen');
			const face = document.querySelector('[data-testid="face-node"]');
			const faceState = face && ['data-node', 'data-phase', 'data-message'].map((a) => `${a}=${face.getAttribute(a)}`).join(' ');
			return `${location.pathname} screen=${screen ?? '-'} ${faceState ?? 'no face node'} h1="${document.querySelector('h1')?.textContent?.trim() ?? ''}"`;
		})
		.catch((e: Error) => `page unreadable (${e.message.split('\n')[0]})`);
	const session = await getSession(sessionId).catch(() => null);
	const nodes = (session?.report?.nodeReports ?? []).map((r: { nodeId: string; outcome: string }) => `${r.nodeId}:${r.outcome}`).join(', ');
	return `${shown}; session ${session?.status ?? 'unreadable'}, node reports [${nodes}]`;
}

/** What the server decided for a session: its report, and each node's report and outcome by node id. */
async function readRun(sessionId: string): Promise<FaceRun> {
	const session = await getSession(sessionId);
	const reports: Record<string, any> = {};
	const outcomes: Record<string, string> = {};
	for (const r of session.report?.nodeReports ?? []) {
		reports[r.nodeId] = r;
		outcomes[r.nodeId] = r.outcome;
	}
	return { sessionId, session, outcomes, reports };
}

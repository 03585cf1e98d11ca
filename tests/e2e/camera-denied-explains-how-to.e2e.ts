import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { attachScreens, createSession, getSession } from './support/journey.ts';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// No --use-fake-ui-for-media-stream: headless Chromium then turns the prompt down.
test.use({ launchOptions: { executablePath: chromium, args: ['--use-fake-device-for-media-stream', '--deny-permission-prompts'] } });

// A face step: the permissions page then also asks for biometric consent (a document scan alone does not).
const FACE_FLOW = [
	{ id: 'start', type: 'start', outcome: 'perm' },
	{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'live', permissionsDenied: 'end' } },
	{ id: 'live', type: 'liveness_detection', outcomes: { livenessDetected: 'end', deepfakeDetected: 'end', noFace: 'end' } },
	{ id: 'end', type: 'end' }
];

test('the page explains how to allow it again in this browser, and the flow can go on', async ({ page }, testInfo) => {
	const session = await createSession({ flow: FACE_FLOW });
	await page.goto(session.path);
	await expect(page.getByTestId('consent')).toHaveText(text('en', 'permissions:consent'));
	await page.getByTestId('permissions-continue').click();
	const problem = page.getByTestId('permission-problem');
	await expect(problem).toHaveAttribute('data-problem', 'denied');
	// A camera-only flow: the texts speak of the camera alone.
	await expect(problem).toContainText(text('en', 'permissions:deniedTitleCamera'));
	await expect(problem).toContainText(text('en', 'permissions:howToCamera.chromeDesktop'));
	await expect(problem).not.toContainText(/microphone/i);
	await expect(page.getByRole('button', { name: text('en', 'permissions:retry') })).toBeVisible();
	await attachScreens(page, testInfo, 'camera denied');

	// Going on without the camera reaches the flow's permissions node as a denial.
	await page.getByRole('button', { name: text('en', 'permissions:continueAnyway') }).click();
	const end = page.locator('[data-screen="end"]');
	await expect(end).toBeVisible();
	// The session is complete, not verified: the end says it was submitted, with no success mark.
	await expect(end).toContainText(text('en', 'end:finished'));
	await expect(end).toContainText('submitted');
	await expect(end.locator('.icon')).not.toHaveClass(/complete/);
	const api = await getSession(session.id);
	expect(api.status).toBe('complete');
	expect(api.report.nodeReports.map((r: { nodeId: string; outcome: string }) => [r.nodeId, r.outcome])).toEqual([['perm', 'permissionsDenied']]);
});

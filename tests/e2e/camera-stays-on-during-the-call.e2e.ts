import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { fakeCameraFile } from './support/fake-camera.ts';
import { FLOWS, attachScreens, createSession, getSession } from './support/journey.ts';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

test.use({ launchOptions: { executablePath: chromium, args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${fakeCameraFile()}`] } });

// The camera granted on the permissions page (the flow has a document step later), then a step
// without a camera of its own: the call's self view shows it. A camera step shows its own picture
// instead (see camera-steps-fit-the-screen).
const CAMERA_THEN_EMAIL = [
	{ id: 'start', type: 'start', outcome: 'perm' },
	{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'email', permissionsDenied: 'end' } },
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'face', canceled: 'face' } },
	FLOWS.cameraWithPermissions[2],
	{ id: 'end', type: 'end' }
];

test('the camera stays on in a video-call layout, pauses while the tab is hidden and stops at the end', async ({ page }, testInfo) => {
	const session = await createSession({ flow: CAMERA_THEN_EMAIL });
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	// The permissions node received the answer; the e-mail step keeps the camera on in the self view.
	await expect(page.getByLabel(text('en', 'email:label'))).toBeVisible();
	const preview = page.locator('video.self');
	await expect(preview).toHaveAttribute('playsinline', '');
	await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
	await attachScreens(page, testInfo, 'camera step with self view');

	const setVisibility = (state: 'hidden' | 'visible') =>
		page.evaluate((s) => {
			Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
			document.dispatchEvent(new Event('visibilitychange'));
		}, state);
	await setVisibility('hidden');
	await expect(preview).toHaveCount(0);
	await setVisibility('visible');
	await expect.poll(() => page.locator('video.self').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);

	await page.getByLabel(text('en', 'email:label')).fill('ada@example.com');
	await page.keyboard.press('Enter');
	// The document step shows the camera once, in its own frame: no second, mirrored copy.
	await expect(page.getByTestId('document-node')).toBeVisible();
	await expect(page.locator('video')).toHaveCount(1);
	await expect(page.locator('video.self')).toHaveCount(0);
	await page.getByTestId('document-cancel').click();
	await page.getByTestId('document-cancel-confirm').click();
	await expect(page.locator('[data-screen="end"]')).toBeVisible();
	await expect(page.locator('video')).toHaveCount(0);
	const api = await getSession(session.id);
	expect(api.report.nodeReports.map((r: { nodeId: string; outcome: string }) => [r.nodeId, r.outcome])).toEqual([
		['perm', 'permissionsGranted'],
		['email', 'emailEntered'],
		['face', 'userCancelled']
	]);
});

test('a session that keeps its video gets the camera recording, uploaded as it goes', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.cameraWithPermissions, retainSessionMedia: true });
	const uploads: number[] = [];
	page.on('response', (r) => {
		if (r.url().includes('/api/client/video/chunks?seq=') && r.ok()) uploads.push(Number(new URL(r.url()).searchParams.get('seq')));
	});
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	await expect(page.getByTestId('document-node')).toBeVisible();
	await expect.poll(() => uploads.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
	await page.getByTestId('document-cancel').click();
	await page.getByTestId('document-cancel-confirm').click();
	await expect(page.locator('[data-screen="end"]')).toBeVisible();

	await expect.poll(async () => (await getSession(session.id)).report?.videos?.userVideoUrl ?? null, { timeout: 30_000 }).not.toBeNull();
	const url = (await getSession(session.id)).report.videos.userVideoUrl as string;
	const video = await page.request.get(url);
	expect(video.ok()).toBe(true);
	expect((await video.body()).subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
	expect(uploads.slice(0, 2)).toEqual([0, 1]);
});

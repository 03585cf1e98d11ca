import { expect, test } from '@playwright/test';
import { MODEL_FILES } from '../../src/lib/camera/model-files.ts';
import { faceFlow, QUICK } from './support/face-journey.ts';
import { contextFor } from './support/face-clips.ts';
import { baseUrl, createSession } from './support/journey.ts';
import { sceneCamera } from './support/scene-camera.ts';

// A first visit where the user taps Continue at once: the face detector's model is still on its way
// when the picture shows (held back here for 15 s). "Getting the camera ready…" beside a live picture
// reads as stuck; the page says what to do instead, and the detector's own guidance follows once it
// has looked. (Before, the words stayed "Getting the camera ready…" until the detector was built.)
test('with the picture showing and the detector not yet ready, the page gives an instruction, then the detector’s guidance', async ({ browser }) => {
	test.setTimeout(120_000);
	const created = await createSession({ flow: faceFlow([{ id: 'selfie', type: 'face_scan', mode: 'capture', ...QUICK }]) });
	const context = await contextFor(browser, baseUrl());
	try {
		const page = await context.newPage();
		await sceneCamera(page, { frontal: 'faces/barack_obama_1.jpg' });
		let modelDelivered = false;
		await page.route(`**${MODEL_FILES.faceDetector}`, async (route) => {
			await new Promise((r) => setTimeout(r, 15_000));
			await route.continue();
			modelDelivered = true;
		});
		await page.goto(created.path);
		await page.getByTestId('permissions-continue').click();
		const face = page.getByTestId('face-node');
		const video = face.locator('video').first();
		await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && !v.paused), { timeout: 60_000 }).toBe(true);
		await expect(face).toHaveAttribute('data-message', 'guidance.frame', { timeout: 3_000 });
		await expect(face).toContainText('Look at the camera, your face in the oval');
		// The detector could not have looked yet: its model is still held back.
		expect(modelDelivered).toBe(false);
		// Then the detector speaks: the frontal face is found and held.
		await expect(face).toHaveAttribute('data-message', /guidance\.(good|capturing|checking)/, { timeout: 60_000 });
	} finally {
		await context.close();
	}
});

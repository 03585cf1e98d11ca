import { expect, test } from '@playwright/test';
import { faceFlow, QUICK, runSceneSession } from './support/face-journey.ts';

// A head that holds still, then turns when asked: barack_obama_1 faces the camera (yaw ≈ 2°);
// barack_obama_2 is the same man in three-quarter view (yaw −16°), and mirrored it is the same head
// turned the other way (+18°). The picture is frontal until the page shows the challenge, then turns
// (−16° and +18° in turn, a turn of about 34° that the server measures on 68 landmarks) until the
// challenge is met, then frontal again for the selfie: the user follows what the page says, however
// slowly a busy machine gets there.
/** What the page recorded of the light challenge (installed below, read back after it). */
type LightRecord = { colours: string[]; rootAsFlash: boolean };

const SCENES = {
	frontal: 'faces/barack_obama_1.jpg',
	turning: [
		{ still: 'faces/barack_obama_2.jpg', seconds: 1.5 },
		{ still: 'faces/barack_obama_2.jpg', seconds: 1.5, flip: true }
	]
};

test('a live face that turns as asked passes liveness_detection and face_scan capture; the server measured both', async ({ browser }) => {
	test.setTimeout(240_000);
	const run = await runSceneSession(
		browser,
		SCENES,
		{
			flow: faceFlow([
				{ id: 'live', type: 'liveness_detection', ...QUICK, testMode: { challenge: 'turnLeft' } },
				{ id: 'selfie', type: 'face_scan', mode: 'capture', saveToField: 'selfie', ...QUICK }
			])
		},
		async (page, camera) => {
			const face = page.getByTestId('face-node');
			// Said before it starts, then shown full-screen while the challenge runs.
			// (The face node's code and the camera may take a while to arrive on a busy machine.)
			await expect(page.getByTestId('light-notice')).toBeVisible({ timeout: 30_000 });
			// What the colours did is recorded in the page as it happens: the sequence lasts about 3 s, and
			// on a loaded 2-core machine one poll from the test can take longer than that (CI, 2026-12-07:
			// a 2-s poll began after the colours had ended, on both tries). Each change of the layer's or
			// the root's colour is seen by an observer, and checked again on the next frame.
			await page.evaluate(() => {
				const seen: LightRecord = { colours: [], rootAsFlash: false };
				(window as unknown as { __light: typeof seen }).__light = seen;
				const check = () => {
					const flash = document.querySelector<HTMLElement>('[data-testid="light-flash"]')?.style.backgroundColor;
					if (!flash) return;
					if (seen.colours.at(-1) !== flash) seen.colours.push(flash);
					if (document.documentElement.style.backgroundColor === flash) seen.rootAsFlash = true;
				};
				new MutationObserver(() => {
					check();
					requestAnimationFrame(check);
				}).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['style'] });
			});
			await expect(face).toHaveAttribute('data-phase', 'challenge', { timeout: 120_000 });
			const light = () => page.evaluate(() => (window as unknown as { __light: LightRecord }).__light);
			// Shown full-screen while the challenge runs, in more than one colour, and the page's own
			// background the same colour while it shows (a phone's safe-area insets).
			await expect.poll(async () => (await light()).colours.length, { timeout: 30_000 }).toBeGreaterThan(1);
			const seen = await light();
			expect(seen.colours.every((c) => /^rgb\(\d+, \d+, \d+\)$/.test(c))).toBe(true);
			expect(seen.rootAsFlash).toBe(true);
			await camera.show('turning');
			await expect(face).not.toHaveAttribute('data-phase', 'challenge', { timeout: 60_000 });
			await camera.show('frontal');
			// And turns again if asked again, as a real user would: on a loaded 2-core machine a try can
			// see too little of the turn (CI, 2026-11-29: the first try was lost, and the journey, which
			// turned only once, failed every retry). The node's retries are part of the journey.
			const livenessOver = async () => (await page.locator('[data-screen="end"]').isVisible()) || (await face.getAttribute('data-node', { timeout: 1000 }).catch(() => null)) === 'face_scan';
			for (let retry = 0; retry < 3; retry++) {
				await expect
					.poll(async () => (await livenessOver()) || (await face.getAttribute('data-phase', { timeout: 1000 }).catch(() => null)) === 'challenge', { timeout: 120_000, intervals: [100] })
					.toBe(true);
				if (await livenessOver()) break;
				await camera.show('turning');
				await expect(face).not.toHaveAttribute('data-phase', 'challenge', { timeout: 60_000 });
				await camera.show('frontal');
			}
		},
		{ timeoutMs: 180_000 }
	);
	expect(run.outcomes).toMatchObject({ perm: 'permissionsGranted', live: 'livenessDetected', selfie: 'passed' });
	const live = run.reports.live.details;
	test.info().annotations.push({ type: 'liveness tries', description: String(live.tries) });
	expect(live.challenge).toMatchObject({ type: 'turnLeft', passed: true });
	expect(live.liveness.live).toBe(true);
	// The page's own claim is recorded next to the server's verdict (on this synthetic "turn" the
	// browser's landmark yaw does not always see the turn the server measures; the server decides).
	expect(live.claim.challenge.type).toBe('turnLeft');
	// The sandbox records the fake camera without acting on it. This synthetic turn is a photo and
	// its mirror image, the very attack the server refuses in a live session: it says so here.
	expect(live.injection.enforced).toBe(false);
	expect(live.injection.signals).toContain('mirroredFrames');
	// The light challenge ran (the page said when) and was recorded; a sandbox session does not act
	// on it. Nor on the turn's continuity: two stills are not one continuous motion.
	// The scene camera reflects no screen light, yet in 1 of 4 runs on a loaded 2-core machine the
	// verdict came back passed: the scene's one jump (the photo switching to its mirror image during
	// the flashes) can line up with a step of the colour sequence when few frames were analysed. That
	// is a finding about the light check (issue 12), not about this journey: the verdict is recorded
	// here for whoever looks, and asserted only where it is enforced (liveness-resists-attacks).
	expect(live.lightChallenge.enforced).toBe(false);
	expect(live.lightChallenge.reason ?? 'passed').not.toBe('missing');
	test.info().annotations.push({ type: 'light challenge on a scene without screen light', description: JSON.stringify(live.lightChallenge) });
	expect(live.challenge.continuity.continuous).toBe(false);
	expect(run.reports.selfie.details.photoId).toMatch(/^med_/);
	expect(run.session.report.livenessDetected).toBe(true);
	expect(run.session.report.screenshots).toHaveLength(2);
});

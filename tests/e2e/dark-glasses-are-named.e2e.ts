import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { faceFlow, QUICK, runSceneSession } from './support/face-journey.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const TMP = path.resolve(import.meta.dirname, '../.tmp');
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/screens');

/**
 * The portrait with dark glasses: two near-black lenses over the eyes the server's landmarks find in
 * barack_obama_1.jpg (eye centres 442,214 and 549,212 in its 910×1137 pixels), and a bridge.
 */
async function glassesStill(): Promise<string> {
	const src = path.join(FIXTURES, 'faces/barack_obama_1.jpg');
	const eyes = [
		[442, 214],
		[549, 212]
	];
	const gap = eyes[1][0] - eyes[0][0];
	const lens = ([x, y]: number[]) => `<ellipse cx="${x}" cy="${y + 4}" rx="${0.45 * gap}" ry="${0.32 * gap}" fill="#141414" opacity="0.93"/>`;
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="910" height="1137">${eyes.map(lens).join('')}<line x1="${eyes[0][0] + 0.45 * gap}" y1="210" x2="${eyes[1][0] - 0.45 * gap}" y2="210" stroke="#141414" stroke-width="6"/></svg>`;
	// Named as the face photo so the scene camera frames it as it frames barack_obama_1.jpg.
	const file = path.join(TMP, 'glasses', 'faces', 'barack_obama_1.jpg');
	mkdirSync(path.dirname(file), { recursive: true });
	await sharp(src).composite([{ input: Buffer.from(svg) }]).jpeg({ quality: 92 }).toFile(file);
	return path.relative(FIXTURES, file);
}

// Dark glasses hide what a face is compared by: a capture would save half a face as the user's. The
// page's worker sees them while the user holds still and says so (a hint: the capture goes on), the
// server finds them on the best frame and asks the user, in words, to take them off; bare, the face
// is captured.
test('a face in dark glasses is asked to take them off; without them it is captured', async ({ browser }) => {
	test.setTimeout(150_000);
	mkdirSync(SHOTS, { recursive: true });
	const seen: string[] = [];
	const run = await runSceneSession(
		browser,
		{ glasses: { still: await glassesStill() }, bare: 'faces/barack_obama_1.jpg' },
		{ flow: faceFlow([{ id: 'scan', type: 'face_scan', mode: 'capture', maxRetries: 2, ...QUICK, captureDelay: 1500 }]) },
		async (page, camera) => {
			const face = page.getByTestId('face-node');
			await expect(face).toBeVisible({ timeout: 60_000 });
			const reaches = (message: string) =>
				expect
					.poll(async () => {
						const now = await face.getAttribute('data-message', { timeout: 500 }).catch(() => null);
						if (now && seen.at(-1) !== now) seen.push(now);
						return now;
					}, { timeout: 60_000, intervals: [100] })
					.toBe(message);
			// The first try: the server finds the glasses on the best frame and says so.
			await reaches('failure.faceCovered');
			await expect(page.getByTestId('face-guidance')).toContainText('Your eyes or mouth were covered. Take off dark glasses or a mask and try again.');
			await page.screenshot({ path: path.join(SHOTS, 'face-covered-desktop.png') });
			// The next: the worker's models are in, and its look at the frames names the glasses while the
			// user holds still (a hint: the hold goes on).
			await reaches('guidance.faceCovered');
			await expect(page.getByTestId('face-guidance')).toContainText('Remove anything covering your face');
			await camera.show('bare');
		}
	);
	expect(run.outcomes.scan).toBe('passed');
	// Bare during the second hold or the third: either way no try with the glasses passed.
	expect(run.reports.scan.details.tries).toBeGreaterThanOrEqual(2);
	expect(run.reports.scan.details.bestFrame.hidden).toBeUndefined();
});

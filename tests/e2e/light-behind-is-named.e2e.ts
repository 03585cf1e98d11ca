import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { HEADS } from './support/turning-face.ts';
import { faceFlow, QUICK, runSceneSession } from './support/face-journey.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const TMP = path.resolve(import.meta.dirname, '../.tmp');

/**
 * A portrait in a dark room with a bright window behind: the head and the room close around it (an
 * ellipse about the head, from turning-face.ts) at 15 % of their light, the window around them washed
 * towards white, as a camera exposing for the window sees it.
 */
async function backlitStill(): Promise<string> {
	mkdirSync(TMP, { recursive: true });
	const src = path.join(FIXTURES, 'faces/barack_obama_1.jpg');
	const { data, info } = await sharp(src).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	const head = HEADS['barack_obama_1.jpg']!;
	for (let y = 0; y < info.height; y++) {
		for (let x = 0; x < info.width; x++) {
			// The dark room reaches a little beyond the head (the gate's crop of the face is dark); the window fills the rest.
			const inside = ((x - head.cx) / (1.9 * head.radius)) ** 2 + ((y - head.cy) / (1.6 * head.halfHeight)) ** 2 <= 1;
			for (let c = 0; c < 3; c++) {
				const i = (y * info.width + x) * 3 + c;
				data[i] = inside ? Math.round(data[i] * 0.15) : Math.round(0.15 * data[i] + 0.85 * 248);
			}
		}
	}
	// Named as a face photo so the scene camera frames it as it frames barack_obama_1.jpg.
	const file = path.join(TMP, 'faces', 'barack_obama_1.jpg');
	mkdirSync(path.dirname(file), { recursive: true });
	await sharp(data, { raw: info }).jpeg({ quality: 92 }).toFile(file);
	// The scene camera reads stills from tests/fixtures.
	return path.relative(FIXTURES, file);
}

// A window behind the user: the camera exposes for it and the face is too dark. "Find a brighter
// place" would send the user towards the window; the page names the light behind them instead.
test('a face dark against a bright window is told the light is behind it; lit, it is captured', async ({ browser }) => {
	test.setTimeout(120_000);
	const seen = new Set<string>();
	const run = await runSceneSession(
		browser,
		{ backlit: { still: await backlitStill() }, lit: 'faces/barack_obama_1.jpg' },
		{ flow: faceFlow([{ id: 'scan', type: 'face_scan', mode: 'capture', ...QUICK }]) },
		async (page, camera) => {
			const face = page.getByTestId('face-node');
			await expect(face).toBeVisible({ timeout: 60_000 });
			await expect
				.poll(async () => {
					const message = await face.getAttribute('data-message', { timeout: 500 }).catch(() => null);
					if (message) seen.add(message);
					return message;
				}, { timeout: 30_000, intervals: [100] })
				.toBe('guidance.lightBehind');
			await expect(page.getByText('Light behind you: turn to face it')).toBeVisible();
			await camera.show('lit');
		}
	);
	expect(seen).not.toContain('guidance.moreLight');
	expect(run.outcomes.scan).toBe('passed');
});

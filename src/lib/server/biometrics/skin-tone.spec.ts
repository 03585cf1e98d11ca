// The skin-tone check on real detections: every fixture face, however rendered, is skin; the disc of
// Chromium's test pattern, which fr_detect takes for a face, is not.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIGHT_PALETTE } from '#lib/domain/face/light-challenge.ts';
import { looksLikeSkin, skinTone } from '#lib/face/skin-tone.ts';
import { FaceEngine } from './face-engine.ts';
import { decodeImage } from './image-decode.ts';

const FACES = path.resolve(import.meta.dirname, '../../../../tests/fixtures/faces');
const PORTRAITS = ['barack_obama_1.jpg', 'barack_obama_2.jpg', 'joe_biden_2_800w.jpg', 'eileen_collins_1.jpg', 'codait_luciano_1.jpg', 'group_obama_family_2011.jpg', 'live_minivision_1.jpg', 'spoof_screen_minivision_1.jpg'];

/** Renderings a camera or a user's room gives: dark, blurred, grey, and lit by each of the light challenge's colours. */
const RENDERINGS: [string, (s: Sharp) => Sharp][] = [
	['as taken', (s) => s],
	['dark', (s) => s.linear(0.35, 0)],
	['blurred', (s) => s.blur(3)],
	['grey camera', (s) => s.grayscale()],
	['cold white balance', (s) => s.linear([0.8, 1, 1.25], [0, 0, 0])],
	...LIGHT_PALETTE.map((colour): [string, (s: Sharp) => Sharp] => {
		// The screen's colour added to the face at k = 0.3, three times the light challenge's estimate.
		const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16) / 255);
		return [`lit ${colour}`, (s) => s.linear([0.7 + 0.3 * r, 0.7 + 0.3 * g, 0.7 + 0.3 * b], [0, 0, 0])];
	})
];

describe('skin tone of a detection', () => {
	let engine: FaceEngine;
	beforeAll(async () => {
		engine = await FaceEngine.create();
	});

	async function detections(bytes: Buffer) {
		const image = await decodeImage(bytes, 1280, 1e8);
		return engine.exclusive(async (p) => (await p.detect(image)).map((d) => ({ box: d.box, score: d.score, skin: looksLikeSkin(image, d.box), tone: skinTone(image, d.box) })));
	}

	it.each(RENDERINGS)('every fixture face is skin: %s', async (_, render) => {
		for (const file of PORTRAITS) {
			const found = await detections(await render(sharp(readFileSync(path.join(FACES, file)))).jpeg().toBuffer());
			expect(found.length, file).toBeGreaterThan(0);
			for (const d of found) expect(d.skin, `${file} ${JSON.stringify(d.tone)}`).toBe(true);
		}
	}, 60_000);

	it("the disc of Chromium's test pattern is found by the detector and is not skin", async () => {
		for (const n of [26, 32, 75]) {
			const found = await detections(readFileSync(path.join(FACES, `chromium_test_pattern_${n}.jpg`)));
			expect(found.length, `pattern ${n}`).toBeGreaterThan(0);
			for (const d of found) expect(d.skin, JSON.stringify(d.tone)).toBe(false);
		}
	});
});

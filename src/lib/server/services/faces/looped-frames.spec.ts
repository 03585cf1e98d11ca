// A loop or a frozen feed is the same picture again, not a person who sits still. The thumbnails the
// checks start from average a camera's noise away, so a still face (or one that comes back to the
// same colour of a light challenge) repeats on them; the server confirms a repeat on the full pictures.
import { beforeAll, describe, expect, it } from 'vitest';
import { frameSignature, LOOP_PIXEL_DIFF, motionSignals, pixelDistance } from '#lib/face/injection.ts';
import { encodeJpeg, fixtureFrame, noise, type Raw } from '../../../../../tests/helpers/face-frames.ts';
import { FaceEngine } from '../../biometrics/face-engine.ts';
import { decodeImage } from '../../biometrics/image-decode.ts';
import { analyseEvidence } from './evidence-analysis.ts';

/** The scene lit by a screen colour (0–1 per channel) at strength k, as the light challenge does. */
function lit(raw: Raw, [r, g, b]: [number, number, number], k = 0.15): Raw {
	const gain = [1 - k + k * r, 1 - k + k * g, 1 - k + k * b];
	const out = new Uint8Array(raw.data.length);
	for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.round(raw.data[i] * gain[i % 3]));
	return { ...raw, data: out };
}

describe('looped frames', () => {
	let engine: FaceEngine;
	let scene: Raw;
	beforeAll(async () => {
		engine = await FaceEngine.create();
		scene = await fixtureFrame('barack_obama_1.jpg');
	});

	/** Neutral, magenta, neutral, green, neutral: a still face, a camera's faint noise on every frame. */
	async function stillPerson(amplitude: number) {
		const colours: [number, number, number][] = [[1, 1, 1], [1, 0.3, 1], [1, 1, 1], [0.3, 1, 0.4], [1, 1, 1]];
		return Promise.all(colours.map(async (c, i) => ({ bytes: await encodeJpeg(noise(lit(scene, c), 11 + i, amplitude), 88), t: 200 * i })));
	}

	it('a still person back under the same colour repeats on the thumbnails but is not a loop', async () => {
		const frames = await stillPerson(1);
		const images = await Promise.all(frames.map((f) => decodeImage(f.bytes, 1280, 1e8)));
		// The case the full pictures are for: on the thumbnails alone, neutral frames 0, 2 and 4 repeat.
		expect(motionSignals(images.map((i) => frameSignature(i))).looped).toBe(true);
		expect(pixelDistance(images[0]!, images[2]!)).toBeGreaterThan(2 * LOOP_PIXEL_DIFF);
		const analysis = await analyseEvidence(engine, frames);
		expect(analysis.framesWithFace).toBe(5);
		expect(analysis.motion).toMatchObject({ looped: false, frozen: false });
	}, 60_000);

	it('the same picture played again is a loop, also when its pixels are encoded again', async () => {
		const [a, b, c] = await stillPerson(1);
		const again = await analyseEvidence(engine, [a!, b!, c!, { bytes: a!.bytes, t: 600 }, { bytes: b!.bytes, t: 800 }]);
		expect(again.motion.looped).toBe(true);
		// A virtual camera's player decodes the same pixels every time round; the page encodes them.
		const raw = noise(lit(scene, [1, 1, 1]), 11, 1);
		const reEncoded = await analyseEvidence(engine, [
			{ bytes: await encodeJpeg(raw, 88), t: 0 },
			{ bytes: b!.bytes, t: 200 },
			{ bytes: await encodeJpeg(raw, 88), t: 400 }
		]);
		expect(reEncoded.motion.looped).toBe(true);
	}, 60_000);

	it('a person sitting perfectly still is not a frozen picture; the same picture sent again is', async () => {
		const still = await Promise.all([0, 1, 2, 3].map(async (i) => ({ bytes: await encodeJpeg(noise(scene, 21 + i, 1), 88), t: 250 * i })));
		const images = await Promise.all(still.map((f) => decodeImage(f.bytes, 1280, 1e8)));
		expect(motionSignals(images.map((i) => frameSignature(i))).frozen, 'the thumbnails alone call it frozen').toBe(true);
		expect((await analyseEvidence(engine, still)).motion).toMatchObject({ frozen: false, frozenShare: 0 });
		const fed = await analyseEvidence(engine, [0, 1, 2].map((i) => ({ bytes: still[0]!.bytes, t: 250 * i })));
		expect(fed.motion).toMatchObject({ frozen: true, frozenShare: 1 });
	}, 60_000);

	it('pixelDistance is 0 for the same pixels and undefined across sizes', async () => {
		const image = await decodeImage(await encodeJpeg(scene, 88), 1280, 1e8);
		expect(pixelDistance(image, image)).toBe(0);
		expect(pixelDistance(image, { width: 320, height: 240, data: new Uint8Array(320 * 240 * 4) })).toBe(Infinity);
	});
});

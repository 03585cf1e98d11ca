// The server's detector sees its input at 320×240 of the whole frame, and a texture can line up with
// its priors at one position: a coffee cup held in a hand-held frame was a "face" in about half the
// frames, passed the majority rule on a three-frame try, and ended a liveness node as
// deepfakeDetected instead of noFace. A detection now counts only when a second, closer look finds it.
import { beforeAll, describe, expect, it } from 'vitest';
import { CLOSER_LOOK_SCORE } from '#lib/face/face-thresholds.ts';
import { encodeJpeg, fixtureFrame, noise, shift, type Raw } from '../../../../../tests/helpers/face-frames.ts';
import { FaceEngine } from '../../biometrics/face-engine.ts';
import { decodeImage } from '../../biometrics/image-decode.ts';
import { analyseEvidence } from './evidence-analysis.ts';

/** Scales every channel by `gain` (a dim room). */
function dim(raw: Raw, gain: number): Raw {
	return { ...raw, data: raw.data.map((v) => Math.round(v * gain)) };
}

describe('the detector looks closer', () => {
	let engine: FaceEngine;
	let cup: Raw;
	beforeAll(async () => {
		engine = await FaceEngine.create();
		cup = await fixtureFrame('no_face_coffee.jpg', { width: 1280, height: 720 });
	});

	// The cup 5 px left of centre, as a hand-held camera drifts: the first look is sure of a face.
	const cupFrames = () => Promise.all([-5, -4, -6].map(async (dx, i) => ({ bytes: await encodeJpeg(noise(shift(cup, dx, 0), 31 + i, 4), 90), t: 150 * i })));

	it('finds the cup on the first look and not on the closer one', async () => {
		const [frame] = await cupFrames();
		const image = await decodeImage(frame!.bytes, 1280, 1e8);
		const first = await engine.exclusive((p) => p.detect(image));
		expect(first[0]?.score).toBeGreaterThan(0.9);
		expect(await engine.exclusive((p) => p.closerLook(image, first[0]!.box))).toBeLessThan(CLOSER_LOOK_SCORE);
	});

	it('a try of cup frames has no face, and says how many detections it set aside', async () => {
		const analysis = await analyseEvidence(engine, await cupFrames());
		expect(analysis.framesWithFace).toBe(0);
		expect(analysis.detectionsNotConfirmed).toBeGreaterThanOrEqual(2);
		expect(analysis.bestIndex).toBe(-1);
	});

	it('a reference photo of the cup has no subject; a portrait keeps its own', async () => {
		const [frame] = await cupFrames();
		expect(await engine.analyseReference(frame!.bytes)).toBeNull();
		const portrait = await engine.analyseReference(await encodeJpeg(await fixtureFrame('eileen_collins_1.jpg'), 90));
		expect(portrait?.look).toBe('asIs');
		expect(portrait?.face.embedding).not.toBeNull();
	});

	it('keeps real faces, bright and dim, large and small', async () => {
		const frames = [];
		for (const [i, [name, gain]] of ([['barack_obama_1.jpg', 1], ['eileen_collins_1.jpg', 0.25], ['codait_luciano_1.jpg', 0.35]] as const).entries()) {
			frames.push({ bytes: await encodeJpeg(noise(dim(await fixtureFrame(name), gain), 7 + i, 6), 75), t: 200 * i });
		}
		const analysis = await analyseEvidence(engine, frames);
		expect(analysis.frames.map((f) => f.faceCount)).toEqual([1, 1, 1]);
		expect(analysis.detectionsNotConfirmed).toBe(0);
		// The family photo's four faces, 53–63 px wide in a 640-px frame: each found again up close.
		const group = await analyseEvidence(engine, [{ bytes: await encodeJpeg(await fixtureFrame('group_obama_family_2011.jpg'), 90), t: 0 }]);
		expect(group.frames[0]!.faceCount).toBe(4);
	});
});

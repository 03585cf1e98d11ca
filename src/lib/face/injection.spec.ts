import { describe, expect, it } from 'vitest';
import { createRgba } from './image.ts';
import { frameSignature, isVirtualCameraLabel, motionSignals, timingSignals } from './injection.ts';

function picture(seed: number, width = 64, height = 48) {
	const image = createRgba(width, height);
	for (let i = 0; i < width * height; i++) {
		const v = (Math.sin(i * 0.37 + seed) * 0.5 + 0.5) * 200 + ((i * 7919 + seed * 104729) % 17);
		image.data.set([v, v * 0.8, v * 0.6, 255], i * 4);
	}
	return image;
}

describe('virtual camera labels', () => {
	it.each(['OBS Virtual Camera', 'ManyCam Virtual Webcam', 'Snap Camera', 'XSplit VCam', 'fake_device_0', 'Dummy video device (0x0000)', 'v4l2loopback'])('flags %s', (label) => {
		expect(isVirtualCameraLabel(label)).toBe(true);
	});
	it.each(['FaceTime HD Camera', 'Integrated Webcam (0bda:58f4)', 'Logitech BRIO', 'Front Camera', 'camera2 1, facing front', ''])('accepts %s', (label) => {
		expect(isVirtualCameraLabel(label)).toBe(false);
	});
});

describe('motionSignals', () => {
	it('calls a repeated picture frozen and moving pictures not', () => {
		const still = frameSignature(picture(1));
		expect(motionSignals([still, frameSignature(picture(1)), frameSignature(picture(1))])).toMatchObject({ frozen: true, frozenShare: 1 });
		const moving = [1, 2, 3, 4].map((s) => frameSignature(picture(s)));
		const m = motionSignals(moving);
		expect(m.frozen).toBe(false);
		expect(m.looped).toBe(false);
		expect(m.meanChange).toBeGreaterThan(1);
	});

	it('sees a short clip played in a loop', () => {
		const clip = [1, 2, 3].map((s) => frameSignature(picture(s)));
		expect(motionSignals([...clip, ...clip]).looped).toBe(true);
	});
});

describe('timingSignals', () => {
	it('measures frame rate and jitter, and catches time going backwards', () => {
		const regular = timingSignals([0, 33, 66, 100, 133]);
		expect(regular.fps).toBeCloseTo(30, 0);
		expect(regular.jitter).toBeLessThan(0.05);
		expect(regular.nonMonotonic).toBe(false);
		expect(timingSignals([0, 40, 30, 80]).nonMonotonic).toBe(true);
		expect(timingSignals([0, 10, 90, 100]).jitter).toBeGreaterThan(0.5);
	});
});

describe('mirrored frames', async () => {
	const { readFileSync } = await import('node:fs');
	const sharp = (await import('sharp')).default;
	const dir = new URL('../../../tests/fixtures/faces/', import.meta.url);
	/** A fixture photo as the page would send it: `flop` mirrors it, `gain` changes its brightness. */
	async function frame(name: string, { flop = false, gain = 1, left = 0 } = {}) {
		let s = sharp(readFileSync(new URL(name, dir))).resize(320, 240, { fit: 'cover' });
		if (flop) s = s.flop();
		const { data, info } = await s.linear(gain, 0).extract({ left, top: 0, width: 320 - left, height: 240 }).resize(320, 240).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
		return frameSignature({ width: info.width, height: info.height, data: new Uint8Array(data) });
	}

	it('sees a photo and its mirror image, re-lit, posted as a head turn', async () => {
		const frames = [await frame('barack_obama_1.jpg', { flop: true }), await frame('barack_obama_1.jpg', { flop: true, gain: 1.06 }), await frame('barack_obama_1.jpg', { gain: 1.12 }), await frame('barack_obama_1.jpg', { gain: 1.18 })];
		expect(motionSignals(frames).mirrored).toBe(true);
	});

	it('does not call different pictures, or a camera moving over one scene, mirrored', async () => {
		expect(motionSignals([await frame('barack_obama_1.jpg'), await frame('barack_obama_2.jpg'), await frame('eileen_collins_1.jpg')]).mirrored).toBe(false);
		// The same scene seen from a little further left or right: what a hand-held phone does.
		expect(motionSignals([await frame('live_minivision_1.jpg'), await frame('live_minivision_1.jpg', { left: 12 }), await frame('live_minivision_1.jpg', { left: 24, gain: 1.1 })]).mirrored).toBe(false);
	});
});

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

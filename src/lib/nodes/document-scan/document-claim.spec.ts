import { describe, expect, it } from 'vitest';
import { ScanStats } from './document-claim.ts';

describe('ScanStats', () => {
	it('sends the last capture’s measurements, rounded, with the checks and timings of the whole node', () => {
		const stats = new ScanStats();
		stats.checked(12.34, false, 1100);
		stats.checked(20, true, 1400);
		stats.checked(30, true, 1700);
		stats.captured(8.04, 41.26);
		const camera = { label: 'Back Camera'.padEnd(300, '.'), width: 1920, height: 1080, facingMode: 'environment' };
		const claim = stats.claim({ sharpness: 912.6, glare: 0.012345, coverage: 0.71234 }, { now: 2400, openedAt: 1000, camera, torch: true });
		expect(claim).toEqual({
			sharpness: 913,
			glare: 0.0123,
			coverage: 0.712,
			framesSeen: 3,
			durationMs: 1400,
			timings: { check: 20.8, capture: 8, encode: 41.3, firstSeenToCapture: 1000 },
			camera: { label: camera.label.slice(0, 256), width: 1920, height: 1080, facingMode: 'environment', torch: true }
		});
	});

	it('leaves out what it does not know: no document seen yet, no camera facts, no facing mode', () => {
		const claim = new ScanStats().claim({ sharpness: 0, glare: 0, coverage: 0 }, { now: 50, openedAt: 0, camera: null, torch: false });
		expect(claim).toEqual({ sharpness: 0, glare: 0, coverage: 0, framesSeen: 0, durationMs: 50, timings: { check: 0, capture: 0, encode: 0 } });
		const noFacing = new ScanStats().claim({ sharpness: 0, glare: 0, coverage: 0 }, { now: 0, openedAt: 0, camera: { label: 'USB', width: 640, height: 480, facingMode: null }, torch: false });
		expect(noFacing.camera).toEqual({ label: 'USB', width: 640, height: 480, torch: false });
	});
});

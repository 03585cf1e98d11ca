import { describe, expect, it } from 'vitest';
import { createQualityScratch } from '#lib/face/quality.ts';
import type { Box } from '#lib/face/image.ts';
import { scaleDetectorFrame, type DetectedFace, type DetectorFrame } from './detector.ts';
import { checkFrame, createCropMemo, MAX_REUSED_FRAMES, type CropReader } from './frame-gate.ts';
import { guidanceFor } from './guidance.ts';

/** A frontal face: keypoints placed symmetrically in the box. */
function face(box: Box): DetectedFace {
	const { x, y, width: w, height: h } = box;
	const at = (fx: number, fy: number) => ({ x: x + fx * w, y: y + fy * h });
	return { box, score: 0.95, keypoints: [at(0.3, 0.35), at(0.7, 0.35), at(0.5, 0.55), at(0.5, 0.75), at(0.02, 0.45), at(0.98, 0.45)] };
}
const frame = (...boxes: Box[]): DetectorFrame => ({ width: 640, height: 480, faces: boxes.map(face) });
const BOX = { x: 240, y: 140, width: 160, height: 160 };

/** A crop reader over a sharp checkerboard whose brightness is `level`; counts its reads. */
function reader() {
	const r = { reads: 0, level: 200, read: (() => {}) as CropReader };
	r.read = (_box, size, out) => {
		r.reads++;
		for (let i = 0; i < size * size; i++) out[i] = ((i % size) + Math.floor(i / size)) % 2 ? r.level : r.level - 60;
	};
	return r;
}

describe('the live frame gate', () => {
	it('reads the face crop again only when the face moved or the last reading is old', () => {
		const crop = reader();
		const memo = createCropMemo();
		const scratch = createQualityScratch();
		const first = checkFrame(frame(BOX), {}, crop.read, scratch, memo);
		expect(crop.reads).toBe(1);
		expect(first.quality.face!.sharpness).toBeGreaterThan(1000);
		// Still (a pixel of jitter): the measurement is reused for MAX_REUSED_FRAMES frames…
		crop.level = 120;
		for (let i = 0; i < MAX_REUSED_FRAMES; i++) {
			const again = checkFrame(frame({ ...BOX, x: BOX.x + 1 }), {}, crop.read, scratch, memo);
			expect(again.quality.face!.luminance).toBe(first.quality.face!.luminance);
			expect(again.verdict).toEqual(first.verdict);
		}
		expect(crop.reads).toBe(1);
		// …then read again, and the darker light shows.
		const fresh = checkFrame(frame({ ...BOX, x: BOX.x + 1 }), {}, crop.read, scratch, memo);
		expect(crop.reads).toBe(2);
		expect(fresh.quality.face!.luminance).toBeLessThan(first.quality.face!.luminance - 50);
		// A face that moved by a tenth of its width is measured at once.
		checkFrame(frame({ ...BOX, x: BOX.x + 16 }), {}, crop.read, scratch, memo);
		expect(crop.reads).toBe(3);
	});

	it('forgets the measured box when the face leaves or a second person comes', () => {
		const crop = reader();
		const memo = createCropMemo();
		const scratch = createQualityScratch();
		checkFrame(frame(BOX), {}, crop.read, scratch, memo);
		expect(checkFrame(frame(), {}, crop.read, scratch, memo).quality.faceCount).toBe(0);
		checkFrame(frame(BOX), {}, crop.read, scratch, memo);
		expect(crop.reads).toBe(2);
		const two = checkFrame(frame(BOX, { x: 20, y: 40, width: 150, height: 150 }), {}, crop.read, scratch, memo);
		expect(two.quality.faceCount).toBe(2);
		checkFrame(frame(BOX), {}, crop.read, scratch, memo);
		expect(crop.reads).toBe(3);
	});

	it('reads the crop on every frame without a memo, as before', () => {
		const crop = reader();
		const scratch = createQualityScratch();
		for (let i = 0; i < 3; i++) checkFrame(frame(BOX), {}, crop.read, scratch);
		expect(crop.reads).toBe(3);
	});
});

describe('detection on a scaled copy of the frame', () => {
	it('brings boxes and keypoints back to the frame’s pixels', () => {
		const small: DetectorFrame = { width: 256, height: 192, faces: [face({ x: 96, y: 56, width: 64, height: 64 })] };
		const full = scaleDetectorFrame(small, 2.5, 640, 480);
		expect(full.width).toBe(640);
		expect(full.height).toBe(480);
		expect(full.faces[0].box).toEqual({ x: 240, y: 140, width: 160, height: 160 });
		expect(full.faces[0].keypoints[2]).toEqual({ x: 320, y: 228 });
		expect(full.faces[0].score).toBe(0.95);
	});
});

describe('light from behind', () => {
	/** A crop reader: the face crop at `face`, the surroundings' crop (24 px) bright at `around` with the face dark in its middle third. */
	function scene(face: number, around: number): CropReader {
		return (_box, size, out) => {
			for (let i = 0; i < size * size; i++) {
				const x = i % size;
				const y = Math.floor(i / size);
				const middle = size === 24 && x >= 8 && x < 16 && y >= 8 && y < 16;
				// A fine texture so the face is sharp; its level is what is measured.
				const level = size === 24 && !middle ? around : face;
				out[i] = level + ((x + y) % 2 ? 15 : -15);
			}
		};
	}

	it('tells a dark face against a bright window to turn towards the light, not to find a brighter place', () => {
		const check = checkFrame(frame(BOX), {}, scene(40, 230), createQualityScratch());
		expect(check.verdict.reasons).toContain('tooDark');
		expect(check.lightBehind).toBe(true);
		expect(guidanceFor(check.verdict.reasons, check.lightBehind)).toBe('guidance.lightBehind');
	});

	it('keeps "find a brighter place" for a dark room, and says nothing of the light for a lit face', () => {
		const dim = checkFrame(frame(BOX), {}, scene(40, 60), createQualityScratch());
		expect(dim.verdict.reasons).toContain('tooDark');
		expect(dim.lightBehind).toBeUndefined();
		expect(guidanceFor(dim.verdict.reasons, dim.lightBehind)).toBe('guidance.moreLight');
		const lit = checkFrame(frame(BOX), {}, scene(140, 250), createQualityScratch());
		expect(lit.verdict.reasons).not.toContain('tooDark');
		expect(lit.lightBehind).toBeUndefined();
	});
});

import { describe, expect, it } from 'vitest';
import { createRgba, type Affine } from './image.ts';
import { eyeAspectRatio, headPose, laplacianVariance, measureFace, placement, sharpnessBalance } from './quality.ts';
import { frontalLandmarks, transformLandmarks } from './test-faces.ts';

const rotation = (degrees: number, cx: number, cy: number): Affine => {
	const r = (degrees * Math.PI) / 180;
	const c = Math.cos(r);
	const s = Math.sin(r);
	return [c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy];
};

describe('laplacianVariance', () => {
	it('is 0 on a flat image and drops when an edge pattern is blurred', () => {
		const w = 32;
		const sharp = new Float32Array(w * w);
		for (let i = 0; i < w * w; i++) sharp[i] = (Math.floor(i / w) + (i % w)) % 4 < 2 ? 200 : 50;
		const blurred = new Float32Array(w * w);
		for (let y = 1; y < w - 1; y++) for (let x = 1; x < w - 1; x++) {
			let s = 0;
			for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) s += sharp[(y + dy) * w + x + dx];
			blurred[y * w + x] = s / 9;
		}
		expect(laplacianVariance(new Float32Array(w * w).fill(90), w, w)).toBe(0);
		expect(laplacianVariance(sharp, w, w)).toBeGreaterThan(1000);
		expect(laplacianVariance(blurred, w, w)).toBeLessThan(laplacianVariance(sharp, w, w) / 2);
	});
});

describe('sharpnessBalance', () => {
	it("is high where detail runs every way, and low where a blur along one direction took that direction's away", () => {
		const w = 64;
		let seed = 7;
		const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
		const noise = Float32Array.from({ length: w * w }, () => 255 * rand());
		// A 15-px horizontal motion blur, as a camera moving sideways makes.
		const moved = new Float32Array(w * w);
		for (let y = 0; y < w; y++) for (let x = 0; x < w; x++) {
			let s = 0;
			for (let k = -7; k <= 7; k++) s += noise[y * w + Math.min(w - 1, Math.max(0, x + k))];
			moved[y * w + x] = s / 15;
		}
		expect(sharpnessBalance(new Float32Array(w * w).fill(90), w, w)).toBe(0);
		expect(sharpnessBalance(noise, w, w)).toBeGreaterThan(0.5);
		const motion = sharpnessBalance(moved, w, w);
		expect(motion).toBeLessThan(0.12);
		// Its Laplacian still says sharp: the vertical detail is all there.
		expect(laplacianVariance(moved, w, w)).toBeGreaterThan(1000);
	});
});

describe('eyeAspectRatio', () => {
	it('is about 0.4 for the open synthetic eye and falls when the lids close', () => {
		const l = frontalLandmarks(0, 0, 100);
		expect(eyeAspectRatio(l, 36)).toBeCloseTo(0.4, 5);
		for (const i of [37, 38, 40, 41]) l[2 * i + 1] = l[2 * 36 + 1];
		expect(eyeAspectRatio(l, 36)).toBeCloseTo(0, 5);
		expect(eyeAspectRatio(l, 42)).toBeCloseTo(0.4, 5);
	});
});

describe('headPose', () => {
	it('is 0/0/0 for a frontal face', () => {
		const pose = headPose(frontalLandmarks());
		expect(pose.yaw).toBeCloseTo(0, 3);
		expect(pose.pitch).toBeCloseTo(0, 3);
		expect(pose.roll).toBeCloseTo(0, 3);
	});
	it('measures roll as the in-plane rotation, without changing yaw or pitch', () => {
		const pose = headPose(transformLandmarks(frontalLandmarks(200, 200), rotation(12, 200, 200)));
		expect(pose.roll).toBeCloseTo(12, 4);
		expect(pose.yaw).toBeCloseTo(0, 4);
		expect(pose.pitch).toBeCloseTo(0, 4);
	});
	it('turns a nose shifted towards the image right into positive yaw, and a lower nose into positive pitch', () => {
		const l = frontalLandmarks(200, 200, 60);
		l[60] += 15;
		expect(headPose(l).yaw).toBeGreaterThan(10);
		const m = frontalLandmarks(200, 200, 60);
		m[61] += 10;
		expect(headPose(m).pitch).toBeGreaterThan(10);
		expect(headPose(m).yaw).toBeCloseTo(0, 3);
	});
});

describe('placement and measureFace', () => {
	it('scales face size to a 640-px-wide frame and measures the centre offset', () => {
		expect(placement({ x: 540, y: 260, width: 200, height: 200 }, 1280, 720)).toEqual({ faceSize: 100, centreOffset: 0 });
		expect(placement({ x: 0, y: 0, width: 64, height: 48 }, 640, 480).centreOffset).toBeCloseTo(0.45, 6);
	});
	it('measures luminance and sharpness on the face crop', () => {
		const image = createRgba(200, 200);
		for (let y = 0; y < 200; y++) for (let x = 0; x < 200; x++) {
			const v = (Math.floor(x / 4) + Math.floor(y / 4)) % 2 ? 160 : 40;
			image.data.set([v, v, v, 255], (y * 200 + x) * 4);
		}
		const m = measureFace(image, { x: 50, y: 50, width: 100, height: 100 }, frontalLandmarks(100, 100, 40));
		expect(m.luminance).toBeGreaterThan(90);
		expect(m.luminance).toBeLessThan(110);
		expect(m.sharpness).toBeGreaterThan(1000);
		expect(m.faceSize).toBeCloseTo(320, 6);
		expect(m.eyeAspectRatio).toBeCloseTo(0.4, 5);
	});
});

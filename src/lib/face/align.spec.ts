import { describe, expect, it } from 'vitest';
import { alignFace, applyAffine, ARCFACE_REFERENCE, invertAffine, similarityTransform } from './align.ts';
import { createRgba, type Affine, type Point } from './image.ts';
import type { Landmarks5 } from './landmarks.ts';
import { FEATURE_FORMAT } from './sample.ts';

function similarity(scale: number, degrees: number, tx: number, ty: number): Affine {
	const r = (degrees * Math.PI) / 180;
	const a = scale * Math.cos(r);
	const b = scale * Math.sin(r);
	return [a, -b, tx, b, a, ty];
}

describe('similarityTransform', () => {
	it('recovers an exact similarity from five points', () => {
		const truth = similarity(0.37, 23, -40, 12);
		const src: Point[] = [
			{ x: 210, y: 180 }, { x: 290, y: 185 }, { x: 250, y: 230 }, { x: 220, y: 270 }, { x: 282, y: 268 }
		];
		const dst = src.map((p) => applyAffine(truth, p));
		const m = similarityTransform(src, dst);
		m.forEach((v, i) => expect(v).toBeCloseTo(truth[i], 9));
	});

	it('is the least-squares fit when the points are noisy (residual below any perturbed fit)', () => {
		const src: Point[] = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 5, y: 6 }, { x: 1, y: 10 }, { x: 9, y: 11 }];
		const dst = src.map((p, i) => applyAffine(similarity(2, -10, 3, 4), { x: p.x + (i % 2 ? 0.3 : -0.2), y: p.y + (i % 3) * 0.1 }));
		const m = similarityTransform(src, dst);
		const residual = (t: Affine) => src.reduce((s, p, i) => {
			const q = applyAffine(t, p);
			return s + (q.x - dst[i].x) ** 2 + (q.y - dst[i].y) ** 2;
		}, 0);
		const best = residual(m);
		for (const [k, delta] of [[0, 0.01], [1, 0.01], [2, 0.1], [5, -0.1]] as const) {
			const p = [...m] as Affine;
			p[k] += delta;
			if (k === 0) p[4] += delta; // keep it a similarity
			if (k === 1) p[3] -= delta;
			expect(residual(p)).toBeGreaterThan(best);
		}
	});

	it('never reflects', () => {
		const src: Point[] = [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 0, y: 1 }];
		const mirrored = src.map((p) => ({ x: -p.x, y: p.y }));
		const [a, b, , d, e] = similarityTransform(src, mirrored);
		expect(a * e - b * d).toBeGreaterThanOrEqual(0);
	});
});

describe('invertAffine', () => {
	it('undoes the map', () => {
		const m = similarity(1.7, 40, 5, -9);
		const p = applyAffine(invertAffine(m), applyAffine(m, { x: 3, y: 7 }));
		expect(p.x).toBeCloseTo(3, 10);
		expect(p.y).toBeCloseTo(7, 10);
	});
});

describe('alignFace', () => {
	it('puts the five landmarks of a rotated, scaled face on the ArcFace template, in BGR (v − 127) / 128', () => {
		// A 400×400 image with small red squares where a rotated face's five points are.
		const image = createRgba(400, 400);
		const toImage = similarity(2.2, 17, 120, 60);
		const five = ARCFACE_REFERENCE.map((p) => applyAffine(toImage, p)) as Landmarks5;
		for (const p of five) {
			for (let y = Math.round(p.y) - 3; y <= Math.round(p.y) + 3; y++) {
				for (let x = Math.round(p.x) - 3; x <= Math.round(p.x) + 3; x++) {
					const i = (y * 400 + x) * 4;
					image.data[i] = 255;
					image.data[i + 3] = 255;
				}
			}
		}
		const out = alignFace(image, five);
		const plane = 112 * 112;
		for (const q of ARCFACE_REFERENCE) {
			const i = Math.round(q.y) * 112 + Math.round(q.x);
			expect(out[i]).toBeCloseTo((0 - 127) / 128, 5); // B plane: no blue
			expect(out[2 * plane + i]).toBeGreaterThan(0.9); // R plane: red, (255 − 127) / 128 = 1
		}
		// Far from every point the crop is black.
		expect(out[2 * plane + 5 * 112 + 5]).toBeCloseTo(-127 / 128, 5);
		expect(FEATURE_FORMAT.channels).toBe('bgr');
	});
});

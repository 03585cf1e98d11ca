import { describe, expect, it } from 'vitest';
import type { FaceAnalysis } from '#lib/face/face-pipeline.ts';
import type { RgbaImage } from '#lib/face/image.ts';
import type { Landmarks5 } from '#lib/face/landmarks.ts';
import { cutByEdge, featuresClear, greyFramed } from './face-edges.ts';

// Eyes at y 80, nose 110, mouth 140, in a 100-px-wide face whose box starts at (50, 40).
const five = (dx = 0, dy = 0): Landmarks5 => [
	{ x: 80 + dx, y: 80 + dy },
	{ x: 120 + dx, y: 80 + dy },
	{ x: 100 + dx, y: 110 + dy },
	{ x: 85 + dx, y: 140 + dy },
	{ x: 115 + dx, y: 140 + dy }
];
const face = (landmarks5: Landmarks5): FaceAnalysis => ({ box: { x: 50, y: 40, width: 100, height: 120 }, score: 1, landmarks: new Float32Array(136), landmarks5, embedding: null, liveness: null, quality: {} as never });

function image(width: number, height: number, value: number): RgbaImage {
	const data = new Uint8Array(width * height * 4).fill(value);
	return { data, width, height };
}

describe('featuresClear', () => {
	it('wants a tenth of the face width between every point and every edge', () => {
		const photo = { x: 0, y: 0, width: 200, height: 200 };
		expect(featuresClear(five(), photo, 100)).toBe(true);
		// The eyes 9 px below the top edge: the eyelids above them are cut.
		expect(featuresClear(five(0, -71), photo, 100)).toBe(false);
		expect(featuresClear(five(0, -70), photo, 100)).toBe(true);
		// The mouth 9 px above the bottom edge.
		expect(featuresClear(five(0, 51), photo, 100)).toBe(false);
		expect(featuresClear(five(), { x: 75, y: 0, width: 125, height: 200 }, 100)).toBe(false);
	});
});

describe('greyFramed', () => {
	it('copies the photo around the face and greys what lies outside it', () => {
		const src = image(200, 200, 7);
		// The photo is the view's middle 100 × 100 (a padded view); the face box 40 × 40 at (90, 90).
		const { view, corner } = greyFramed(src, { x: 50, y: 50, width: 100, height: 100 }, { x: 90, y: 90, width: 40, height: 40 });
		expect(view.width).toBe(120);
		expect(view.height).toBe(120);
		expect(corner).toEqual({ x: 50, y: 50 });
		const at = (x: number, y: number) => view.data[(y * view.width + x) * 4];
		expect(at(0, 0)).toBe(7); // the photo's corner
		expect(at(99, 99)).toBe(7);
		expect(at(100, 50)).toBe(0x80); // right of the photo
		expect(at(50, 119)).toBe(0x80); // below it
		expect(view.data[3]).toBe(7);
		expect(view.data[(100 * 120 + 100) * 4 + 3]).toBe(255);
	});

	it('stays inside the image when the face sits at its corner', () => {
		const { view, corner } = greyFramed(image(60, 60, 9), { x: 0, y: 0, width: 60, height: 60 }, { x: 0, y: 0, width: 30, height: 30 });
		expect(corner).toEqual({ x: -30, y: -30 });
		expect(view.data[0]).toBe(0x80);
		expect(view.data[(30 * view.width + 30) * 4]).toBe(9);
		expect(view.data[(89 * view.width + 89) * 4]).toBe(9); // the image's last pixel
		expect(view.data[(10 * view.width + 45) * 4]).toBe(0x80); // above it
	});
});

describe('cutByEdge', () => {
	const photo = { x: 0, y: 0, width: 200, height: 200 };
	const src = image(200, 200, 100);
	/** An analysis that finds one face with these points (in the framed view's pixels), or none. */
	const finds = (points: Landmarks5 | null) => async (view: RgbaImage) => {
		expect(view.width).toBe(360); // three times the face box's larger side
		return points ? [face(points)] : [];
	};
	// The framed square's corner in the image: the box centre (100, 100) less half of 360.
	const inView = (p: Landmarks5) => p.map(({ x, y }) => ({ x: x + 80, y: y + 80 })) as Landmarks5;

	it('leaves a face whose points stay put and have room', async () => {
		expect(await cutByEdge(finds(inView(five(2, 1))), src, photo, face(five()))).toBe(false);
	});

	it('calls a face cut when its points move once the photo has room around it', async () => {
		// Moved by 10 px (a tenth of the face's width): they were guessed.
		expect(await cutByEdge(finds(inView(five(0, -10))), src, photo, face(five()))).toBe(true);
		expect(await cutByEdge(finds(inView(five(0, -7))), src, photo, face(five()))).toBe(false);
	});

	it('calls a face cut when its points are too near the edge, and not when it is not found again', async () => {
		const high = five(0, -75);
		expect(await cutByEdge(finds(inView(high)), src, photo, face(high))).toBe(true);
		expect(await cutByEdge(finds(null), src, photo, face(five()))).toBe(false);
	});
});

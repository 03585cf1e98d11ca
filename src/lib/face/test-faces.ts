// Synthetic landmarks for the unit tests: a frontal face, and helpers to move it.
import type { Affine } from './image.ts';
import type { Landmarks68 } from './landmarks.ts';

/**
 * A frontal face's 68 landmarks around (cx, cy) with an inter-ocular distance of `eye` pixels.
 * Only the points our code reads are placed carefully (cheeks 2/14, nose 30, eyes, mouth corners);
 * the others sit on a plausible outline.
 */
export function frontalLandmarks(cx = 200, cy = 200, eye = 60): Landmarks68 {
	const l = new Float32Array(136);
	const set = (i: number, x: number, y: number) => {
		l[2 * i] = cx + x * eye;
		l[2 * i + 1] = cy + y * eye;
	};
	for (let i = 0; i <= 16; i++) {
		const t = Math.PI * (i / 16);
		set(i, -0.95 * Math.cos(t), -0.15 + 0.95 * Math.sin(t));
	}
	for (let i = 17; i <= 26; i++) set(i, -0.8 + (i - 17) * 0.18, -0.45);
	for (let i = 27; i <= 30; i++) set(i, 0, -0.2 + (i - 27) * 0.2);
	for (let i = 31; i <= 35; i++) set(i, -0.2 + (i - 31) * 0.1, 0.48);
	const eyeShape = (first: number, ex: number) => {
		const pts = [[-0.15, 0], [-0.05, -0.06], [0.05, -0.06], [0.15, 0], [0.05, 0.06], [-0.05, 0.06]];
		pts.forEach(([x, y], k) => set(first + k, ex + x, -0.2 + y));
	};
	eyeShape(36, -0.5);
	eyeShape(42, 0.5);
	for (let i = 48; i <= 59; i++) {
		const t = (2 * Math.PI * (i - 48)) / 12;
		set(i, -0.4 * Math.cos(t), 0.85 + 0.12 * Math.sin(t));
	}
	for (let i = 60; i <= 67; i++) {
		const t = (2 * Math.PI * (i - 60)) / 8;
		set(i, -0.3 * Math.cos(t), 0.85 + 0.05 * Math.sin(t));
	}
	// The nose tip sits a bit more than halfway between the eye line and the mouth, as on real faces.
	set(30, 0, -0.2 + 0.55 * 1.05);
	return l;
}

/** Applies an affine map to every landmark. */
export function transformLandmarks(l: Landmarks68, [a, b, c, d, e, f]: Affine): Landmarks68 {
	const out = new Float32Array(l.length);
	for (let i = 0; i < l.length; i += 2) {
		out[i] = a * l[i] + b * l[i + 1] + c;
		out[i + 1] = d * l[i] + e * l[i + 1] + f;
	}
	return out;
}

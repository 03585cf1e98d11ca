import { describe, expect, it } from 'vitest';
import { decodeDetections } from './detect.ts';

function outputs(priors: Array<{ score: number; box: [number, number, number, number] }>, total = 4420) {
	const scores = new Float32Array(total * 2);
	const boxes = new Float32Array(total * 4);
	for (let i = 0; i < total; i++) scores[2 * i] = 1;
	priors.forEach((p, i) => {
		const at = i * 37; // spread over the prior list
		scores[2 * at] = 1 - p.score;
		scores[2 * at + 1] = p.score;
		boxes.set(p.box, 4 * at);
	});
	return { scores, boxes };
}

describe('decodeDetections', () => {
	it('keeps face-class scores ≥ 0.65, scales corners to pixels and merges overlapping priors', () => {
		const { scores, boxes } = outputs([
			{ score: 0.99, box: [0.25, 0.25, 0.5, 0.75] },
			{ score: 0.9, box: [0.26, 0.25, 0.51, 0.75] }, // same face
			{ score: 0.8, box: [0.7, 0.1, 0.8, 0.3] },
			{ score: 0.6, box: [0.0, 0.0, 0.1, 0.1] } // below threshold
		]);
		const faces = decodeDetections(scores, boxes, 640, 480);
		expect(faces).toHaveLength(2);
		expect(faces[0].score).toBeCloseTo(0.99, 5);
		expect(faces[0].box.x).toBeCloseTo(160, 3);
		expect(faces[0].box.y).toBeCloseTo(120, 3);
		expect(faces[0].box.width).toBeCloseTo(160, 3);
		expect(faces[0].box.height).toBeCloseTo(240, 3);
		expect(faces[1].box.x).toBeCloseTo(448, 3);
	});

	it('ignores degenerate boxes and finds nothing in an empty output', () => {
		const { scores, boxes } = outputs([{ score: 0.99, box: [0.5, 0.5, 0.4, 0.6] }]);
		expect(decodeDetections(scores, boxes, 640, 480)).toEqual([]);
		expect(decodeDetections(new Float32Array(0), new Float32Array(0), 640, 480)).toEqual([]);
	});
});

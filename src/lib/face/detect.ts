// Decoding of fr_detect (an RFB-320 "ultra-light" detector: 4420 priors, box corners already decoded).
import { nms } from './box.ts';
import { DETECT_NMS_IOU, DETECT_SCORE_THRESHOLD } from './face-thresholds.ts';
import type { Box } from './image.ts';

export interface Detection {
	/** Face box in source-image pixels, as the model gives it (not squared). */
	box: Box;
	/** Face-class probability, 0–1. */
	score: number;
}

/**
 * Turns fr_detect's `scores` [N, 2] (background, face) and `boxes` [N, 4] (x1, y1, x2, y2 in 0–1 of the
 * input) into face boxes in pixels of an image of `width`×`height`, after thresholding and NMS.
 */
export function decodeDetections(
	scores: Float32Array,
	boxes: Float32Array,
	width: number,
	height: number,
	scoreThreshold = DETECT_SCORE_THRESHOLD,
	iouThreshold = DETECT_NMS_IOU
): Detection[] {
	const count = Math.min(scores.length / 2, boxes.length / 4);
	const candidates: Detection[] = [];
	for (let i = 0; i < count; i++) {
		const score = scores[2 * i + 1];
		if (!(score >= scoreThreshold)) continue;
		const x1 = boxes[4 * i] * width;
		const y1 = boxes[4 * i + 1] * height;
		const x2 = boxes[4 * i + 2] * width;
		const y2 = boxes[4 * i + 3] * height;
		if (x2 <= x1 || y2 <= y1) continue;
		candidates.push({ box: { x: x1, y: y1, width: x2 - x1, height: y2 - y1 }, score });
	}
	return nms(candidates, iouThreshold);
}

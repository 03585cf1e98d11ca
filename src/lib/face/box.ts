// Box arithmetic shared by detection, landmark and liveness crops.
import type { Box } from './image.ts';

/** Intersection over union of two boxes (0 when either is empty). */
export function iou(a: Box, b: Box): number {
	const x1 = Math.max(a.x, b.x);
	const y1 = Math.max(a.y, b.y);
	const x2 = Math.min(a.x + a.width, b.x + b.width);
	const y2 = Math.min(a.y + a.height, b.y + b.height);
	const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
	const union = a.width * a.height + b.width * b.height - inter;
	return union > 0 ? inter / union : 0;
}

/** Greedy non-maximum suppression: keeps the best-scoring box of every group overlapping by more than `threshold` IoU. */
export function nms<T extends { box: Box; score: number }>(items: readonly T[], threshold: number): T[] {
	const sorted = [...items].sort((p, q) => q.score - p.score);
	const kept: T[] = [];
	for (const item of sorted) {
		if (kept.every((k) => iou(k.box, item.box) <= threshold)) kept.push(item);
	}
	return kept;
}

/** A square box with the side of the box's height, on the same centre (as faceplugin squares fr_detect boxes). */
export function squareBox(box: Box): Box {
	const side = box.height;
	return { x: box.x + box.width / 2 - side / 2, y: box.y, width: side, height: side };
}

/** The box scaled by `factor` about its centre. */
export function scaleBox(box: Box, factor: number): Box {
	const width = box.width * factor;
	const height = box.height * factor;
	return { x: box.x + box.width / 2 - width / 2, y: box.y + box.height / 2 - height / 2, width, height };
}

/** Moves the box inside a `width`×`height` image without resizing it; a box larger than the image is shrunk to fit. */
export function shiftInside(box: Box, width: number, height: number): Box {
	const w = Math.min(box.width, width);
	const h = Math.min(box.height, height);
	const x = Math.min(Math.max(box.x + (box.width - w) / 2, 0), width - w);
	const y = Math.min(Math.max(box.y + (box.height - h) / 2, 0), height - h);
	return { x, y, width: w, height: h };
}

/** The part of the box inside the image (may be empty). */
export function clipBox(box: Box, width: number, height: number): Box {
	const x = Math.max(0, box.x);
	const y = Math.max(0, box.y);
	return {
		x,
		y,
		width: Math.max(0, Math.min(width, box.x + box.width) - x),
		height: Math.max(0, Math.min(height, box.y + box.height) - y)
	};
}

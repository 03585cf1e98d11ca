import { minAreaRect, rectCorners, type RotatedRect } from './polygon.ts';
import type { Point, Quad } from './raster.ts';

export interface TextBox {
	/** Corners TL, TR, BR, BL in the coordinates of the image the detector was given. */
	quad: Quad;
	rect: RotatedRect;
	score: number;
}

export interface DbOptions {
	/** Probability above which a pixel is text (PaddleOCR `det_db_thresh`). */
	threshold: number;
	/** Mean probability a region needs to be kept (`det_db_box_thresh`). */
	boxThreshold: number;
	/** How far the shrunk text kernel is grown back (`det_db_unclip_ratio`). */
	unclipRatio: number;
	minSize: number;
	maxCandidates: number;
}

export const DB_DEFAULTS: DbOptions = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, minSize: 3, maxCandidates: 1000 };

/**
 * DB (differentiable binarisation) post-processing of a text probability map: threshold, connected
 * regions, minimum-area rectangle, score filter, unclip. `scaleX`/`scaleY` map map pixels to the
 * output frame (original image size / map size).
 */
export function dbPostprocess(
	prob: Float32Array,
	width: number,
	height: number,
	scaleX: number,
	scaleY: number,
	options: Partial<DbOptions> = {}
): TextBox[] {
	const o = { ...DB_DEFAULTS, ...options };
	const labels = new Int32Array(width * height);
	const boxes: TextBox[] = [];
	const stack: number[] = [];
	// Row extremes of the region being filled (-1: row not reached), and its rows in the order reached.
	const rowMin = new Int32Array(height).fill(-1);
	const rowMax = new Int32Array(height).fill(-1);
	const rows: number[] = [];
	let next = 0;
	for (let start = 0; start < labels.length; start++) {
		if (labels[start] !== 0 || prob[start] <= o.threshold) continue;
		next++;
		labels[start] = next;
		stack.push(start);
		// Row extremes are enough for the convex hull of a region.
		let sum = 0;
		let count = 0;
		while (stack.length) {
			const i = stack.pop()!;
			const x = i % width;
			const y = (i - x) / width;
			sum += prob[i];
			count++;
			if (rowMin[y] < 0) {
				rows.push(y);
				rowMin[y] = rowMax[y] = x;
			} else if (x < rowMin[y]) rowMin[y] = x;
			else if (x > rowMax[y]) rowMax[y] = x;
			for (let dy = -1; dy <= 1; dy++) {
				const yy = y + dy;
				if (yy < 0 || yy >= height) continue;
				for (let dx = -1; dx <= 1; dx++) {
					const xx = x + dx;
					if (xx < 0 || xx >= width) continue;
					const j = yy * width + xx;
					if (labels[j] === 0 && prob[j] > o.threshold) {
						labels[j] = next;
						stack.push(j);
					}
				}
			}
		}
		const keep = count >= 4 && sum / count >= o.boxThreshold;
		const pts: Point[] = [];
		for (const y of rows) {
			const x = rowMin[y], xr = rowMax[y];
			if (keep) pts.push([x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1], [xr, y], [xr + 1, y], [xr, y + 1], [xr + 1, y + 1]);
			rowMin[y] = rowMax[y] = -1;
		}
		rows.length = 0;
		if (!keep) continue;
		const r = minAreaRect(pts);
		if (Math.min(r.width, r.height) < o.minSize) continue;
		// Unclip: offset the rectangle outward by area × ratio / perimeter (as pyclipper does for a rectangle).
		const d = (r.width * r.height * o.unclipRatio) / (2 * (r.width + r.height));
		const grown: RotatedRect = { ...r, width: r.width + 2 * d, height: r.height + 2 * d };
		if (Math.min(grown.width, grown.height) < o.minSize + 2) continue;
		const scaled = rectCorners(grown).map(([x, y]) => [x * scaleX, y * scaleY] as const);
		const quad: [Point, Point, Point, Point] = [scaled[0], scaled[1], scaled[2], scaled[3]];
		boxes.push({ quad, rect: scaleRect(grown, scaleX, scaleY), score: sum / count });
		if (boxes.length >= o.maxCandidates) break;
	}
	return boxes;
}

function scaleRect(r: RotatedRect, sx: number, sy: number): RotatedRect {
	const a = (r.angle * Math.PI) / 180;
	// Non-uniform scaling changes the angle slightly; recompute from the scaled direction vector.
	const ux = Math.cos(a) * sx, uy = Math.sin(a) * sy;
	const vx = -Math.sin(a) * sx, vy = Math.cos(a) * sy;
	return {
		cx: r.cx * sx,
		cy: r.cy * sy,
		width: r.width * Math.hypot(ux, uy),
		height: r.height * Math.hypot(vx, vy),
		angle: (Math.atan2(uy, ux) * 180) / Math.PI
	};
}

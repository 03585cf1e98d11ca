import type { Point, Quad } from './raster.ts';

const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Convex hull (Andrew's monotone chain), counter-clockwise in a y-down frame's maths sense. */
export function convexHull(points: readonly Point[]): Point[] {
	const pts = points.slice().sort((p, q) => p[0] - q[0] || p[1] - q[1]);
	if (pts.length < 3) return pts;
	const lower: Point[] = [];
	for (const p of pts) {
		while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
		lower.push(p);
	}
	const upper: Point[] = [];
	for (let i = pts.length - 1; i >= 0; i--) {
		const p = pts[i];
		while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
		upper.push(p);
	}
	upper.pop();
	lower.pop();
	return lower.concat(upper);
}

export function polygonArea(poly: readonly Point[]): number {
	let a = 0;
	for (let i = 0; i < poly.length; i++) {
		const p = poly[i];
		const q = poly[(i + 1) % poly.length];
		a += p[0] * q[1] - q[0] * p[1];
	}
	return Math.abs(a) / 2;
}

export interface RotatedRect {
	cx: number;
	cy: number;
	/** Length along `angle`. */
	width: number;
	height: number;
	/** Degrees of the long side from the x axis, in (-90, 90]; y points down, so positive is clockwise on screen. */
	angle: number;
}

/** Minimum-area enclosing rectangle of a point set (rotating calipers over the hull edges). */
export function minAreaRect(points: readonly Point[]): RotatedRect {
	const hull = convexHull(points);
	if (hull.length === 0) return { cx: 0, cy: 0, width: 0, height: 0, angle: 0 };
	if (hull.length < 3) {
		const [p, q] = [hull[0], hull[hull.length - 1]];
		const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
		return { cx: (p[0] + q[0]) / 2, cy: (p[1] + q[1]) / 2, width: len, height: 0, angle: (Math.atan2(q[1] - p[1], q[0] - p[0]) * 180) / Math.PI };
	}
	let best: RotatedRect | null = null;
	let bestArea = Infinity;
	for (let i = 0; i < hull.length; i++) {
		const p = hull[i];
		const q = hull[(i + 1) % hull.length];
		const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
		if (len === 0) continue;
		const ux = (q[0] - p[0]) / len;
		const uy = (q[1] - p[1]) / len;
		let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
		for (const h of hull) {
			const u = h[0] * ux + h[1] * uy;
			const v = -h[0] * uy + h[1] * ux;
			if (u < minU) minU = u;
			if (u > maxU) maxU = u;
			if (v < minV) minV = v;
			if (v > maxV) maxV = v;
		}
		const area = (maxU - minU) * (maxV - minV);
		if (area < bestArea) {
			bestArea = area;
			const cu = (minU + maxU) / 2;
			const cv = (minV + maxV) / 2;
			best = { cx: cu * ux - cv * uy, cy: cu * uy + cv * ux, width: maxU - minU, height: maxV - minV, angle: (Math.atan2(uy, ux) * 180) / Math.PI };
		}
	}
	return normaliseRect(best!);
}

/** Puts the long side first and its angle in (-90, 90]. */
export function normaliseRect(r: RotatedRect): RotatedRect {
	let { width, height, angle } = r;
	if (height > width) {
		[width, height] = [height, width];
		angle += 90;
	}
	while (angle > 90) angle -= 180;
	while (angle <= -90) angle += 180;
	return { ...r, width, height, angle };
}

/** Corners of a rotated rectangle, ordered top-left, top-right, bottom-right, bottom-left. */
export function rectCorners(r: RotatedRect): Quad {
	const a = (r.angle * Math.PI) / 180;
	const ux = Math.cos(a), uy = Math.sin(a);
	const hw = r.width / 2, hh = r.height / 2;
	const pts: Point[] = [
		[r.cx - ux * hw + uy * hh, r.cy - uy * hw - ux * hh],
		[r.cx + ux * hw + uy * hh, r.cy + uy * hw - ux * hh],
		[r.cx + ux * hw - uy * hh, r.cy + uy * hw + ux * hh],
		[r.cx - ux * hw - uy * hh, r.cy - uy * hw + ux * hh]
	];
	return orderQuad(pts);
}

/** Orders four corners as top-left, top-right, bottom-right, bottom-left (by angle around the centroid). */
export function orderQuad(points: readonly Point[]): Quad {
	const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
	const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
	const sorted = points.slice().sort((p, q) => Math.atan2(p[1] - cy, p[0] - cx) - Math.atan2(q[1] - cy, q[0] - cx));
	// atan2 order in a y-down frame: from the left (-π) through the top to the right; top-left is the
	// point with the smallest x + y.
	let start = 0;
	for (let i = 1; i < 4; i++) if (sorted[i][0] + sorted[i][1] < sorted[start][0] + sorted[start][1]) start = i;
	const q = [0, 1, 2, 3].map((k) => sorted[(start + k) % 4]);
	return [q[0], q[1], q[2], q[3]];
}

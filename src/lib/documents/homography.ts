import type { Point, Quad } from './raster.ts';

/** Row-major 3×3 matrix. */
export type Matrix3 = readonly [number, number, number, number, number, number, number, number, number];

/** Solves A·x = b by Gaussian elimination with partial pivoting; null when singular. */
function solveLinear(a: number[][], b: number[]): number[] | null {
	const n = b.length;
	const m = a.map((row, i) => [...row, b[i]]);
	for (let col = 0; col < n; col++) {
		let pivot = col;
		for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
		if (Math.abs(m[pivot][col]) < 1e-12) return null;
		[m[col], m[pivot]] = [m[pivot], m[col]];
		for (let r = 0; r < n; r++) {
			if (r === col) continue;
			const f = m[r][col] / m[col][col];
			if (f === 0) continue;
			for (let k = col; k <= n; k++) m[r][k] -= f * m[col][k];
		}
	}
	return m.map((row, i) => row[n] / row[i]);
}

/** The homography that maps each `from[i]` onto `to[i]` (four point pairs); null for degenerate quads. */
export function homographyFromPoints(from: readonly Point[], to: readonly Point[]): Matrix3 | null {
	const a: number[][] = [];
	const b: number[] = [];
	for (let i = 0; i < 4; i++) {
		const [x, y] = from[i];
		const [u, v] = to[i];
		a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
		b.push(u);
		a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
		b.push(v);
	}
	const h = solveLinear(a, b);
	if (!h) return null;
	return [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1];
}

export function applyHomography(h: Matrix3, p: Point): Point {
	const w = h[6] * p[0] + h[7] * p[1] + h[8];
	return [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w];
}

export function invertMatrix3(m: Matrix3): Matrix3 | null {
	const [a, b, c, d, e, f, g, h, i] = m;
	const A = e * i - f * h;
	const B = -(d * i - f * g);
	const C = d * h - e * g;
	const det = a * A + b * B + c * C;
	if (Math.abs(det) < 1e-12) return null;
	const s = 1 / det;
	return [A * s, -(b * i - c * h) * s, (b * f - c * e) * s, B * s, (a * i - c * g) * s, -(a * f - c * d) * s, C * s, -(a * h - b * g) * s, (a * e - b * d) * s];
}

/** Rotation by `degrees` (counter-clockwise on screen, y pointing down) about (cx, cy). */
export function rotationAbout(degrees: number, cx: number, cy: number): Matrix3 {
	const r = (degrees * Math.PI) / 180;
	const cos = Math.cos(r);
	const sin = Math.sin(r);
	// y points down, so a visually counter-clockwise turn is x' = x cos + y sin, y' = -x sin + y cos.
	return [cos, sin, cx - cos * cx - sin * cy, -sin, cos, cy + sin * cx - cos * cy, 0, 0, 1];
}

/** Side lengths of a quad: the size a perspective-corrected rectangle should get. */
export function quadSize(q: Quad): { width: number; height: number } {
	const d = (p: Point, r: Point) => Math.hypot(p[0] - r[0], p[1] - r[1]);
	return { width: Math.max(d(q[0], q[1]), d(q[3], q[2])), height: Math.max(d(q[0], q[3]), d(q[1], q[2])) };
}

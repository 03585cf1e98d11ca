import { convexHull, orderQuad, polygonArea } from './polygon.ts';
import { resize, type Point, type Quad, type Raster } from './raster.ts';

export interface DocumentQuadResult {
	quad: Quad;
	/** Share of the image the document covers. */
	coverage: number;
}

const WORK_SIDE = 256;

function otsu(hist: Float64Array, total: number): number {
	let sumAll = 0;
	for (let i = 0; i < hist.length; i++) sumAll += i * hist[i];
	let sumB = 0, wB = 0, best = 0, bestVar = -1;
	for (let t = 0; t < hist.length; t++) {
		wB += hist[t];
		if (wB === 0) continue;
		const wF = total - wB;
		if (wF === 0) break;
		sumB += t * hist[t];
		const mB = sumB / wB, mF = (sumAll - sumB) / wF;
		const v = wB * wF * (mB - mF) ** 2;
		if (v > bestVar) (bestVar = v), (best = t);
	}
	return best;
}

/** Largest-area quadrilateral with corners on the hull (O(n³) over a thinned hull). */
function largestInscribedQuad(hull: readonly Point[]): Point[] | null {
	let pts = hull.slice();
	if (pts.length > 60) {
		const step = pts.length / 60;
		pts = Array.from({ length: 60 }, (_, i) => pts[Math.floor(i * step)]);
	}
	const n = pts.length;
	if (n < 4) return null;
	const tri = (a: Point, b: Point, c: Point) => Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
	let best: Point[] | null = null;
	let bestArea = 0;
	for (let i = 0; i < n; i++) {
		for (let j = i + 2; j < n; j++) {
			let left = 0, li = -1;
			for (let k = i + 1; k < j; k++) {
				const a = tri(pts[i], pts[j], pts[k]);
				if (a > left) (left = a), (li = k);
			}
			let right = 0, ri = -1;
			for (let k = j + 1; k < n + i; k++) {
				const a = tri(pts[i], pts[j], pts[k % n]);
				if (a > right) (right = a), (ri = k % n);
			}
			if (li >= 0 && ri >= 0 && left + right > bestArea) {
				bestArea = left + right;
				best = [pts[i], pts[li], pts[j], pts[ri]];
			}
		}
	}
	return best;
}

/**
 * Straightens the sides: fits a line (total least squares) to the boundary points near each side,
 * away from the corners, and intersects neighbouring lines. Rounded card corners otherwise pull the
 * inscribed quad's corners inward.
 */
function refineCorners(q: Quad, boundary: readonly Point[]): Quad {
	const lines: { px: number; py: number; dx: number; dy: number }[] = [];
	for (let i = 0; i < 4; i++) {
		const a = q[i], b = q[(i + 1) % 4];
		const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
		const ux = (b[0] - a[0]) / len, uy = (b[1] - a[1]) / len;
		const near = boundary.filter((p) => {
			const t = (p[0] - a[0]) * ux + (p[1] - a[1]) * uy;
			const d = Math.abs(-(p[0] - a[0]) * uy + (p[1] - a[1]) * ux);
			return t > 0.15 * len && t < 0.85 * len && d < 8;
		});
		if (near.length < 5) return q;
		const mx = near.reduce((s, p) => s + p[0], 0) / near.length;
		const my = near.reduce((s, p) => s + p[1], 0) / near.length;
		let sxx = 0, sxy = 0, syy = 0;
		for (const p of near) {
			sxx += (p[0] - mx) ** 2;
			sxy += (p[0] - mx) * (p[1] - my);
			syy += (p[1] - my) ** 2;
		}
		const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
		lines.push({ px: mx, py: my, dx: Math.cos(angle), dy: Math.sin(angle) });
	}
	const out: Point[] = [];
	for (let i = 0; i < 4; i++) {
		const l1 = lines[(i + 3) % 4], l2 = lines[i];
		const den = l1.dx * l2.dy - l1.dy * l2.dx;
		if (Math.abs(den) < 1e-6) return q;
		const t = ((l2.px - l1.px) * l2.dy - (l2.py - l1.py) * l2.dx) / den;
		out.push([l1.px + t * l1.dx, l1.py + t * l1.dy]);
	}
	const moved = out.some((p, i) => Math.hypot(p[0] - q[i][0], p[1] - q[i][1]) > 0.15 * Math.hypot(q[2][0] - q[0][0], q[2][1] - q[0][1]));
	return moved ? q : [out[0], out[1], out[2], out[3]];
}

function interiorAnglesOk(q: Quad, min = 55, max = 125): boolean {
	for (let i = 0; i < 4; i++) {
		const p = q[(i + 3) % 4], c = q[i], n = q[(i + 1) % 4];
		const a = Math.atan2(p[1] - c[1], p[0] - c[0]) - Math.atan2(n[1] - c[1], n[0] - c[0]);
		let deg = Math.abs((a * 180) / Math.PI);
		if (deg > 180) deg = 360 - deg;
		if (deg < min || deg > max) return false;
	}
	return true;
}

/**
 * The desk's colour: the median of the image's border (two pixels deep), or, where a shadow falls
 * across the desk (the phone's, a hand's), the medians of its lit and its shadowed part. With one
 * colour, a shadowed corner of the page is as far from the lit desk as the desk in shadow, and the
 * outline found was the shadow's edge (on generated pages under a hard shadow, 44 of 65 outlines
 * missing or 5–62 % off the page's shape). Two parts when the border's luma splits (Otsu) into
 * groups of at least a tenth of it each, the darker at most SHADOWED of the lighter's light.
 */
function deskColours(small: Raster, border: readonly number[]): number[][] {
	const { channels: c, data } = small;
	const luma = border.map((i) => (data[i * c] * 77 + data[i * c + 1] * 150 + data[i * c + 2] * 29) >> 8);
	const hist = new Float64Array(256);
	for (const v of luma) hist[v]++;
	const split = otsu(hist, luma.length);
	const dark = border.filter((_, i) => luma[i] <= split);
	const light = border.filter((_, i) => luma[i] > split);
	if (Math.min(dark.length, light.length) < 0.1 * border.length) return [medianColour(small, border)];
	const [d, l] = [medianColour(small, dark), medianColour(small, light)];
	const lum = (m: number[]) => 0.3 * m[0] + 0.59 * m[1] + 0.11 * m[2];
	return lum(d) <= SHADOWED * lum(l) ? [d, l] : [medianColour(small, border)];
}

/** The pixel indices of the image's border, two pixels deep (the corners twice, as ever). */
function borderPixels(w: number, h: number): number[] {
	const at: number[] = [];
	for (let x = 0; x < w; x++) for (const y of [0, 1, h - 2, h - 1]) at.push(y * w + x);
	for (let y = 0; y < h; y++) for (const x of [0, 1, w - 2, w - 1]) at.push(y * w + x);
	return at;
}

/** Each channel's median over the pixels `at`. */
function medianColour(src: Raster, at: readonly number[]): number[] {
	return [0, 1, 2].map((ch) => at.map((i) => src.data[i * src.channels + ch]).sort((a, b) => a - b)[at.length >> 1]);
}

/** Each pixel's distance to the nearest of the desk's colours (mean absolute difference a channel, × 2, capped at 255). */
function deskDistance(src: Raster, desks: readonly number[][]): Uint8Array {
	const { width: w, height: h, channels: c, data } = src;
	const dist = new Uint8Array(w * h);
	for (let i = 0; i < w * h; i++) {
		const k = i * c;
		let d = 255;
		for (const m of desks) d = Math.min(d, Math.round((Math.abs(data[k] - m[0]) + Math.abs(data[k + 1] - m[1]) + Math.abs(data[k + 2] - m[2])) / 1.5));
		dist[i] = d;
	}
	return dist;
}

const centroid = (q: Quad): Point => [(q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4];

/** `p` lies inside the convex quadrilateral `q` (corners in order, either way round). */
function inside(p: Point, q: Quad): boolean {
	const sides = q.map((a, i) => {
		const b = q[(i + 1) % 4];
		return Math.sign((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]));
	});
	return sides.every((s) => s >= 0) || sides.every((s) => s <= 0);
}

/** A desk part at most this share of another's light is taken for that desk in shadow. */
const SHADOWED = 0.75;

/**
 * Finds the document's outline in a photo: pixels that differ from the desk's colour (Otsu on the
 * distance), their largest connected region, its hull, and the largest quadrilateral inside that
 * hull. Accepted only when the region is quadrilateral-like (hull well covered, angles near 90°) and
 * large; null otherwise (e.g. the document fills the frame), and callers then fall back to deskewing.
 *
 * Under a shadow that falls across the desk too, Otsu splits the lit page from the rest, its shadowed
 * part with the desk. There the region is also taken at a threshold just above the desk's own spread
 * (DESK_SPREAD), and its quadrilateral kept where it is one and larger: the whole page.
 */
export function findDocumentQuad(src: Raster): DocumentQuadResult | null {
	if (src.channels === 1) return null;
	const scale = WORK_SIDE / Math.max(src.width, src.height);
	const small = resize(src, src.width * scale, src.height * scale);
	const { width: w, height: h, channels: c, data } = small;
	const border = borderPixels(w, h);
	const dist = deskDistance(small, [medianColour(small, border)]);
	const hist = new Float64Array(256);
	for (const d of dist) hist[d]++;
	let found = quadAbove(dist, w, h, Math.max(24, otsu(hist, w * h)));
	const desks = deskColours(small, border);
	if (desks.length > 1) {
		const near = deskDistance(small, desks);
		const spread = border.map((i) => near[i]).sort((a, b) => a - b)[Math.floor(0.95 * (border.length - 1))];
		const whole = quadAbove(near, w, h, Math.max(24, DESK_SPREAD * spread));
		// Kept where it is the page that the first outline was part of, larger, and not the frame.
		if (whole && edgesReached(whole.quad, w, h, 3) < 3 && (!found || (whole.area > 1.05 * found.area && inside(centroid(found.quad), whole.quad)))) found = whole;
	}
	if (!found) return null;
	const quad = found.quad.map(([x, y]) => [x / scale, y / scale] as const) as unknown as Quad;
	return { quad, coverage: found.area / (w * h) };
}

/** The threshold over the desk's own distances (95th percentile of the border's) taken for a page's. */
const DESK_SPREAD = 2;

/** The quadrilateral of the largest region of `dist` above `t`, where the region is one (see findDocumentQuad). */
function quadAbove(dist: Uint8Array, w: number, h: number, t: number): { quad: Quad; area: number } | null {
	const labels = new Int32Array(w * h);
	let bestLabel = 0, bestCount = 0, label = 0;
	const stack: number[] = [];
	for (let s = 0; s < w * h; s++) {
		if (labels[s] || dist[s] <= t) continue;
		label++;
		labels[s] = label;
		stack.push(s);
		let count = 0;
		while (stack.length) {
			const i = stack.pop()!;
			count++;
			const x = i % w, y = (i - x) / w;
			if (x > 0 && !labels[i - 1] && dist[i - 1] > t) (labels[i - 1] = label), stack.push(i - 1);
			if (x < w - 1 && !labels[i + 1] && dist[i + 1] > t) (labels[i + 1] = label), stack.push(i + 1);
			if (y > 0 && !labels[i - w] && dist[i - w] > t) (labels[i - w] = label), stack.push(i - w);
			if (y < h - 1 && !labels[i + w] && dist[i + w] > t) (labels[i + w] = label), stack.push(i + w);
		}
		if (count > bestCount) (bestCount = count), (bestLabel = label);
	}
	if (bestCount < 0.15 * w * h) return null;
	const pts: Point[] = [];
	// Row spans fill the region's holes (a barcode or photo darker than the threshold).
	let spanArea = 0;
	for (let y = 0; y < h; y++) {
		let x0 = -1, x1 = -1;
		for (let x = 0; x < w; x++)
			if (labels[y * w + x] === bestLabel) {
				if (x0 < 0) x0 = x;
				x1 = x;
			}
		if (x0 >= 0) {
			pts.push([x0, y], [x0, y + 1], [x1 + 1, y], [x1 + 1, y + 1]);
			spanArea += x1 + 1 - x0;
		}
	}
	const boundary = pts.slice();
	for (let x = 0; x < w; x++) {
		let y0 = -1, y1 = -1;
		for (let y = 0; y < h; y++)
			if (labels[y * w + x] === bestLabel) {
				if (y0 < 0) y0 = y;
				y1 = y;
			}
		if (y0 >= 0) boundary.push([x + 0.5, y0], [x + 0.5, y1 + 1]);
	}
	const hull = convexHull(pts);
	const hullArea = polygonArea(hull);
	const corners = largestInscribedQuad(hull);
	if (!corners) return null;
	const quad = refineCorners(orderQuad(corners), boundary);
	const area = polygonArea(quad);
	if (area < 0.9 * hullArea || spanArea < 0.85 * area || !interiorAnglesOk(quad)) return null;
	// A region that reaches all four image edges is the frame itself, not a document lying in it.
	if (edgesReached(quad, w, h, 1) === 4) return null;
	return { quad, area };
}

/** How many of the image's four edges a corner of `q` comes within `margin` px of. */
function edgesReached(q: Quad, w: number, h: number, margin: number): number {
	return [q.some((p) => p[0] <= margin), q.some((p) => p[0] >= w - margin), q.some((p) => p[1] <= margin), q.some((p) => p[1] >= h - margin)].filter(Boolean).length;
}

import { homographyFromPoints, invertMatrix3, rotationAbout, type Matrix3 } from './homography.ts';
import type { Point, Quad, Raster } from './raster.ts';

/**
 * Warps `src` by the homography `h` (source → destination coordinates) into a `width`×`height`
 * raster, bilinear; destination pixels that fall outside the source get `fill`.
 */
export function warpPerspective(src: Raster, h: Matrix3, width: number, height: number, fill: readonly number[] = [0, 0, 0, 255]): Raster {
	const inv = invertMatrix3(h);
	if (!inv) throw new Error('homography is not invertible');
	const w = Math.max(1, Math.round(width));
	const hh = Math.max(1, Math.round(height));
	const { channels: c, width: sw, height: sh, data } = src;
	const out = new Uint8Array(w * hh * c);
	const [a, b, cc, d, e, f, g, k, l] = inv;
	// sampleBilinear, inlined: this loop runs for every pixel of every rectified document and text
	// line, and the call (with its destructuring) was most of its time. Same arithmetic, same values.
	for (let y = 0; y < hh; y++) {
		for (let x = 0; x < w; x++) {
			const den = g * x + k * y + l;
			const sx = (a * x + b * y + cc) / den;
			const sy = (d * x + e * y + f) / den;
			const o = (y * w + x) * c;
			if (c === 3 && sx >= 0 && sy >= 0 && sx < sw - 1 && sy < sh - 1) {
				// Inside, where every pixel of a page but its border falls: no clamping can change an index
				// (x0 + 1 ≤ sw − 1, y0 + 1 ≤ sh − 1), and `| 0` is Math.floor for these non-negative
				// values, so the indices and arithmetic below are those of the general path.
				const x0 = sx | 0;
				const y0 = sy | 0;
				const ax = sx - x0;
				const ay = sy - y0;
				const i00 = (y0 * sw + x0) * 3;
				const i10 = i00 + sw * 3;
				const t0 = data[i00] + (data[i00 + 3] - data[i00]) * ax;
				const t1 = data[i00 + 1] + (data[i00 + 4] - data[i00 + 1]) * ax;
				const t2 = data[i00 + 2] + (data[i00 + 5] - data[i00 + 2]) * ax;
				const u0 = data[i10] + (data[i10 + 3] - data[i10]) * ax;
				const u1 = data[i10 + 1] + (data[i10 + 4] - data[i10 + 1]) * ax;
				const u2 = data[i10 + 2] + (data[i10 + 5] - data[i10 + 2]) * ax;
				out[o] = Math.round(t0 + (u0 - t0) * ay);
				out[o + 1] = Math.round(t1 + (u1 - t1) * ay);
				out[o + 2] = Math.round(t2 + (u2 - t2) * ay);
				continue;
			}
			if (sx < -0.5 || sy < -0.5 || sx > sw - 0.5 || sy > sh - 0.5) {
				for (let ch = 0; ch < c; ch++) out[o + ch] = fill[ch] ?? 255;
				continue;
			}
			const cx = Math.min(Math.max(sx, 0), sw - 1);
			const cy = Math.min(Math.max(sy, 0), sh - 1);
			const x0 = Math.floor(cx);
			const y0 = Math.floor(cy);
			const ax = cx - x0;
			const ay = cy - y0;
			const i00 = (y0 * sw + x0) * c;
			const i01 = (y0 * sw + Math.min(x0 + 1, sw - 1)) * c;
			const i10 = (Math.min(y0 + 1, sh - 1) * sw + x0) * c;
			const i11 = (Math.min(y0 + 1, sh - 1) * sw + Math.min(x0 + 1, sw - 1)) * c;
			if (c === 3) {
				// Unrolled for RGB, what every camera picture is here.
				const t0 = data[i00] + (data[i01] - data[i00]) * ax;
				const t1 = data[i00 + 1] + (data[i01 + 1] - data[i00 + 1]) * ax;
				const t2 = data[i00 + 2] + (data[i01 + 2] - data[i00 + 2]) * ax;
				const u0 = data[i10] + (data[i11] - data[i10]) * ax;
				const u1 = data[i10 + 1] + (data[i11 + 1] - data[i10 + 1]) * ax;
				const u2 = data[i10 + 2] + (data[i11 + 2] - data[i10 + 2]) * ax;
				out[o] = Math.round(t0 + (u0 - t0) * ay);
				out[o + 1] = Math.round(t1 + (u1 - t1) * ay);
				out[o + 2] = Math.round(t2 + (u2 - t2) * ay);
				continue;
			}
			for (let ch = 0; ch < c; ch++) {
				const top = data[i00 + ch] + (data[i01 + ch] - data[i00 + ch]) * ax;
				const bottom = data[i10 + ch] + (data[i11 + ch] - data[i10 + ch]) * ax;
				out[o + ch] = Math.round(top + (bottom - top) * ay);
			}
		}
	}
	return { width: w, height: hh, channels: c, data: out };
}

/** Rectifies the quadrilateral `quad` of `src` into an axis-aligned `width`×`height` raster. */
export function warpQuad(src: Raster, quad: Quad, width: number, height: number, fill?: readonly number[]): Raster {
	const h = quadHomography(quad, width, height);
	if (!h) throw new Error('degenerate quadrilateral');
	return warpPerspective(src, h, width, height, fill);
}

/** The homography warpQuad maps `quad` by onto a `width`×`height` raster (source → output); null for a degenerate quad. */
export function quadHomography(quad: Quad, width: number, height: number): Matrix3 | null {
	const target: Point[] = [
		[0, 0],
		[width, 0],
		[width, height],
		[0, height]
	];
	// Pixel centres: corners map to the outer edges of the output, so shift by half a pixel.
	return homographyFromPoints(
		quad.map(([x, y]) => [x - 0.5, y - 0.5] as const),
		target.map(([x, y]) => [x - 0.5, y - 0.5] as const)
	);
}

/**
 * Rotates `src` by `degrees` counter-clockwise (as seen on screen). With `expand`, the output grows
 * so no corner is cut; otherwise it keeps the input size. Returns the matrix used (input → output).
 */
export function rotateRaster(src: Raster, degrees: number, options: { expand?: boolean; fill?: readonly number[] } = {}): { raster: Raster; matrix: Matrix3 } {
	const { width: w, height: h } = src;
	const r = (degrees * Math.PI) / 180;
	// Absolute values: past a quarter turn the cosine goes negative, and a page read upside down
	// (turned about 180°) came out 1 × 1 px, its portrait and quality looked for on nothing.
	const [cos, sin] = [Math.abs(Math.cos(r)), Math.abs(Math.sin(r))];
	// Less a hair: cos 180° leaves 1e-16 of the other side, which would round a whole pixel up.
	const outW = options.expand ? Math.ceil(w * cos + h * sin - 1e-9) : w;
	const outH = options.expand ? Math.ceil(w * sin + h * cos - 1e-9) : h;
	const rot = rotationAbout(degrees, w / 2, h / 2);
	// Then move the rotated centre to the centre of the (possibly larger) output.
	const m: Matrix3 = [rot[0], rot[1], rot[2] + (outW - w) / 2, rot[3], rot[4], rot[5] + (outH - h) / 2, 0, 0, 1];
	return { raster: warpPerspective(src, m, outW, outH, options.fill), matrix: m };
}


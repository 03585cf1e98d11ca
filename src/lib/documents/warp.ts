import { homographyFromPoints, invertMatrix3, rotationAbout, type Matrix3 } from './homography.ts';
import { sampleBilinear, type Point, type Quad, type Raster } from './raster.ts';

/**
 * Warps `src` by the homography `h` (source → destination coordinates) into a `width`×`height`
 * raster, bilinear; destination pixels that fall outside the source get `fill`.
 */
export function warpPerspective(src: Raster, h: Matrix3, width: number, height: number, fill: readonly number[] = [0, 0, 0, 255]): Raster {
	const inv = invertMatrix3(h);
	if (!inv) throw new Error('homography is not invertible');
	const w = Math.max(1, Math.round(width));
	const hh = Math.max(1, Math.round(height));
	const c = src.channels;
	const out = new Uint8Array(w * hh * c);
	const [a, b, cc, d, e, f, g, k, l] = inv;
	for (let y = 0; y < hh; y++) {
		for (let x = 0; x < w; x++) {
			const den = g * x + k * y + l;
			const sx = (a * x + b * y + cc) / den;
			const sy = (d * x + e * y + f) / den;
			const o = (y * w + x) * c;
			if (!sampleBilinear(src, sx, sy, out, o)) for (let ch = 0; ch < c; ch++) out[o + ch] = fill[ch] ?? 255;
		}
	}
	return { width: w, height: hh, channels: c, data: out };
}

/** Rectifies the quadrilateral `quad` of `src` into an axis-aligned `width`×`height` raster. */
export function warpQuad(src: Raster, quad: Quad, width: number, height: number, fill?: readonly number[]): Raster {
	const target: Point[] = [
		[0, 0],
		[width, 0],
		[width, height],
		[0, height]
	];
	// Pixel centres: corners map to the outer edges of the output, so shift by half a pixel.
	const h = homographyFromPoints(
		quad.map(([x, y]) => [x - 0.5, y - 0.5] as const),
		target.map(([x, y]) => [x - 0.5, y - 0.5] as const)
	);
	if (!h) throw new Error('degenerate quadrilateral');
	return warpPerspective(src, h, width, height, fill);
}

/**
 * Rotates `src` by `degrees` counter-clockwise (as seen on screen). With `expand`, the output grows
 * so no corner is cut; otherwise it keeps the input size. Returns the matrix used (input → output).
 */
export function rotateRaster(src: Raster, degrees: number, options: { expand?: boolean; fill?: readonly number[] } = {}): { raster: Raster; matrix: Matrix3 } {
	const { width: w, height: h } = src;
	const r = (Math.abs(degrees) * Math.PI) / 180;
	const outW = options.expand ? Math.ceil(w * Math.cos(r) + h * Math.sin(r)) : w;
	const outH = options.expand ? Math.ceil(w * Math.sin(r) + h * Math.cos(r)) : h;
	const rot = rotationAbout(degrees, w / 2, h / 2);
	// Then move the rotated centre to the centre of the (possibly larger) output.
	const m: Matrix3 = [rot[0], rot[1], rot[2] + (outW - w) / 2, rot[3], rot[4], rot[5] + (outH - h) / 2, 0, 0, 1];
	return { raster: warpPerspective(src, m, outW, outH, options.fill), matrix: m };
}


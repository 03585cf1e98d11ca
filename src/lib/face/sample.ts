// Resampling an RGBA image into a model's input tensor, the one place where browser and server must
// agree bit for bit on pre-processing (so both compute the same embedding from the same pixels).
import { assertRgba, type Affine, type Box, type RgbaImage } from './image.ts';

/** How pixels become tensor values: channel order, then (value − mean) · scale. */
export interface TensorFormat {
	/** 'rgb' and 'bgr' write 3 planes (CHW); 'gray' writes 1 plane with ITU-R BT.601 weights (as OpenCV). */
	channels: 'rgb' | 'bgr' | 'gray';
	mean: number;
	scale: number;
	/**
	 * Average k×k samples per output pixel when shrinking (default true). Off reproduces OpenCV's
	 * INTER_LINEAR resize, which reads only the 2×2 nearest pixels: models trained on such aliased
	 * crops (texture-sensitive liveness) expect it.
	 */
	antialias?: boolean;
}

/** (v − 127) / 128, RGB: fr_detect. */
export const DETECT_FORMAT: TensorFormat = { channels: 'rgb', mean: 127, scale: 1 / 128 };
/** (v − 127) / 128, BGR: fr_feature (ArcFace-style). */
export const FEATURE_FORMAT: TensorFormat = { channels: 'bgr', mean: 127, scale: 1 / 128 };
/** Raw 0–255, BGR, plain bilinear like OpenCV's resize: fr_liveness (RGB input fails half the live frames; an anti-aliased crop lowers live scores, e.g. 0.64 instead of 0.98 on a phone photo). */
export const LIVENESS_FORMAT: TensorFormat = { channels: 'bgr', mean: 0, scale: 1, antialias: false };
/** Grey / 256: fr_landmark. */
export const LANDMARK_FORMAT: TensorFormat = { channels: 'gray', mean: 0, scale: 1 / 256 };
/** Grey 0–255: quality metrics. */
export const GRAY_FORMAT: TensorFormat = { channels: 'gray', mean: 0, scale: 1 };

/** Writes one output pixel (r, g, b in 0–255) at index `i` of each plane, in the format's order and scale. */
function writeSample(out: Float32Array, i: number, plane: number, format: TensorFormat, r: number, g: number, b: number): void {
	const { mean, scale } = format;
	if (format.channels === 'gray') {
		out[i] = (0.299 * r + 0.587 * g + 0.114 * b - mean) * scale;
		return;
	}
	const bgr = format.channels === 'bgr';
	out[i] = ((bgr ? b : r) - mean) * scale;
	out[plane + i] = (g - mean) * scale;
	out[2 * plane + i] = ((bgr ? r : b) - mean) * scale;
}

/**
 * Fills `out` (CHW, `width`×`height`) by sampling `image` at `toSource`·(u, v) for every output pixel
 * (u, v), in OpenCV's warpAffine convention (pixel centres at integer coordinates). Bilinear; when the
 * map shrinks by more than 1.5× it averages k×k bilinear samples per output pixel so that large photos
 * are not aliased. Outside the image the pixel is black (0, before normalisation), as warpAffine's default.
 */
export function sampleAffine(
	image: RgbaImage,
	toSource: Affine,
	width: number,
	height: number,
	format: TensorFormat,
	out: Float32Array
): Float32Array {
	assertRgba(image);
	const planes = format.channels === 'gray' ? 1 : 3;
	if (out.length < planes * width * height) throw new RangeError('output tensor is too small');
	const [a, b, c, d, e, f] = toSource;
	const shrink = Math.sqrt(Math.abs(a * e - b * d));
	const k = shrink > 1.5 && format.antialias !== false ? Math.min(8, Math.ceil(shrink)) : 1;
	const plane = width * height;
	const src = image.data;
	const sw = image.width;
	const sh = image.height;
	const inv = 1 / (k * k);
	for (let v = 0; v < height; v++) {
		for (let u = 0; u < width; u++) {
			let r = 0;
			let g = 0;
			let bl = 0;
			for (let sy = 0; sy < k; sy++) {
				const vv = k === 1 ? v : v + (sy + 0.5) / k - 0.5;
				for (let sx = 0; sx < k; sx++) {
					const uu = k === 1 ? u : u + (sx + 0.5) / k - 0.5;
					const x = a * uu + b * vv + c;
					const y = d * uu + e * vv + f;
					const x0 = Math.floor(x);
					const y0 = Math.floor(y);
					const fx = x - x0;
					const fy = y - y0;
					if (x0 >= 0 && y0 >= 0 && x0 < sw - 1 && y0 < sh - 1) {
						// All four neighbours inside: the common case, without per-tap checks.
						const p = (y0 * sw + x0) * 4;
						const q = p + sw * 4;
						const w00 = (1 - fx) * (1 - fy);
						const w01 = fx * (1 - fy);
						const w10 = (1 - fx) * fy;
						const w11 = fx * fy;
						r += w00 * src[p] + w01 * src[p + 4] + w10 * src[q] + w11 * src[q + 4];
						g += w00 * src[p + 1] + w01 * src[p + 5] + w10 * src[q + 1] + w11 * src[q + 5];
						bl += w00 * src[p + 2] + w01 * src[p + 6] + w10 * src[q + 2] + w11 * src[q + 6];
						continue;
					}
					// Near or outside the border: each neighbour weighted, black outside the image.
					for (let n = 0; n < 4; n++) {
						const xi = x0 + (n & 1);
						const yi = y0 + (n >> 1);
						if (xi < 0 || yi < 0 || xi >= sw || yi >= sh) continue;
						const w = ((n & 1) === 1 ? fx : 1 - fx) * ((n >> 1) === 1 ? fy : 1 - fy);
						if (w === 0) continue;
						const p = (yi * sw + xi) * 4;
						r += w * src[p];
						g += w * src[p + 1];
						bl += w * src[p + 2];
					}
				}
			}
			writeSample(out, v * width + u, plane, format, r * inv, g * inv, bl * inv);
		}
	}
	return out;
}

/**
 * The output→source map that stretches `box` onto a `width`×`height` grid, in OpenCV resize's
 * convention (pixel areas aligned, not corners): src = box.x + (u + 0.5)·sx − 0.5.
 */
export function boxToGrid(box: Box, width: number, height: number): Affine {
	const sx = box.width / width;
	const sy = box.height / height;
	return [sx, 0, box.x + 0.5 * sx - 0.5, 0, sy, box.y + 0.5 * sy - 0.5];
}

/**
 * Crops `box` out of `image` and resizes it to `width`×`height` into `out`. The same samples as
 * `sampleAffine` on `boxToGrid(box)`; when that averages k×k samples a pixel, the map has no rotation,
 * so the average is separable and is computed as one pass along rows, then one down columns: the
 * detector's 320×240 view of a 1280×720 frame took 36 ms the direct way (16 samples of 4 taps for
 * each of its 76 800 pixels), most of the server's time on a face frame. Equal to the direct way up
 * to float rounding (sample.spec.ts compares them).
 */
export function cropResize(
	image: RgbaImage,
	box: Box,
	width: number,
	height: number,
	format: TensorFormat,
	out: Float32Array
): Float32Array {
	const map = boxToGrid(box, width, height);
	const k = supersampling(map, format);
	if (k === 1) return sampleAffine(image, map, width, height, format, out);
	return separableResize(image, map, k, width, height, format, out);
}

/** Samples per axis that `sampleAffine` averages for this map (1: plain bilinear). */
function supersampling(map: Affine, format: TensorFormat): number {
	const shrink = Math.sqrt(Math.abs(map[0] * map[4] - map[1] * map[3]));
	return shrink > 1.5 && format.antialias !== false ? Math.min(8, Math.ceil(shrink)) : 1;
}

/**
 * For each output index along one axis, the source indices and weights of its k bilinear samples
 * (each 1/k of the average; taps outside the image dropped, as sampleAffine's black border).
 */
function axisTaps(count: number, scale: number, offset: number, k: number, size: number): { start: Int32Array; index: Int32Array; weight: Float64Array } {
	const start = new Int32Array(count + 1);
	const index: number[] = [];
	const weight: number[] = [];
	for (let o = 0; o < count; o++) {
		start[o] = index.length;
		for (let s = 0; s < k; s++) {
			const x = scale * (o + (s + 0.5) / k - 0.5) + offset;
			const x0 = Math.floor(x);
			const f = x - x0;
			for (const [xi, w] of [[x0, 1 - f], [x0 + 1, f]] as const) {
				if (xi < 0 || xi >= size || w === 0) continue;
				// Merge with the previous tap on the same index (neighbouring samples share pixels).
				const last = index.length - 1;
				if (last >= start[o] && index[last] === xi) weight[last] += w / k;
				else {
					index.push(xi);
					weight.push(w / k);
				}
			}
		}
	}
	start[count] = index.length;
	return { start, index: Int32Array.from(index), weight: Float64Array.from(weight) };
}

function separableResize(image: RgbaImage, map: Affine, k: number, width: number, height: number, format: TensorFormat, out: Float32Array): Float32Array {
	assertRgba(image);
	const planes = format.channels === 'gray' ? 1 : 3;
	if (out.length < planes * width * height) throw new RangeError('output tensor is too small');
	const cols = axisTaps(width, map[0], map[2], k, image.width);
	const rows = axisTaps(height, map[4], map[5], k, image.height);
	const src = image.data;
	const sw = image.width;
	// One source row filtered along x (r, g, b per output column), kept while later output rows need it.
	const filtered = new Map<number, Float64Array>();
	const spare: Float64Array[] = [];
	const rowOf = (y: number): Float64Array => {
		let line = filtered.get(y);
		if (line) return line;
		line = spare.pop() ?? new Float64Array(3 * width);
		const base = y * sw * 4;
		for (let u = 0; u < width; u++) {
			let r = 0;
			let g = 0;
			let b = 0;
			for (let t = cols.start[u]; t < cols.start[u + 1]; t++) {
				const p = base + cols.index[t] * 4;
				const w = cols.weight[t];
				r += w * src[p];
				g += w * src[p + 1];
				b += w * src[p + 2];
			}
			line[3 * u] = r;
			line[3 * u + 1] = g;
			line[3 * u + 2] = b;
		}
		filtered.set(y, line);
		return line;
	};
	const plane = width * height;
	const acc = new Float64Array(3 * width);
	for (let v = 0; v < height; v++) {
		const first = rows.start[v];
		const end = rows.start[v + 1];
		// Rows are visited in order: the ones above this output row's first tap are done with.
		if (first < end) {
			for (const [y, line] of filtered) {
				if (y < rows.index[first]) {
					filtered.delete(y);
					spare.push(line);
				}
			}
		}
		acc.fill(0);
		for (let t = first; t < end; t++) {
			const line = rowOf(rows.index[t]);
			const w = rows.weight[t];
			for (let i = 0; i < 3 * width; i++) acc[i] += w * line[i];
		}
		for (let u = 0; u < width; u++) writeSample(out, v * width + u, plane, format, acc[3 * u], acc[3 * u + 1], acc[3 * u + 2]);
	}
	return out;
}

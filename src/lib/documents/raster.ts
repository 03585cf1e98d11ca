/** A pixel buffer, row-major, interleaved channels (1 grey, 3 RGB, 4 RGBA). Works on ImageData too. */
export interface Raster {
	width: number;
	height: number;
	channels: 1 | 3 | 4;
	data: Uint8Array | Uint8ClampedArray;
}

export type Point = readonly [number, number];
/** Four corners in order top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly [Point, Point, Point, Point];

export function createRaster(width: number, height: number, channels: 1 | 3 | 4, fill = 0): Raster {
	const data = new Uint8Array(width * height * channels);
	if (fill) data.fill(fill);
	return { width, height, channels, data };
}

/** Luma (BT.601 integer weights), one channel. */
export function toGray(src: Raster): Raster {
	if (src.channels === 1) return src;
	const { width, height, channels, data } = src;
	const out = new Uint8Array(width * height);
	for (let i = 0, j = 0; i < out.length; i++, j += channels) {
		out[i] = (data[j] * 77 + data[j + 1] * 150 + data[j + 2] * 29) >> 8;
	}
	return { width, height, channels: 1, data: out };
}

/** Adds an opaque alpha channel (what barcode readers and canvases expect). */
export function toRgba(src: Raster): Raster {
	if (src.channels === 4) return src;
	const { width, height, channels, data } = src;
	const out = new Uint8ClampedArray(width * height * 4);
	for (let i = 0, j = 0; i < width * height; i++, j += channels) {
		const k = i * 4;
		out[k] = data[j];
		out[k + 1] = channels === 1 ? data[j] : data[j + 1];
		out[k + 2] = channels === 1 ? data[j] : data[j + 2];
		out[k + 3] = 255;
	}
	return { width, height, channels: 4, data: out };
}

/**
 * Resizes by box-averaging when shrinking (no aliasing on fine print) and bilinear sampling when
 * growing.
 */
export function resize(src: Raster, width: number, height: number): Raster {
	const w = Math.max(1, Math.round(width));
	const h = Math.max(1, Math.round(height));
	const { channels: c, data } = src;
	const out = new Uint8Array(w * h * c);
	const sx = src.width / w;
	const sy = src.height / h;
	if (sx >= 1 && sy >= 1) {
		const acc = new Float64Array(c);
		for (let y = 0; y < h; y++) {
			const y0 = Math.floor(y * sy);
			const y1 = Math.max(y0 + 1, Math.min(src.height, Math.floor((y + 1) * sy)));
			for (let x = 0; x < w; x++) {
				const x0 = Math.floor(x * sx);
				const x1 = Math.max(x0 + 1, Math.min(src.width, Math.floor((x + 1) * sx)));
				acc.fill(0);
				for (let yy = y0; yy < y1; yy++) {
					let k = (yy * src.width + x0) * c;
					for (let xx = x0; xx < x1; xx++) for (let ch = 0; ch < c; ch++) acc[ch] += data[k++];
				}
				const n = (y1 - y0) * (x1 - x0);
				const o = (y * w + x) * c;
				for (let ch = 0; ch < c; ch++) out[o + ch] = Math.round(acc[ch] / n);
			}
		}
		return { width: w, height: h, channels: c, data: out };
	}
	for (let y = 0; y < h; y++) {
		const fy = Math.min(src.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
		for (let x = 0; x < w; x++) {
			const fx = Math.min(src.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
			sampleBilinear(src, fx, fy, out, (y * w + x) * c);
		}
	}
	return { width: w, height: h, channels: c, data: out };
}

/** Writes the bilinear sample at (x, y) into out[offset…]; returns false (and writes nothing) outside the raster. */
export function sampleBilinear(src: Raster, x: number, y: number, out: Uint8Array | Uint8ClampedArray, offset: number): boolean {
	const { width, height, channels: c, data } = src;
	if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) return false;
	const cx = Math.min(Math.max(x, 0), width - 1);
	const cy = Math.min(Math.max(y, 0), height - 1);
	const x0 = Math.floor(cx);
	const y0 = Math.floor(cy);
	const x1 = Math.min(x0 + 1, width - 1);
	const y1 = Math.min(y0 + 1, height - 1);
	const ax = cx - x0;
	const ay = cy - y0;
	const i00 = (y0 * width + x0) * c;
	const i01 = (y0 * width + x1) * c;
	const i10 = (y1 * width + x0) * c;
	const i11 = (y1 * width + x1) * c;
	for (let ch = 0; ch < c; ch++) {
		const top = data[i00 + ch] + (data[i01 + ch] - data[i00 + ch]) * ax;
		const bottom = data[i10 + ch] + (data[i11 + ch] - data[i10 + ch]) * ax;
		out[offset + ch] = Math.round(top + (bottom - top) * ay);
	}
	return true;
}

/** Axis-aligned crop, clamped to the raster. */
export function crop(src: Raster, x: number, y: number, width: number, height: number): Raster {
	const x0 = Math.max(0, Math.floor(x));
	const y0 = Math.max(0, Math.floor(y));
	const x1 = Math.min(src.width, Math.ceil(x + width));
	const y1 = Math.min(src.height, Math.ceil(y + height));
	const w = Math.max(1, x1 - x0);
	const h = Math.max(1, y1 - y0);
	const c = src.channels;
	const out = new Uint8Array(w * h * c);
	for (let row = 0; row < h; row++) {
		const from = ((y0 + row) * src.width + x0) * c;
		out.set(src.data.subarray(from, from + w * c), row * w * c);
	}
	return { width: w, height: h, channels: c, data: out };
}

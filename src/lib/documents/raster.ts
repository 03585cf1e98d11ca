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

/**
 * Black ink only, coloured ink lifted to the paper, one channel. ICAO 9303 prints the MRZ in black,
 * so a blue stamp or a red overprint across it can be dropped, as document scanners drop a form's
 * colour: each pixel's brightest channel (coloured ink is bright in at least one) plus `k` times
 * its chroma (brightest − darkest channel) above the paper's tint, with `k` fitted to the raster's
 * own coloured pixels so that they come out as bright as its paper. The brightest channel alone
 * leaves a dark, dull ink (a green stamp) far below the paper, and how far depends on the ink, so
 * the lift is measured, not fixed. Fewer than 1 % coloured pixels: the brightest channel as is.
 * Black ink under a translucent mark comes out lighter than in luma (it is lifted with the mark),
 * so this is a second look at a line, not the first.
 */
export function inkOnly(src: Raster): Raster {
	if (src.channels === 1) return src;
	const { top, chroma, tint, lifts, n } = fitInk(src);
	const k = lifts.length < 0.01 * n ? 0 : Math.min(MAX_INK_LIFT, lifts.sort((x, y) => x - y)[lifts.length >> 1]);
	const out = new Uint8Array(n);
	for (let i = 0; i < n; i++) out[i] = Math.min(255, Math.round(top[i] + k * Math.max(0, chroma[i] - tint)));
	return { width: src.width, height: src.height, channels: 1, data: out };
}

/** The share of the raster's pixels that `inkOnly` counts as coloured ink (0 for one channel). */
export function colouredInkShare(src: Raster): number {
	if (src.channels === 1) return 0;
	const { lifts, n } = fitInk(src);
	return lifts.length / n;
}

/**
 * Each pixel's brightest channel and chroma, the paper's tint, and for each pixel of coloured ink
 * (chroma above the tint by `INK_CHROMA`, darker than the paper but not black) the lift that would
 * bring it to the paper.
 */
function fitInk(src: Raster): { top: Uint8Array; chroma: Uint8Array; tint: number; lifts: number[]; n: number } {
	const { width, height, channels, data } = src;
	const n = width * height;
	const top = new Uint8Array(n);
	const chroma = new Uint8Array(n);
	const hist = new Uint32Array(256);
	for (let i = 0, j = 0; i < n; i++, j += channels) {
		const a = data[j], b = data[j + 1], c = data[j + 2];
		const mx = a > b ? (a > c ? a : c) : b > c ? b : c;
		const mn = a < b ? (a < c ? a : c) : b < c ? b : c;
		top[i] = mx;
		chroma[i] = mx - mn;
		hist[mx]++;
	}
	// The paper: the brightness that 80 % of pixels are at or below (a line's glyphs cover ~20–30 %).
	let paper = 255;
	for (let v = 0, seen = 0; v < 256; v++) if ((seen += hist[v]) >= 0.8 * n) { paper = v; break; }
	// The paper's own tint (cream, a colour cast) is not ink: chroma counts above the paper's median.
	const tints = new Uint32Array(256);
	let papers = 0;
	for (let i = 0; i < n; i++) if (top[i] >= paper - 8) tints[chroma[i]]++, papers++;
	let tint = 0;
	for (let v = 0, seen = 0; v < 256; v++) if ((seen += tints[v]) >= papers / 2) { tint = v; break; }
	const lifts: number[] = [];
	for (let i = 0; i < n; i++) if (chroma[i] >= tint + INK_CHROMA && top[i] < paper && top[i] > paper / 3) lifts.push((paper - top[i]) / (chroma[i] - tint));
	return { top, chroma, tint, lifts, n };
}
/** Chroma (0–255) from which a pixel counts as coloured ink rather than grey with a colour cast. */
const INK_CHROMA = 24;
/** The most a pixel's chroma lifts it: a dark, dull ink (green, 2.2) needs the most. */
const MAX_INK_LIFT = 3;

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
 * growing. Every document read resizes several times (the page for detection, each text line to the
 * recogniser's height), so both paths work a row at a time rather than a pixel at a time; the
 * values are the per-pixel definitions' exactly (raster.spec.ts compares them).
 */
export function resize(src: Raster, width: number, height: number): Raster {
	const w = Math.max(1, Math.round(width));
	const h = Math.max(1, Math.round(height));
	const sx = src.width / w;
	const sy = src.height / h;
	return sx >= 1 && sy >= 1 ? shrink(src, w, h, sx, sy) : grow(src, w, h, sx, sy);
}

/** Box average: the source rows of an output row summed once, then each output pixel from prefix sums. */
function shrink(src: Raster, w: number, h: number, sx: number, sy: number): Raster {
	const { channels: c, data, width: sw } = src;
	const out = new Uint8Array(w * h * c);
	const x0s = new Int32Array(w);
	const x1s = new Int32Array(w);
	for (let x = 0; x < w; x++) {
		x0s[x] = Math.floor(x * sx);
		x1s[x] = Math.max(x0s[x] + 1, Math.min(sw, Math.floor((x + 1) * sx)));
	}
	const rowSum = new Float64Array(sw * c);
	// prefix[(x * c) + ch] = sum of rowSum over source columns < x, channel ch.
	const prefix = new Float64Array((sw + 1) * c);
	for (let y = 0; y < h; y++) {
		const y0 = Math.floor(y * sy);
		const y1 = Math.max(y0 + 1, Math.min(src.height, Math.floor((y + 1) * sy)));
		rowSum.fill(0);
		for (let yy = y0; yy < y1; yy++) {
			const from = yy * sw * c;
			for (let i = 0; i < sw * c; i++) rowSum[i] += data[from + i];
		}
		for (let i = 0; i < sw * c; i++) prefix[i + c] = prefix[i] + rowSum[i];
		const rows = y1 - y0;
		for (let x = 0; x < w; x++) {
			const a = x0s[x] * c;
			const b = x1s[x] * c;
			const n = rows * (x1s[x] - x0s[x]);
			const o = (y * w + x) * c;
			for (let ch = 0; ch < c; ch++) out[o + ch] = Math.round((prefix[b + ch] - prefix[a + ch]) / n);
		}
	}
	return { width: w, height: h, channels: c, data: out };
}

/** Bilinear, with each output column's source columns and weight worked out once. */
function grow(src: Raster, w: number, h: number, sx: number, sy: number): Raster {
	const { channels: c, data, width: sw, height: shh } = src;
	const out = new Uint8Array(w * h * c);
	const i0s = new Int32Array(w);
	const i1s = new Int32Array(w);
	const axs = new Float64Array(w);
	for (let x = 0; x < w; x++) {
		const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
		const x0 = Math.floor(fx);
		i0s[x] = x0 * c;
		i1s[x] = Math.min(x0 + 1, sw - 1) * c;
		axs[x] = fx - x0;
	}
	for (let y = 0; y < h; y++) {
		const fy = Math.min(shh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
		const y0 = Math.floor(fy);
		const r0 = y0 * sw * c;
		const r1 = Math.min(y0 + 1, shh - 1) * sw * c;
		const ay = fy - y0;
		for (let x = 0; x < w; x++) {
			const ax = axs[x];
			const o = (y * w + x) * c;
			for (let ch = 0; ch < c; ch++) {
				const d00 = data[r0 + i0s[x] + ch];
				const d10 = data[r1 + i0s[x] + ch];
				const top = d00 + (data[r0 + i1s[x] + ch] - d00) * ax;
				const bottom = d10 + (data[r1 + i1s[x] + ch] - d10) * ax;
				out[o + ch] = Math.round(top + (bottom - top) * ay);
			}
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

/**
 * The raster turned a quarter, exactly (pixels moved, not resampled): `clockwise` as the picture is
 * seen. Its width is the source's height.
 */
/** Where a point of `quarterTurn(src, clockwise)` lies in `src` (`src`: the size before the turn). */
export function unturnedPoint([x, y]: Point, src: { width: number; height: number }, clockwise: boolean): Point {
	return clockwise ? [y, src.height - 1 - x] : [src.width - 1 - y, x];
}

export function quarterTurn(src: Raster, clockwise: boolean): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(w * h * c);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			// Clockwise, (x, y) goes to column h−1−y, row x; anticlockwise, to column y, row w−1−x.
			const nx = clockwise ? h - 1 - y : y;
			const ny = clockwise ? x : w - 1 - x;
			const from = (y * w + x) * c;
			const to = (ny * h + nx) * c;
			for (let k = 0; k < c; k++) out[to + k] = data[from + k];
		}
	}
	return { width: h, height: w, channels: c, data: out };
}

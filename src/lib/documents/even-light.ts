import type { Raster } from './raster.ts';

/**
 * A text strip with the light across its paper evened: each pixel divided by the paper's brightness
 * around it (the strip's luma with dark strokes closed over: a running maximum then minimum, as
 * document scanners remove a shadow), times the lit paper's. A hard shadow across a line (the
 * phone's, a hand's) leaves the glyphs in it at half their contrast beside lit ones, and the
 * recogniser, which sees the line whole, reads them worse (a K in the shadow read A). The strip as
 * it is when its paper is lit evenly enough (the darkest paper within UNEVEN of the brightest): a
 * guilloche or a cream page is no shadow, and a strip left alone reads as before.
 */
export function evenLight(src: Raster): Raster {
	const { width: w, height: h, channels: c, data } = src;
	// The paper's light at half the strip's resolution: it changes over a shadow's penumbra, not a
	// stroke's width, and a quarter of the pixels costs a quarter of the time.
	const hw = Math.max(1, w >> 1), hh = Math.max(1, h >> 1);
	const half = new Uint8Array(hw * hh);
	for (let y = 0; y < hh; y++)
		for (let x = 0; x < hw; x++) {
			let sum = 0;
			for (let dy = 0; dy < 2; dy++)
				for (let dx = 0; dx < 2; dx++) {
					const j = (Math.min(h - 1, 2 * y + dy) * w + Math.min(w - 1, 2 * x + dx)) * c;
					sum += c === 1 ? data[j] : (data[j] * 77 + data[j + 1] * 150 + data[j + 2] * 29) >> 8;
				}
			half[y * hw + x] = sum >> 2;
		}
	// A window as wide as the strip is high always holds paper (a gap between glyphs, the margin
	// above them), however bold or blurred the print; and a closing gives a straight shadow's edge
	// back where it was, whatever the window (a half-plane is closed under it).
	const r = Math.max(2, Math.round(hh / 2));
	if (evenTiles(half, hw, hh, Math.max(1, (r + 2) >> 1))) return src;
	const paper = boxBlur(closeOver(half, hw, hh, r), hw, hh, 1);
	const hist = new Uint32Array(256);
	for (let i = 0; i < paper.length; i++) hist[Math.min(255, Math.round(paper[i]))]++;
	const lit = percentile(hist, 0.95 * paper.length);
	const dim = percentile(hist, 0.05 * paper.length);
	if (lit < 32 || dim >= UNEVEN * lit) return src;
	const out = new Uint8Array(data.length);
	for (let y = 0, j = 0; y < h; y++) {
		const row = Math.min(hh - 1, y >> 1) * hw;
		for (let x = 0; x < w; x++, j += c) {
			const k = lit / Math.max(8, paper[row + Math.min(hw - 1, x >> 1)]);
			for (let ch = 0; ch < Math.min(c, 3); ch++) out[j + ch] = Math.min(255, Math.round(data[j + ch] * k));
			if (c === 4) out[j + 3] = data[j + 3];
		}
	}
	return { width: w, height: h, channels: c, data: out };
}

/** Paper this much darker than the strip's lit paper (5th against 95th percentile) is in a shadow. */
const UNEVEN = 0.8;

/**
 * Every tile of side `t` has paper within UNEVEN of the brightest tile's: then so has the closing
 * at every pixel (each window of radius 2t − 2 or more holds a whole tile, and the closing is at
 * least the dimmest such tile's maximum), and the strip needs no evening. A pass over the pixels,
 * where the closing takes eight: most strips are lit evenly and stop here.
 */
function evenTiles(half: Uint8Array, w: number, h: number, t: number): boolean {
	const cols = Math.ceil(w / t), rows = Math.ceil(h / t);
	const tiles = new Uint8Array(cols * rows);
	for (let y = 0; y < h; y++) {
		const row = Math.floor(y / t) * cols;
		for (let x = 0; x < w; x++) {
			const k = row + Math.floor(x / t);
			if (half[y * w + x] > tiles[k]) tiles[k] = half[y * w + x];
		}
	}
	let lo = 255, hi = 0;
	for (const v of tiles) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
	return lo >= UNEVEN * hi;
}

function percentile(hist: Uint32Array, rank: number): number {
	for (let v = 0, seen = 0; v < 256; v++) if ((seen += hist[v]) > rank) return v;
	return 255;
}

/**
 * The grey-level closing of `src` by a square of side 2r + 1 (its running maximum, then minimum):
 * dark marks narrower than the square gone, the paper's own light kept, a shadow's edge where it was.
 */
function closeOver(src: Uint8Array, w: number, h: number, r: number): Float32Array {
	const a = Float32Array.from(src);
	const b = new Float32Array(w * h);
	const scratch = new Float32Array(3 * (Math.max(w, h) + 4 * r + 2));
	pass(a, b, w, h, r, true, true, scratch);
	pass(b, a, w, h, r, true, false, scratch);
	pass(a, b, w, h, r, false, true, scratch);
	pass(b, a, w, h, r, false, false, scratch);
	return a;
}

/**
 * dst = the running extreme (`max` or min) of src over 2r + 1 samples along each row (`rows`) or
 * column, windows clipped at the ends, in constant time a sample whatever r (van Herk / Gil–Werman:
 * running extremes forward and backward within blocks of 2r + 1, the window's from one of each).
 */
function pass(src: Float32Array, dst: Float32Array, w: number, h: number, r: number, max: boolean, rows: boolean, scratch: Float32Array): void {
	const n = rows ? w : h;
	const lines = rows ? h : w;
	const stride = rows ? 1 : w;
	const k = 2 * r + 1;
	const len = Math.ceil((n + 2 * r) / k) * k;
	const neutral = max ? -Infinity : Infinity;
	const line = scratch.subarray(0, len);
	const fwd = scratch.subarray(len, 2 * len);
	const back = scratch.subarray(2 * len, 3 * len);
	for (let l = 0; l < lines; l++) {
		const base = rows ? l * w : l;
		line.fill(neutral);
		for (let i = 0; i < n; i++) line[i + r] = src[base + i * stride];
		for (let i = 0; i < len; i++) {
			const v = line[i];
			const p = i % k === 0 ? v : fwd[i - 1];
			fwd[i] = max ? (v > p ? v : p) : v < p ? v : p;
		}
		for (let i = len - 1; i >= 0; i--) {
			const v = line[i];
			const p = i % k === k - 1 ? v : back[i + 1];
			back[i] = max ? (v > p ? v : p) : v < p ? v : p;
		}
		// Sample i's window spans padded positions i … i + 2r.
		for (let i = 0; i < n; i++) {
			const x = back[i], y = fwd[i + 2 * r];
			dst[base + i * stride] = max ? (x > y ? x : y) : x < y ? x : y;
		}
	}
}

/** Mean over a square window clipped at the edges, from prefix sums. */
function boxBlur(src: Float32Array, w: number, h: number, r: number): Float32Array {
	const sums = new Float64Array((w + 1) * (h + 1));
	for (let y = 0; y < h; y++)
		for (let x = 0, row = 0; x < w; x++) {
			row += src[y * w + x];
			sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + row;
		}
	const out = new Float32Array(w * h);
	for (let y = 0; y < h; y++) {
		const y0 = Math.max(0, y - r), y1 = Math.min(h, y + r + 1);
		for (let x = 0; x < w; x++) {
			const x0 = Math.max(0, x - r), x1 = Math.min(w, x + r + 1);
			const s = sums[y1 * (w + 1) + x1] - sums[y0 * (w + 1) + x1] - sums[y1 * (w + 1) + x0] + sums[y0 * (w + 1) + x0];
			out[y * w + x] = s / ((y1 - y0) * (x1 - x0));
		}
	}
	return out;
}

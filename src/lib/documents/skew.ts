import type { Raster } from './raster.ts';
import { resize, toGray } from './raster.ts';
import type { TextBox } from './text-detection.ts';

/** Boxes long enough along their text to tell its direction. */
const elongated = (boxes: readonly TextBox[]) => boxes.filter((b) => b.rect.width >= 2.5 * b.rect.height && b.rect.height > 0);

/** Boxes of one text direction differ by less than this (degrees). */
const SAME_DIRECTION = 12;

/**
 * The text directions found on the page (baseline angles in degrees, y down, so positive means the
 * text runs down to the right), the one holding the longest line first. Boxes are grouped by
 * direction (undirected: ±90° is one direction); each group's angle is the median of its boxes
 * weighted by squared length. Why not one average over all boxes: an open passport photographed
 * with its facing page brings a block of vertical text, which outweighed the MRZ and turned the
 * estimate to −89.6°. The MRZ is the longest printed line of a data page, so its direction comes
 * first; the reader tries the next only when that one shows no MRZ. Empty with fewer than two
 * elongated boxes.
 */
export function skewHypotheses(boxes: readonly TextBox[]): number[] {
	const votes = elongated(boxes)
		.map((b) => ({ angle: b.rect.angle, weight: b.rect.width * b.rect.width, length: b.rect.width }))
		.sort((a, b) => b.length - a.length);
	if (votes.length < 2) return [];
	const groups: { seed: number; longest: number; members: { delta: number; weight: number }[] }[] = [];
	for (const v of votes) {
		const group = groups.find((g) => Math.abs(wrap180(v.angle - g.seed)) <= SAME_DIRECTION);
		if (group) group.members.push({ delta: wrap180(v.angle - group.seed), weight: v.weight });
		else groups.push({ seed: v.angle, longest: v.length, members: [{ delta: 0, weight: v.weight }] });
	}
	return groups.map((g) => {
		const sorted = g.members.slice().sort((a, b) => a.delta - b.delta);
		const half = sorted.reduce((t, m) => t + m.weight, 0) / 2;
		let acc = 0;
		for (const m of sorted) {
			acc += m.weight;
			if (acc >= half) return wrapAngle(g.seed + m.delta);
		}
		return wrapAngle(g.seed);
	});
}

/**
 * Baseline angle of the text in the direction of the page's longest line (the MRZ band's; see
 * skewHypotheses). Null when fewer than two elongated boxes were found.
 */
export function skewFromBoxes(boxes: readonly TextBox[]): number | null {
	return skewHypotheses(boxes)[0] ?? null;
}

/** Boxes whose text runs along `skew` (within SAME_DIRECTION degrees), and short ones of no clear direction. */
export function boxesAlong(boxes: readonly TextBox[], skew: number): TextBox[] {
	return boxes.filter((b) => b.rect.width < 2.5 * b.rect.height || Math.abs(wrap180(b.rect.angle - skew)) <= SAME_DIRECTION);
}

/** An angle in (−90, 90]. */
function wrapAngle(a: number): number {
	const w = wrap180(a);
	return w === -90 ? 90 : w;
}

/** Wraps an angle difference of undirected lines into [-90, 90). */
function wrap180(d: number): number {
	let x = d;
	while (x >= 90) x -= 180;
	while (x < -90) x += 180;
	return x;
}

/**
 * Skew by projection profile: the angle within ±`range` degrees at which the row sums of dark pixels
 * are most peaked (text rows line up), or with `columns` the column sums (vertical bars line up).
 * A fallback when the detector found too few lines, and the tilt of a barcode.
 */
export function skewByProjection(src: Raster, range = 15, axis: 'rows' | 'columns' = 'rows'): number {
	const scale = Math.min(1, 600 / Math.max(src.width, src.height));
	const g = toGray(scale < 1 ? resize(src, src.width * scale, src.height * scale) : src);
	const { width: w, height: h, data } = g;
	let mean = 0;
	for (let i = 0; i < data.length; i++) mean += data[i];
	mean /= data.length;
	const dark: number[] = [];
	for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (data[y * w + x] < mean * 0.6) dark.push(x - w / 2, y - h / 2);
	const span = Math.ceil(Math.hypot(w, h)) + 2;
	const bins = new Float64Array(span);
	const score = (deg: number) => {
		const r = (deg * Math.PI) / 180;
		const sin = Math.sin(r), cos = Math.cos(r);
		bins.fill(0);
		for (let i = 0; i < dark.length; i += 2) {
			// Rows: distance across text lines; columns: along them (for vertical bars, as in PDF417).
			const d = axis === 'rows' ? -dark[i] * sin + dark[i + 1] * cos : dark[i] * cos + dark[i + 1] * sin;
			const yy = Math.round(d + span / 2);
			if (yy >= 0 && yy < span) bins[yy]++;
		}
		let v = 0;
		for (let i = 1; i < span; i++) v += (bins[i] - bins[i - 1]) ** 2;
		return v;
	};
	let best = 0, bestScore = -1;
	for (let a = -range; a <= range; a += 1) {
		const sc = score(a);
		if (sc > bestScore) (bestScore = sc), (best = a);
	}
	const coarse = best;
	for (let a = coarse - 1; a <= coarse + 1; a += 0.1) {
		const sc = score(a);
		if (sc > bestScore) (bestScore = sc), (best = a);
	}
	return best;
}

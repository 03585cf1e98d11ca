import type { Raster } from './raster.ts';
import { resize, toGray } from './raster.ts';
import type { TextBox } from './text-detection.ts';

/**
 * Baseline angle of the text in degrees (y down, so positive means the text runs down to the right),
 * from detected boxes: long boxes vote with their squared length (so the long MRZ and
 * field lines outvote stray short boxes). Angles are averaged on the doubled circle so
 * that lines near ±90° do not cancel out, then refined by a weighted median of the agreeing boxes.
 * Null when fewer than two elongated boxes were found.
 */
export function skewFromBoxes(boxes: readonly TextBox[]): number | null {
	const votes = boxes.filter((b) => b.rect.width >= 2.5 * b.rect.height && b.rect.height > 0).map((b) => ({ angle: b.rect.angle, weight: b.rect.width * b.rect.width }));
	if (votes.length < 2) return null;
	let c = 0, s = 0;
	for (const v of votes) {
		const r = (v.angle * Math.PI) / 90;
		c += Math.cos(r) * v.weight;
		s += Math.sin(r) * v.weight;
	}
	const mean = (Math.atan2(s, c) * 90) / Math.PI;
	const near = votes
		.map((v) => ({ ...v, delta: wrap180(v.angle - mean) }))
		.filter((v) => Math.abs(v.delta) <= 5)
		.sort((a, b) => a.delta - b.delta);
	if (near.length === 0) return mean;
	const half = near.reduce((t, v) => t + v.weight, 0) / 2;
	let acc = 0;
	for (const v of near) {
		acc += v.weight;
		if (acc >= half) return mean + v.delta;
	}
	return mean;
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

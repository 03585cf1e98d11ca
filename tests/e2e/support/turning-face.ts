// A simulated head that turns: a frontal portrait mapped onto a vertical cylinder and rotated. A
// photo and its mirror image (what the older journeys used) jump between two poses, which is the very
// attack issue #12 describes; a cylinder turns through every pose in between, and the nose moves
// relative to the face outline as on a real head, so the server's 68-landmark yaw follows it.
//
// One pure geometry function (`cylinderStrips`) serves both renderers: the scene camera draws the
// strips with canvas drawImage in the browser (tables passed in, since an init script cannot import),
// and `renderTurn` draws them on raw RGBA in Node (the injection attack posts such frames).

/** The face the cylinder is wrapped around, in source-image pixels. */
export interface HeadGeometry {
	/** Centre column of the face. */
	cx: number;
	/** Cylinder radius: half the face box's width. */
	radius: number;
	/** Centre row and half height of the face box: where the screen's light falls (the face, not the wall). */
	cy: number;
	halfHeight: number;
}

/** One vertical strip: source columns [sx0, sx1) drawn at destination columns [dx0, dx1). */
export interface Strip {
	sx0: number;
	sx1: number;
	dx0: number;
	dx1: number;
}

/** Strips the cylinder is cut into: enough that the seams do not show at 1280×720. */
export const STRIPS = 96;

/**
 * The strips of a head turned by `yawDeg` (positive: the face's centre moves towards the image's
 * right). Source column x on the cylinder sits at angle θ = asin((x−cx)/R); turned by φ it shows at
 * cx + R·sin(θ+φ), and not at all once it faces away (cos(θ+φ) ≤ 0).
 */
export function cylinderStrips(head: HeadGeometry, yawDeg: number, strips = STRIPS): Strip[] {
	const phi = (yawDeg * Math.PI) / 180;
	const { cx, radius: r } = head;
	const out: Strip[] = [];
	for (let i = 0; i < strips; i++) {
		// Equal steps of angle, not of columns: the edges of the face, foreshortened, still get strips.
		const a0 = -Math.PI / 2 + (Math.PI * i) / strips;
		const a1 = -Math.PI / 2 + (Math.PI * (i + 1)) / strips;
		if (Math.cos((a0 + a1) / 2 + phi) <= 0.02) continue;
		const dx0 = cx + r * Math.sin(a0 + phi);
		const dx1 = cx + r * Math.sin(a1 + phi);
		if (dx1 - dx0 < 0.05) continue;
		out.push({ sx0: cx + r * Math.sin(a0), sx1: cx + r * Math.sin(a1), dx0, dx1 });
	}
	return out;
}

/** Strip tables for yaw −MAX…+MAX in whole degrees (the browser interpolates none: 1° is smooth enough). */
export const TABLE_MAX_YAW = 35;
export function stripTables(head: HeadGeometry): Strip[][] {
	const tables: Strip[][] = [];
	for (let yaw = -TABLE_MAX_YAW; yaw <= TABLE_MAX_YAW; yaw++) tables.push(cylinderStrips(head, yaw));
	return tables;
}

/** A raw RGBA picture. */
export interface Rgba {
	data: Uint8ClampedArray | Uint8Array;
	width: number;
	height: number;
}

/**
 * The head turned by `yawDeg`, drawn on raw RGBA as the browser draws it: the picture unchanged, then
 * each strip resampled (nearest column, linear across the strip) over the face's columns.
 */
export function renderTurn(src: Rgba, head: HeadGeometry, yawDeg: number): Rgba {
	const { width: w, height: h } = src;
	const data = new Uint8ClampedArray(src.data);
	// What the turned cylinder no longer covers keeps the unturned picture (as drawImage over it would).
	for (const s of cylinderStrips(head, yawDeg)) {
		const d0 = Math.max(0, Math.round(s.dx0)), d1 = Math.min(w, Math.round(s.dx1));
		for (let dx = d0; dx < d1; dx++) {
			const f = (dx + 0.5 - s.dx0) / (s.dx1 - s.dx0);
			const sx = Math.min(w - 1, Math.max(0, Math.floor(s.sx0 + f * (s.sx1 - s.sx0))));
			for (let y = 0; y < h; y++) {
				const o = 4 * (y * w + dx), i = 4 * (y * w + sx);
				data[o] = src.data[i];
				data[o + 1] = src.data[i + 1];
				data[o + 2] = src.data[i + 2];
				data[o + 3] = 255;
			}
		}
	}
	return { data, width: w, height: h };
}

/**
 * The head geometry of the fixture portraits the suite turns, measured with the server's detector
 * (scripts/eval/turning-face-check.ts prints them): centre column of the fr_detect box and 0.6× its
 * width as the radius, in source-image pixels. A radius of half the box reads as the largest turn
 * that stays monotonic: on barack_obama_1 a turn of φ = 0 → ±35° reads 1.8° → +28.7° / −24.2°, in
 * steps of at most 5.2° every 5° (0.6× the box: only ±15° at φ = ±30°, too little for the challenge).
 */
export const HEADS: Record<string, HeadGeometry> = {
	'barack_obama_1.jpg': { cx: 492, radius: 111, cy: 241, halfHeight: 159 },
	'joe_biden_2_800w.jpg': { cx: 406, radius: 122, cy: 335, halfHeight: 162 },
	'eileen_collins_1.jpg': { cx: 224, radius: 45, cy: 118, halfHeight: 56 },
	'codait_luciano_1.jpg': { cx: 201, radius: 65, cy: 137, halfHeight: 89 }
};

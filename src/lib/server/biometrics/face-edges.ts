// Whether a reference photo holds the whole face or only what its edge left of it. The detector and
// the landmark model both answer for a face cut by the photo's edge: the landmarks of what is missing
// are guessed inside the photo, on what is there (a photo cut below the eyes gets "eyes" on the
// cheeks), and the embedding of such a face is no longer the person's. face-damage eval: cut through
// the eyes, 6 of 10 genuine pairs fell below the threshold; below them, or with the bottom edge
// through the mouth, every one did, at cosine −0.15 to 0.38: a confident non-match of the owner. Such a reference
// may still confirm a match; its non-match is no evidence of another person.
import type { FaceAnalysis } from '#lib/face/face-pipeline.ts';
import type { Box, Point, RgbaImage } from '#lib/face/image.ts';
import type { Landmarks5 } from '#lib/face/landmarks.ts';

/**
 * Whether the eyes, nose tip and mouth corners lie in the photo: none further past its edge than
 * 8 % of the face's width, about an eye's height (so a point further out is a feature wholly cut
 * off). A face cut through the eyes by the photo's edge gets landmarks guessed where there are no
 * pixels, or, padded with the photo's mirrored edges, a face made of its own reflection; either
 * embedding is no longer the person's (face-damage eval: a portrait cut below the eyes, padded,
 * matched its owner's other photos at −0.09 and −0.01). Better no face than a confident non-match.
 */
export function featuresInside(five: Landmarks5, photo: Box, faceWidth: number): boolean {
	return withMargin(five, photo, 0.08 * faceWidth);
}

/**
 * The room each of the five points needs inside the photo, as a share of the face's width: a tenth,
 * about the eyelid above an eye's centre or the lower lip below the mouth's corners. face-damage eval
 * (11 faces, 2026-11-28): every point of every whole face had it, cropped to the detector's box
 * included; every face cut through the eyes lacked it, and 9 of 11 cut through the mouth.
 */
export const FEATURE_ROOM = 0.1;
/**
 * How far the five points may move, as a share of the face's width, when the face is looked at again
 * with everything outside the photo grey. Where the pixels are there, the landmarks stay put (at most
 * 0.041 on whole faces under every damage, 0.055 with the chin cut off below the mouth); where they
 * were guessed, given room, they move (0.13–0.41 on faces cut below the eyes).
 */
export const STEADY_SHIFT = 0.08;

/** Whether every one of the five points has `FEATURE_ROOM` inside the photo. */
export function featuresClear(five: Landmarks5, photo: Box, faceWidth: number): boolean {
	return withMargin(five, photo, -FEATURE_ROOM * faceWidth);
}

function withMargin(five: Landmarks5, photo: Box, margin: number): boolean {
	return five.every((p) => p.x >= photo.x - margin && p.y >= photo.y - margin && p.x <= photo.x + photo.width + margin && p.y <= photo.y + photo.height + margin);
}

/**
 * The square of `image` centred on `box`, `AROUND` times its larger side, with what lies outside
 * `photo` flat grey; and where that square's corner lies in the image (view = image − corner).
 */
export function greyFramed(image: RgbaImage, photo: Box, box: Box): { view: RgbaImage; corner: Point } {
	const side = Math.max(16, Math.round(AROUND * Math.max(box.width, box.height)));
	const corner = { x: Math.round(box.x + box.width / 2 - side / 2), y: Math.round(box.y + box.height / 2 - side / 2) };
	const data = new Uint8Array(side * side * 4);
	new Uint32Array(data.buffer).fill(GREY);
	// The photo's pixels that fall in the square, row by row.
	const x0 = Math.max(corner.x, Math.ceil(photo.x), 0);
	const x1 = Math.min(corner.x + side, Math.floor(photo.x + photo.width), image.width);
	const y0 = Math.max(corner.y, Math.ceil(photo.y), 0);
	const y1 = Math.min(corner.y + side, Math.floor(photo.y + photo.height), image.height);
	for (let y = y0; y < y1 && x1 > x0; y++) {
		const from = (y * image.width + x0) * 4;
		data.set(image.data.subarray(from, from + (x1 - x0) * 4), ((y - corner.y) * side + (x0 - corner.x)) * 4);
	}
	return { view: { data, width: side, height: side }, corner };
}

// Mid grey, opaque, as one little-endian RGBA word: nothing a face is made of.
const GREY = 0xff808080;
/**
 * The framed square's side, in face boxes: the face fills a third of it, as large as the detector
 * sees faces best, with room for a forehead and a chin the photo's edge may have cut.
 */
const AROUND = 3;

/**
 * Whether `face`, found in `image` (where `photo` is the photo itself: all of it, or the part of a
 * padded view that is not padding), is cut by the photo's edge. The square around the face is looked
 * at again with everything outside the photo grey: a face whose features were guessed has its points
 * moved (`STEADY_SHIFT`) or too near the edge (`FEATURE_ROOM`). A face not found again is not called
 * cut: that happened only to whole faces (blurred, blown out), near the detector's limit. One more
 * detection and landmark pass, on a small image.
 */
export async function cutByEdge(analyse: (image: RgbaImage) => Promise<readonly FaceAnalysis[]>, image: RgbaImage, photo: Box, face: FaceAnalysis): Promise<boolean> {
	const w = face.box.width;
	const { view, corner } = greyFramed(image, photo, face.box);
	let nearest: { five: Landmarks5; shift: number } | null = null;
	for (const f of await analyse(view)) {
		const five = f.landmarks5.map((p) => ({ x: p.x + corner.x, y: p.y + corner.y })) as Landmarks5;
		const shift = meanDistance(five, face.landmarks5) / w;
		if (!nearest || shift < nearest.shift) nearest = { five, shift };
	}
	if (!nearest) return false;
	return nearest.shift > STEADY_SHIFT || !featuresClear(nearest.five, photo, w);
}

function meanDistance(a: readonly Point[], b: readonly Point[]): number {
	let sum = 0;
	for (let i = 0; i < a.length; i++) sum += Math.hypot(a[i].x - b[i].x, a[i].y - b[i].y);
	return sum / a.length;
}

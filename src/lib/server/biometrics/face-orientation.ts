// Which way up a reference photo's face is. A photo stored sideways or upside down without an EXIF
// orientation still has its face found (fr_detect scores a face turned 90° or 180° up to 1.000), and
// the 68-landmark model then fits an upright face onto it: the embedding is of nothing, and the
// person does not match their own live face (cosine −0.1 to 0.1, scripts/eval/face-damage.ts). Neither
// the detector's score nor the pose read from those landmarks tells the turned face from the upright
// one. Two things do, compared between the four ways up of the same photo:
//   - a face and its mirror image are the same person to the embedding model when the landmarks sit on
//     the real eyes, nose and mouth (cosine 0.97–0.99 on the fixture faces upright, 0.88–0.96 turned);
//   - the eyes are darker than the bridge of the nose between them (0.38–0.78 of its brightness
//     upright, 0.72–1.33 turned, where the "eyes" fall on skin or hair).
import type { Box, RgbaImage } from '#lib/face/image.ts';
import type { Landmarks5, Landmarks68 } from '#lib/face/landmarks.ts';
import { point } from '#lib/face/landmarks.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';

/** How much more upright another way up must score before the photo is read that way. */
export const ORIENTATION_MARGIN = 0.02;
/** Weight of the eyes' darkness against the mirror agreement (both measured on the same face). */
const EYE_WEIGHT = 0.1;

const EYES = [36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47];
const BRIDGE = [27, 28, 29];

export interface Embedder {
	embedViews(image: RgbaImage, five: Landmarks5): Promise<{ embedding: Float32Array; asIs: Float32Array }>;
	embedAsIs(image: RgbaImage, five: Landmarks5): Promise<Float32Array>;
}

/**
 * How upright the face is (`upright`): its embedding's agreement with its mirror image's, less a tenth of how
 * bright the eyes are against the nose bridge. Higher is more upright; only comparisons between the
 * ways up of one photo mean anything (on the 11 fixture faces the upright way scored 0.04–0.10 above
 * the best turned one).
 */
export async function uprightness(
	embedder: Embedder,
	image: RgbaImage,
	face: { box: Box; landmarks: Landmarks68; landmarks5: Landmarks5 }
): Promise<{ upright: number; embedding: Float32Array }> {
	// Each side embedded as is: the embedding that comparisons use already averages a face with its
	// mirror (face-pipeline.ts embed), which would make every way up agree with itself.
	const own = await embedder.embedViews(image, face.landmarks5);
	const { mirrored, five } = mirroredFace(image, face.box, face.landmarks5);
	const agreement = cosineSimilarity(own.asIs, await embedder.embedAsIs(mirrored, five));
	const r = Math.max(1, face.box.width * 0.04);
	const lum = (indices: number[]) => indices.reduce((sum, i) => sum + meanLuminance(image, point(face.landmarks, i).x, point(face.landmarks, i).y, r), 0) / indices.length;
	const bridge = lum(BRIDGE);
	const eyes = bridge > 0 ? lum(EYES) / bridge : 1;
	// The face's own embedding comes back too: the way up that wins needs no second one.
	return { upright: agreement - EYE_WEIGHT * eyes, embedding: own.embedding };
}

/** The region around the face, mirrored left to right, with the five points mirrored into it (eyes and mouth corners swap sides). */
function mirroredFace(image: RgbaImage, box: Box, five: Landmarks5): { mirrored: RgbaImage; five: Landmarks5 } {
	const x0 = Math.max(0, Math.floor(box.x - box.width));
	const y0 = Math.max(0, Math.floor(box.y - box.height));
	const x1 = Math.min(image.width, Math.ceil(box.x + 2 * box.width));
	const y1 = Math.min(image.height, Math.ceil(box.y + 2 * box.height));
	const width = Math.max(1, x1 - x0);
	const height = Math.max(1, y1 - y0);
	const data = new Uint8ClampedArray(width * height * 4);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const from = ((y0 + y) * image.width + (x1 - 1 - x)) * 4;
			const to = (y * width + x) * 4;
			data[to] = image.data[from];
			data[to + 1] = image.data[from + 1];
			data[to + 2] = image.data[from + 2];
			data[to + 3] = 255;
		}
	}
	const flip = (p: { x: number; y: number }) => ({ x: x1 - 1 - p.x, y: p.y - y0 });
	// Five points: left eye, right eye, nose, left mouth corner, right mouth corner.
	return { mirrored: { data, width, height }, five: [flip(five[1]), flip(five[0]), flip(five[2]), flip(five[4]), flip(five[3])] };
}

function meanLuminance(image: RgbaImage, cx: number, cy: number, r: number): number {
	let sum = 0;
	let n = 0;
	for (let y = Math.max(0, Math.round(cy - r)); y <= Math.min(image.height - 1, Math.round(cy + r)); y++) {
		for (let x = Math.max(0, Math.round(cx - r)); x <= Math.min(image.width - 1, Math.round(cx + r)); x++) {
			const i = (y * image.width + x) * 4;
			sum += 0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2];
			n++;
		}
	}
	return n ? sum / n : 0;
}

// fr_liveness pre- and post-processing.
import { scaleBox } from './box.ts';
import { LIVENESS_CROP_SCALE } from './face-thresholds.ts';
import type { Box } from './image.ts';

/**
 * The liveness crop: the square face box scaled by 2.7 about its centre (less when the image is too
 * small for that, as faceplugin does), then shifted to lie inside the image. The context around the
 * face (screen edges, paper borders, hands) is what the model looks at.
 */
export function livenessCropBox(square: Box, width: number, height: number, factor = LIVENESS_CROP_SCALE): Box {
	const fit = Math.min((height - 1) / square.height, (width - 1) / square.width, factor);
	const crop = scaleBox(square, fit);
	const x = Math.min(Math.max(crop.x, 0), Math.max(0, width - 1 - crop.width));
	const y = Math.min(Math.max(crop.y, 0), Math.max(0, height - 1 - crop.height));
	return { x, y, width: crop.width, height: crop.height };
}

/** Numerically stable softmax. */
export function softmax(logits: ArrayLike<number>, out: Float32Array = new Float32Array(logits.length)): Float32Array {
	let max = -Infinity;
	for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
	let sum = 0;
	for (let i = 0; i < logits.length; i++) {
		out[i] = Math.exp(logits[i] - max);
		sum += out[i];
	}
	for (let i = 0; i < logits.length; i++) out[i] /= sum;
	return out;
}

/** Live probability from fr_liveness's three logits (index 0 = live; 1 and 2 are attack classes). */
export function liveProbability(logits: ArrayLike<number>): number {
	return softmax(logits)[0];
}

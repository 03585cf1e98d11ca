// Which face models run with smaller weights, shared by the build (scripts/build-models.js, the
// files the page downloads) and the server (face-engine.ts, which converts the package's files the
// same way when it loads them): one function, the same input, so both run byte-identical models and
// compute the same numbers.
//
// float16, not int8 (measured on tests/fixtures/faces, see docs/performance.md "Face pipeline in the browser"):
// float16 keeps every embedding within cosine 0.99998 of the float32 one and moves liveness by at
// most 0.004; int8 (per-channel, symmetric) fell to cosine 0.996 and moved a live face's liveness
// from 0.72 to 0.68, 0.08 above the 0.6 threshold.
import { compressWeights } from './onnx-weights.js';

/** @type {Readonly<Record<string, import('./onnx-weights.js').WeightFormat>>} */
export const FACE_MODEL_WEIGHTS = { fr_landmark: 'float16', fr_feature: 'float16', fr_liveness: 'float16' };

/** Bump when the conversion's output changes for the same input (build-models.js rewrites the files). */
export const FACE_MODEL_WEIGHTS_VERSION = 1;

/**
 * The model as page and server run it: `bytes` (the package's file) with its weights converted
 * when FACE_MODEL_WEIGHTS lists it, otherwise unchanged.
 * @param {string} name model name without extension (`fr_feature`) @param {Uint8Array} bytes
 */
export function faceModelForRuntime(name, bytes) {
	const format = FACE_MODEL_WEIGHTS[name];
	return format ? compressWeights(bytes, { format }).bytes : bytes;
}

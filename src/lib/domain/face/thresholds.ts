// The face pipeline's thresholds that a flow's face nodes fall back to when they leave a setting out.
// The domain applies those defaults (nodes/face.contract.ts) and must not reach up into lib/face/, so
// these two live here and the pipeline imports them; every other threshold is in lib/face/face-thresholds.ts.

/**
 * Cosine similarity at or above which two faces are the same person (fr_feature, 5-point alignment).
 * Chosen by scripts/eval/faces.ts on the fixture pairs; see bench/results/faces-eval.md.
 */
export const MATCH_THRESHOLD = 0.45;

/** face_scan node defaults, as the interface spec gives them. */
export const FACE_SCAN_DEFAULTS = {
	minFaceSize: 100,
	maxFaceSize: 400,
	blurThreshold: 50,
	qualityThreshold: 0.7
} as const;

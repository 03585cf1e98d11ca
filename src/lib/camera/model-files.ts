// Where the app serves the model and WASM files that scripts/build-models.js copies into static/models
// (see static/models/manifest.json for sizes and hashes). Paths are relative to the site root.
import type { PreloadLink } from '#lib/domain/page/page-intro.ts';

export const MODELS_BASE = '/models';

export const MODEL_FILES = {
	/** Directory for FilesetResolver.forVisionTasks(): it picks vision_wasm_internal or the no-SIMD build. */
	mediapipeWasmDir: `${MODELS_BASE}/mediapipe`,
	/** BlazeFace short range with the TFLite metadata tasks-vision needs (written by the build). */
	faceDetector: `${MODELS_BASE}/mediapipe/face_detection_short_range.tflite`,
	frDetect: `${MODELS_BASE}/faceplugin/fr_detect.onnx`,
	frLandmark: `${MODELS_BASE}/faceplugin/fr_landmark.onnx`,
	frFeature: `${MODELS_BASE}/faceplugin/fr_feature.onnx`,
	frLiveness: `${MODELS_BASE}/faceplugin/fr_liveness.onnx`,
	/** Set as onnxruntime-web's env.wasm.wasmPaths (a directory, trailing slash). */
	ortWasmDir: `${MODELS_BASE}/ort/`,
	manifest: `${MODELS_BASE}/manifest.json`
} as const;

/**
 * What the face detector fetches before it can look, for `<link rel="preload">` in the page's head:
 * MediaPipe's WebAssembly (the SIMD build, which FilesetResolver picks in every browser the page
 * supports; one without SIMD fetches its own and this download goes unused) and the model: 2.4 MB
 * together, the downloads the first guidance waits for. MediaPipe's loader script (47 KB) is left to
 * the detector: fetched when the detector starts, it is still in long before the WebAssembly, and
 * preloading it bought nothing measurable.
 * `as="fetch"` and `crossorigin` match how tasks-vision asks for both (fetch, credentials
 * "same-origin"), or the browser would download them twice.
 */
export const DETECTOR_PRELOADS: readonly PreloadLink[] = [
	{ href: `${MODELS_BASE}/mediapipe/vision_wasm_internal.wasm`, as: 'fetch' },
	{ href: MODEL_FILES.faceDetector, as: 'fetch' }
];

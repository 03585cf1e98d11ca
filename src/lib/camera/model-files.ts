// Where the app serves the model and WASM files that scripts/build-models.js copies into static/models
// (see static/models/manifest.json for sizes and hashes). Paths are relative to the site root.
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

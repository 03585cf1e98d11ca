// BlazeFace (short range) through MediaPipe tasks-vision, browser only. VIDEO mode, fed the <video>
// element directly, so no frame is copied into JavaScript. The GPU delegate is used only on real
// graphics hardware (see chooseDelegate); if it fails to start, the CPU one is.
import type { FaceDetector as MpFaceDetector } from '@mediapipe/tasks-vision';
import { chooseDelegate, type DetectorFrame, type FaceDetectorPort } from './detector.ts';
import type { BlazeKeypoints } from './keypoint-pose.ts';
import { MODEL_FILES } from './model-files.ts';

/** The WebGL renderer string (unmasked where the browser allows), or null without WebGL. */
export function webglRenderer(): string | null {
	try {
		const canvas = new OffscreenCanvas(1, 1);
		const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
		if (!gl) return null;
		const ext = gl.getExtension('WEBGL_debug_renderer_info');
		const renderer = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
		gl.getExtension('WEBGL_lose_context')?.loseContext();
		return renderer;
	} catch {
		return null;
	}
}

let module: Promise<typeof import('@mediapipe/tasks-vision')> | null = null;
const load = () => (module ??= import('@mediapipe/tasks-vision'));

export async function createMediaPipeDetector(options: { useWebGL?: boolean; minConfidence?: number } = {}): Promise<FaceDetectorPort> {
	// The build's steps as performance marks (vf:detector:start, module, fileset, created, and warm in
	// shared-detector.ts): a profile or a benchmark can see where a slow first guidance waited.
	performance.mark('vf:detector:start');
	const { FaceDetector, FilesetResolver } = await load();
	performance.mark('vf:detector:module');
	const fileset = await FilesetResolver.forVisionTasks(MODEL_FILES.mediapipeWasmDir);
	performance.mark('vf:detector:fileset');
	const create = (delegate: 'GPU' | 'CPU') =>
		FaceDetector.createFromOptions(fileset, {
			baseOptions: { modelAssetPath: MODEL_FILES.faceDetector, delegate },
			runningMode: 'VIDEO',
			minDetectionConfidence: options.minConfidence ?? 0.5
		});
	let delegate = chooseDelegate(options.useWebGL !== false, webglRenderer());
	let detector: MpFaceDetector;
	try {
		detector = await create(delegate);
	} catch (err) {
		if (delegate === 'CPU') throw err;
		delegate = 'CPU';
		detector = await create(delegate);
	}
	performance.mark('vf:detector:created');
	let last = -1;
	return {
		backend: delegate.toLowerCase(),
		detect(source, timestampMs): DetectorFrame {
			const width = (source as HTMLVideoElement).videoWidth || (source as { width: number }).width;
			const height = (source as HTMLVideoElement).videoHeight || (source as { height: number }).height;
			// VIDEO mode refuses a timestamp that does not increase.
			const ts = Math.max(Math.round(timestampMs), last + 1);
			last = ts;
			const result = detector.detectForVideo(source, ts);
			return {
				width,
				height,
				faces: result.detections.flatMap((d) => {
					const b = d.boundingBox;
					if (!b || d.keypoints.length < 6) return [];
					const keypoints = d.keypoints.slice(0, 6).map((k) => ({ x: k.x * width, y: k.y * height })) as unknown as BlazeKeypoints;
					return [{ box: { x: b.originX, y: b.originY, width: b.width, height: b.height }, score: d.categories[0]?.score ?? 0, keypoints }];
				})
			};
		},
		close() {
			detector.close();
		}
	};
}

// The per-frame face detector behind an interface: MediaPipe in the browser (detector.mediapipe.ts),
// a scripted fake in tests. It reads the video element or an ImageBitmap directly (no getImageData).
import type { Box } from '#lib/face/image.ts';
import type { BlazeKeypoints } from './keypoint-pose.ts';

export interface DetectedFace {
	/** Box in pixels of the frame. */
	box: Box;
	score: number;
	/** Six keypoints in pixels of the frame (see BlazeKeypoints). */
	keypoints: BlazeKeypoints;
}

export interface DetectorFrame {
	width: number;
	height: number;
	faces: DetectedFace[];
}

export interface FaceDetectorPort {
	/** 'gpu' | 'cpu' | 'fake': what it runs on (the report of a slow device says which). */
	readonly backend: string;
	/** Faces in the current frame of `source` (VIDEO mode: timestamps must increase). */
	detect(source: TexImageSource, timestampMs: number): DetectorFrame;
	close(): void;
}

/**
 * Whether a WebGL renderer string is real hardware. Without a GPU, Chromium renders WebGL in software
 * (SwiftShader; Mesa's llvmpipe on Linux desktops without drivers), where MediaPipe's GPU delegate is
 * 3–4× slower than its CPU path (MODELS.md), so those count as "no GPU".
 */
export function isHardwareRenderer(renderer: string | null | undefined): boolean {
	if (!renderer) return false;
	return !/swiftshader|llvmpipe|softpipe|software|basic render|mesa offscreen|subzero/i.test(renderer);
}

/** The delegate to ask MediaPipe for: GPU only when allowed and the renderer is real hardware. */
export function chooseDelegate(useWebGL: boolean, renderer: string | null | undefined): 'GPU' | 'CPU' {
	return useWebGL && isHardwareRenderer(renderer) ? 'GPU' : 'CPU';
}

/**
 * A frame detected on a copy scaled by `scale` (copy pixels × scale = frame pixels), in the pixels
 * of the frame itself (`width` × `height`): boxes and keypoints multiplied back.
 */
export function scaleDetectorFrame(frame: DetectorFrame, scale: number, width: number, height: number): DetectorFrame {
	const p = (q: { x: number; y: number }) => ({ x: q.x * scale, y: q.y * scale });
	return {
		width,
		height,
		faces: frame.faces.map(({ box, score, keypoints: [a, b, c, d, e, f] }) => ({
			box: { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale },
			score,
			keypoints: [p(a), p(b), p(c), p(d), p(e), p(f)] as const
		}))
	};
}

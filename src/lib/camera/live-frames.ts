// The live camera frame as the capture machine sees it (browser only): detection on a copy of the
// frame DETECT_COPY_WIDTH pixels wide + the gate, a 128×128 grey crop of the face for sharpness and
// exposure (the only pixels read on the main thread, and only when the face moved or every few
// frames, see CropMemo), and ImageBitmaps handed to the worker for the frames that matter.
import { shiftInside } from '#lib/face/box.ts';
import { createQualityScratch } from '#lib/face/quality.ts';
import type { QualitySettings } from '#lib/face/quality-gate.ts';
import { scaleDetectorFrame, type FaceDetectorPort } from './detector.ts';
import { checkFrame, createCropMemo, type CropReader, type LiveCheck } from './frame-gate.ts';

/**
 * BlazeFace sees 128×128 whatever it is given: a 256-px copy of the frame loses nothing it would
 * see, and MediaPipe's own upload and conversion of the frame, the larger part of a detection on
 * a phone's CPU path, shrinks with it (measured in bench/faces.bench.ts). The grey face crop is
 * still read from the full frame, so sharpness means what it means on the server.
 */
export const DETECT_COPY_WIDTH = 256;

export interface LiveSource {
	check(): LiveCheck | null;
	grab(): Promise<ImageBitmap | null>;
}

export interface LiveSourceOptions {
	/** Width of the copy the detector sees (default DETECT_COPY_WIDTH; 0: the <video> itself). */
	copyWidth?: number;
	/** Reuse the face crop's measurement while the face stays still (default true). */
	reuseCrop?: boolean;
}

/** `options` are for bench/faces.bench.ts, which measures the page with and without them in one run. */
export function createLiveSource(video: HTMLVideoElement, detector: FaceDetectorPort, settings: Partial<QualitySettings>, options: LiveSourceOptions = {}): LiveSource {
	const { copyWidth = DETECT_COPY_WIDTH, reuseCrop = true } = options;
	const scratch = createQualityScratch();
	const size = Math.round(Math.sqrt(scratch.length));
	const canvas = new OffscreenCanvas(size, size);
	const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
	const readCrop: CropReader = (box, side, out) => {
		const b = shiftInside(box, video.videoWidth, video.videoHeight);
		ctx.drawImage(video, b.x, b.y, b.width, b.height, 0, 0, side, side);
		const px = ctx.getImageData(0, 0, side, side).data;
		for (let i = 0, n = side * side; i < n; i++) out[i] = 0.299 * px[4 * i] + 0.587 * px[4 * i + 1] + 0.114 * px[4 * i + 2];
	};
	const ready = () => video.readyState >= 2 && video.videoWidth > 0;
	const memo = reuseCrop ? createCropMemo() : undefined;
	let copy: OffscreenCanvasRenderingContext2D | null = null;
	const detect = () => {
		const { videoWidth: w, videoHeight: h } = video;
		if (!copyWidth || w <= copyWidth) return detector.detect(video, performance.now());
		const cw = copyWidth;
		const ch = Math.round((cw * h) / w);
		// One canvas for the whole node, replaced only when the camera's resolution changes.
		if (!copy || copy.canvas.width !== cw || copy.canvas.height !== ch) copy = new OffscreenCanvas(cw, ch).getContext('2d', { alpha: false })!;
		copy.drawImage(video, 0, 0, cw, ch);
		return scaleDetectorFrame(detector.detect(copy.canvas, performance.now()), w / cw, w, h);
	};
	return {
		check() {
			if (!ready()) return null;
			return checkFrame(detect(), settings, readCrop, scratch, memo);
		},
		async grab() {
			return ready() ? createImageBitmap(video) : null;
		}
	};
}

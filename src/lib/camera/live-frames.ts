// The live camera frame as the capture machine sees it (browser only): detection + gate on the
// <video> element itself, a 128×128 grey crop of the face for sharpness and exposure (the only pixels
// read on the main thread), and ImageBitmaps handed to the worker for the frames that matter.
import { shiftInside } from '#lib/face/box.ts';
import { createQualityScratch } from '#lib/face/quality.ts';
import type { QualitySettings } from '#lib/face/quality-gate.ts';
import type { FaceDetectorPort } from './detector.ts';
import { checkFrame, type CropReader, type LiveCheck } from './frame-gate.ts';

export interface LiveSource {
	check(): LiveCheck | null;
	grab(): Promise<ImageBitmap | null>;
}

export function createLiveSource(video: HTMLVideoElement, detector: FaceDetectorPort, settings: Partial<QualitySettings>): LiveSource {
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
	return {
		check() {
			if (!ready()) return null;
			return checkFrame(detector.detect(video, performance.now()), settings, readCrop, scratch);
		},
		async grab() {
			return ready() ? createImageBitmap(video) : null;
		}
	};
}

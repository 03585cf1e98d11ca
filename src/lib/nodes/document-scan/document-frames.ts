// The preview <video> as the document scan reads it (browser only): a downscaled copy for the frame
// checks, on one canvas reused for every check, and a full-resolution JPEG for the capture.
import type { Point, Quad, Raster } from '#lib/documents/raster.ts';

const JPEG_QUALITY = 0.92;

export interface EncodedFrame {
	/** Null when the browser could not encode the frame. */
	jpeg: Blob | null;
	/** When the frame was taken, on the `now` clock. */
	at: number;
	drawMs: number;
	encodeMs: number;
}

export class VideoFrames {
	readonly #video: HTMLVideoElement;
	readonly #small = document.createElement('canvas');
	readonly #now: () => number;

	constructor(video: HTMLVideoElement, now: () => number = () => performance.now()) {
		this.#video = video;
		this.#now = now;
	}

	/** The current frame at most `width` wide, or null while the video has no frame yet. */
	small(width: number): Raster | null {
		const video = this.#video;
		if (!video.videoWidth || !video.videoHeight) return null;
		const scale = Math.min(1, width / video.videoWidth);
		const w = Math.round(video.videoWidth * scale), h = Math.round(video.videoHeight * scale);
		const canvas = this.#small;
		if (canvas.width !== w) canvas.width = w;
		if (canvas.height !== h) canvas.height = h;
		const ctx = canvas.getContext('2d', { willReadFrequently: true });
		if (!ctx) return null;
		ctx.drawImage(video, 0, 0, w, h);
		const data = ctx.getImageData(0, 0, w, h);
		return { width: w, height: h, channels: 4, data: data.data };
	}

	/** The current frame at full resolution as a JPEG, and how long drawing and encoding took. */
	async jpeg(): Promise<EncodedFrame> {
		const video = this.#video;
		const at = this.#now();
		const canvas = document.createElement('canvas');
		canvas.width = video.videoWidth;
		canvas.height = video.videoHeight;
		canvas.getContext('2d')!.drawImage(video, 0, 0);
		const drawn = this.#now();
		const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
		return { jpeg, at, drawMs: drawn - at, encodeMs: this.#now() - drawn };
	}
}

/** A quad in frame pixels as shares of the frame's sides (the outline is drawn in a 0–100 box). */
export function shareOfFrame(quad: Quad, frame: { width: number; height: number }): Quad {
	const share = ([x, y]: Point): Point => [x / frame.width, y / frame.height];
	return [share(quad[0]), share(quad[1]), share(quad[2]), share(quad[3])];
}

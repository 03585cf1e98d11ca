import { VideoChunkUploader } from '#lib/video/chunk-uploader.ts';

/** Container types to record in, best first (Chromium and Firefox: WebM; Safari: MP4). */
const TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm', 'video/mp4'];

interface Uploader {
	start(): Promise<boolean>;
	add(blob: Blob, last?: boolean): void;
	flush(timeoutMs?: number): Promise<boolean>;
}

/**
 * The session video, for sessions that keep it (`retainSessionMedia` or `videoAIAnalysisEnabled`;
 * the server says which): the camera stream recorded with MediaRecorder in 2-second chunks, handed
 * to the chunk uploader. One continuous recording per page: it ends when the camera stops (tab
 * hidden, session over); the server numbers a reload's recording on after what it has.
 */
export class SessionRecorder {
	#uploader: Uploader;
	#recorder: MediaRecorder | null = null;
	#started = false;

	constructor(token: () => string, uploader?: Uploader) {
		this.#uploader = uploader ?? new VideoChunkUploader({ token });
	}

	/** Starts recording the stream unless this page already recorded or the session keeps no video. */
	async begin(stream: MediaStream): Promise<boolean> {
		if (this.#started || typeof MediaRecorder === 'undefined') return false;
		this.#started = true;
		if (!(await this.#uploader.start())) return false;
		if (!stream.getVideoTracks().some((t) => t.readyState === 'live')) return false;
		const mimeType = TYPES.find((t) => MediaRecorder.isTypeSupported(t));
		const recorder = new MediaRecorder(stream, { ...(mimeType ? { mimeType } : {}), videoBitsPerSecond: 600_000 });
		// The last chunk arrives after stop (or after the tracks ended): the recorder is inactive then.
		recorder.ondataavailable = (event) => this.#uploader.add(event.data, recorder.state === 'inactive');
		recorder.start(2000);
		this.#recorder = recorder;
		return true;
	}

	/** Stops recording and waits (a while) for the last chunks to reach the server. */
	async end(): Promise<void> {
		this.#started = true;
		if (this.#recorder && this.#recorder.state !== 'inactive') this.#recorder.stop();
		await this.#uploader.flush(15_000);
	}
}

// Frames for `recognition` taken before it opens (browser only). The spec: a recognition node needs the
// avatar to have spoken for about five seconds in the node before it; while it speaks, the camera is
// on (video-call layout) and this watcher keeps the best few frames with one good face, so recognition
// can answer at once instead of asking the user to pose. Started by the page layout with the session's
// stream; idle (and holding no frames) without one.
import type { Box } from '#lib/face/image.ts';
import type { FaceDetectorPort } from './detector.ts';
import { createLiveSource } from './live-frames.ts';

interface Kept {
	bitmap: ImageBitmap;
	box: Box | null;
	score: number;
	at: number;
}

export class FaceWatcher {
	#kept: Kept[] = [];
	#timer: ReturnType<typeof setInterval> | null = null;
	#video: HTMLVideoElement | null = null;

	/** Watches `stream` every `intervalMs` with `detector` (the face nodes' detector, once created). */
	watch(stream: MediaStream, detector: FaceDetectorPort, { intervalMs = 700, keep = 3 } = {}): void {
		this.stop();
		const video = document.createElement('video');
		video.muted = true;
		video.playsInline = true;
		video.srcObject = stream;
		void video.play().catch(() => {});
		this.#video = video;
		const source = createLiveSource(video, detector, {});
		let busy = false;
		this.#timer = setInterval(async () => {
			if (busy || document.visibilityState === 'hidden') return;
			busy = true;
			try {
				const check = source.check();
				if (!check?.verdict.pass) return;
				const bitmap = await source.grab();
				if (!bitmap) return;
				this.#kept.push({ bitmap, box: check.box, score: check.verdict.score, at: performance.now() });
				this.#kept.sort((a, b) => b.score - a.score);
				for (const dropped of this.#kept.splice(keep)) dropped.bitmap.close();
			} finally {
				busy = false;
			}
		}, intervalMs);
	}

	/** The kept frames no older than `maxAgeMs` (handed over: the watcher forgets them). */
	take(maxAgeMs = 10_000): { bitmap: ImageBitmap; box: Box | null }[] {
		const now = performance.now();
		const fresh = this.#kept.filter((k) => now - k.at <= maxAgeMs);
		for (const k of this.#kept) if (!fresh.includes(k)) k.bitmap.close();
		this.#kept = [];
		return fresh.map(({ bitmap, box }) => ({ bitmap, box }));
	}

	stop(): void {
		if (this.#timer) clearInterval(this.#timer);
		this.#timer = null;
		if (this.#video) this.#video.srcObject = null;
		this.#video = null;
		for (const k of this.#kept) k.bitmap.close();
		this.#kept = [];
	}
}

/** The page's watcher (one camera, one session). */
export const faceWatcher = new FaceWatcher();

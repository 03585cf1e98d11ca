// The state of a document_scan screen (browser): the camera (rear camera preferred, torch where the
// track has one), a light check of a downscaled frame every few hundred ms (is there a document, is
// it sharp, is there glare: document-check.ts), an automatic capture of a full-resolution frame once
// a few checks in a row are good, the upload, and the server's answer. The .svelte file renders it.
import type { DocumentRetryReason, DocumentSideName } from '#lib/domain/page/document-evidence.schema.ts';
import type { NodeView } from '#lib/domain/page/page.schema.ts';
import type { Quad, Raster } from '#lib/documents/raster.ts';
import { CameraController } from '#lib/vision/camera.svelte.ts';
import type { FaceRunnerLike } from '../face/face-runner.ts';
import { checkFrame, sideSignature, type DocumentGuidance } from './document-check.ts';
import { scanStep } from './document-scan-step.ts';
import { documentNodeViewOf, type DocumentNodeSettings } from './document-node-view.ts';
import { uploadDocument, type CapturedSide } from './document-upload.ts';

export type DocumentPhase = 'loading' | 'scanning' | 'capturing' | 'flip' | 'uploading' | 'retry' | 'failed' | 'timeout' | 'done';

export interface DocumentView {
	phase: DocumentPhase;
	side: DocumentSideName;
	guidance: DocumentGuidance | null;
	/** The document's corners as shares of the frame (for the outline), or null. */
	quad: Quad | null;
	/** Good checks in a row so far, of CAPTURE_AFTER. */
	steady: number;
	retry: { reason: DocumentRetryReason; documentType: string | null; allowed: string[]; triesLeft: number } | null;
	error: string | null;
}

/** Milliseconds between frame checks and the pauses to turn the card over and to read a refusal. */
export const CHECK_INTERVAL_MS = 300;
export const FLIP_PAUSE_MS = 2500;
export const RETRY_PAUSE_MS = 3500;
/** Width of the frame copy the checks run on. */
const CHECK_WIDTH = 640;
const JPEG_QUALITY = 0.92;

export class DocumentCaptureState {
	view = $state<DocumentView>({ phase: 'loading', side: 'front', guidance: null, quad: null, steady: 0, retry: null, error: null });
	timeLeftMs = $state(0);
	torch = $state({ available: false, on: false });
	readonly camera: CameraController;
	readonly settings: DocumentNodeSettings;
	readonly sides: DocumentSideName[];
	#captured: CapturedSide[] = [];
	#video: HTMLVideoElement | null = null;
	#small: HTMLCanvasElement | null = null;
	#timers: ReturnType<typeof setTimeout>[] = [];
	#tick: ReturnType<typeof setInterval> | null = null;
	#clock: ReturnType<typeof setInterval> | null = null;
	#detach: (() => void)[] = [];
	#destroyed = false;
	#deadline = 0;
	#opened = performance.now();
	#torchTrack: MediaStreamTrack | null = null;
	/** MULTI_SIDE: the captured front's signature (the back must look different) and the last good frame. */
	#frontSignature: Float32Array | null = null;
	/**
	 * A document the server refused for its type: while it stays in view it is not captured again (it
	 * would only use up the tries); the refusal stays on screen until another document is shown.
	 */
	#refusedSignature: Float32Array | null = null;
	#lastGood: { frame: Raster; quad: Quad } | null = null;
	/** Page-side measurements sent with the upload (never trusted by the server; the bench reads them). */
	#stats = { checks: 0, checkMs: 0, framesSeen: 0, firstSeenAt: null as number | null, captureMs: 0, encodeMs: 0 };

	constructor(
		readonly runner: FaceRunnerLike,
		readonly node: NodeView,
		camera = new CameraController()
	) {
		this.camera = camera;
		const { settings, timeLeftMs: left } = documentNodeViewOf(node.props);
		this.settings = settings;
		this.sides = this.settings.scanningMode === 'MULTI_SIDE' ? ['front', 'back'] : ['front'];
		this.timeLeftMs = left;
		this.#deadline = performance.now() + left;
	}

	/** Starts the camera in `video`, the checks and the countdown. */
	async mount(video: HTMLVideoElement): Promise<void> {
		this.#video = video;
		const shared = this.runner.media?.stream;
		const track = shared?.getVideoTracks().find((t) => t.readyState === 'live');
		// The session's camera is the front one; on a device with several, take the rear camera.
		const cameras = await navigator.mediaDevices?.enumerateDevices?.().then((d) => d.filter((x) => x.kind === 'videoinput').length).catch(() => 1) ?? 1;
		if (this.#destroyed) return;
		if (shared && track && (cameras <= 1 || track.getSettings().facingMode === 'environment')) {
			this.camera.adopt(shared);
			// The session's camera is stopped while the tab is hidden and taken again when visible: follow it.
			this.#detach.push(
				$effect.root(() => {
					$effect(() => {
						const next = this.runner.media?.stream;
						if (next && next !== this.camera.stream && (this.camera.adopted || this.camera.state.status !== 'live')) this.camera.adopt(next);
					});
				})
			);
		} else this.camera.start({ facing: 'environment' });
		this.#detach.push(this.camera.attach(video));
		this.#small = document.createElement('canvas');
		this.view = { ...this.view, phase: 'scanning' };
		this.#tick = setInterval(() => this.#check(), CHECK_INTERVAL_MS);
		this.#clock = setInterval(() => this.#countdown(), 250);
	}

	#countdown(): void {
		this.timeLeftMs = Math.max(0, this.#deadline - performance.now());
		if (this.timeLeftMs > 0 || this.#destroyed) return;
		const phase = this.view.phase;
		// An upload under way is judged by the server against its own clock.
		if (phase === 'uploading' || phase === 'done' || phase === 'timeout') return;
		this.#stop();
		this.view = { ...this.view, phase: 'timeout', guidance: null, quad: null };
		void this.runner.act('timeout');
	}

	#frame(width: number): Raster | null {
		const video = this.#video;
		if (!video || !video.videoWidth || !video.videoHeight) return null;
		const scale = Math.min(1, width / video.videoWidth);
		const w = Math.round(video.videoWidth * scale), h = Math.round(video.videoHeight * scale);
		const canvas = this.#small!;
		if (canvas.width !== w) canvas.width = w;
		if (canvas.height !== h) canvas.height = h;
		const ctx = canvas.getContext('2d', { willReadFrequently: true });
		if (!ctx) return null;
		ctx.drawImage(video, 0, 0, w, h);
		const data = ctx.getImageData(0, 0, w, h);
		return { width: w, height: h, channels: 4, data: data.data };
	}

	#check(): void {
		if (this.view.phase !== 'scanning' || this.camera.state.status !== 'live') return;
		this.#readTorch();
		const frame = this.#frame(CHECK_WIDTH);
		if (!frame) return;
		const c = checkFrame(frame);
		const s = this.#stats;
		s.checks++;
		s.checkMs += c.ms;
		s.framesSeen++;
		if (c.quad && s.firstSeenAt === null) s.firstSeenAt = performance.now();
		const quad = c.quad ? (c.quad.map(([x, y]) => [x / frame.width, y / frame.height] as const) as unknown as Quad) : null;
		let signature: Float32Array | null | undefined;
		const step = scanStep(
			{ side: this.view.side, steady: this.view.steady, frontSignature: this.#frontSignature, refusedSignature: this.#refusedSignature },
			{ good: c.good, guidance: c.guidance, signature: () => (signature ??= c.quad ? sideSignature(frame, c.quad) : null) }
		);
		this.#refusedSignature = step.refusedSignature;
		if (step.good && c.quad) this.#lastGood = { frame, quad: c.quad };
		this.view = { ...this.view, guidance: step.guidance, quad, steady: step.steady };
		if (step.capture) void this.#capture(c.quality?.sharpness ?? 0, c.quality?.glare ?? 0, c.coverage);
	}

	async #capture(sharpness: number, glare: number, coverage: number): Promise<void> {
		const video = this.#video;
		if (!video) return;
		this.view = { ...this.view, phase: 'capturing' };
		const t0 = performance.now();
		const canvas = document.createElement('canvas');
		canvas.width = video.videoWidth;
		canvas.height = video.videoHeight;
		canvas.getContext('2d')!.drawImage(video, 0, 0);
		const t1 = performance.now();
		const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
		const t2 = performance.now();
		if (this.#destroyed) return;
		if (!jpeg) {
			this.view = { ...this.view, phase: 'scanning', steady: 0 };
			return;
		}
		this.#stats.captureMs += t1 - t0;
		this.#stats.encodeMs += t2 - t1;
		const side = this.sides[this.#captured.length];
		this.#captured.push({ side, jpeg, t: t0 - this.#opened });
		if (this.#captured.length < this.sides.length) {
			this.#frontSignature = this.#lastGood ? sideSignature(this.#lastGood.frame, this.#lastGood.quad) : null;
			// Front done: ask for the back, and give the user time to turn the card over.
			this.view = { ...this.view, phase: 'flip', side: this.sides[this.#captured.length], guidance: null, quad: null, steady: 0 };
			this.#later(() => {
				if (this.view.phase === 'flip') this.view = { ...this.view, phase: 'scanning' };
			}, FLIP_PAUSE_MS);
			return;
		}
		await this.#upload({ sharpness, glare, coverage });
	}

	async #upload(last: { sharpness: number; glare: number; coverage: number }): Promise<void> {
		this.view = { ...this.view, phase: 'uploading', guidance: null };
		const s = this.#stats;
		const info = this.camera.info;
		const answer = await uploadDocument(this.runner, this.node.id, this.#captured, {
			sharpness: Math.round(last.sharpness),
			glare: Number(last.glare.toFixed(4)),
			coverage: Number(last.coverage.toFixed(3)),
			framesSeen: s.framesSeen,
			durationMs: Math.round(performance.now() - this.#opened),
			timings: {
				check: Number((s.checkMs / Math.max(1, s.checks)).toFixed(1)),
				capture: Number(s.captureMs.toFixed(1)),
				encode: Number(s.encodeMs.toFixed(1)),
				...(s.firstSeenAt !== null ? { firstSeenToCapture: Math.round(performance.now() - s.firstSeenAt) } : {})
			},
			...(info ? { camera: { label: info.label.slice(0, 256), width: info.width, height: info.height, ...(info.facingMode ? { facingMode: info.facingMode } : {}), torch: this.torch.on } } : {})
		});
		if (this.#destroyed) return;
		const shown = this.#frontSignature ?? (this.#lastGood ? sideSignature(this.#lastGood.frame, this.#lastGood.quad) : null);
		this.#refusedSignature = answer.kind === 'retry' && answer.reason === 'typeNotAllowed' ? shown : null;
		this.#captured = [];
		this.#frontSignature = null;
		if (answer.kind === 'moved') {
			this.view = { ...this.view, phase: 'done' };
			this.#stop();
			return;
		}
		if (answer.kind === 'failed') {
			this.view = { ...this.view, phase: 'failed', error: answer.error };
			return;
		}
		this.view = { ...this.view, phase: 'retry', side: 'front', quad: null, steady: 0, retry: { reason: answer.reason, documentType: answer.documentType, allowed: answer.allowed, triesLeft: answer.triesLeft } };
		this.#later(() => {
			if (this.view.phase === 'retry') this.view = { ...this.view, phase: 'scanning' };
		}, RETRY_PAUSE_MS);
	}

	/** After a failed upload: scan again from the first side. */
	restart(): void {
		this.#refusedSignature = null;
		this.#captured = [];
		this.#frontSignature = null;
		this.view = { ...this.view, phase: 'scanning', side: 'front', quad: null, steady: 0, error: null };
	}

	async cancel(): Promise<unknown> {
		this.#stop();
		return this.runner.act('cancel');
	}

	retryCamera(): void {
		this.camera.start({ deviceId: this.camera.state.deviceId, facing: 'environment' });
	}

	switchCamera(): void {
		this.torch = { available: false, on: false };
		this.#torchTrack = null;
		this.camera.switchCamera();
	}

	/** Whether the live track can light the scene (checked once per track). */
	#readTorch(): void {
		const track = this.camera.stream?.getVideoTracks()[0] ?? null;
		if (!track || track === this.#torchTrack) return;
		this.#torchTrack = track;
		const caps = (track.getCapabilities?.() ?? {}) as MediaTrackCapabilities & { torch?: boolean };
		this.torch = { available: this.settings.showTorchButton && caps.torch === true, on: false };
	}

	async toggleTorch(): Promise<void> {
		const track = this.#torchTrack;
		if (!track || !this.torch.available) return;
		const on = !this.torch.on;
		try {
			await track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
			this.torch = { ...this.torch, on };
		} catch {
			this.torch = { available: false, on: false };
		}
	}

	#later(fn: () => void, ms: number): void {
		this.#timers.push(setTimeout(fn, ms));
	}

	#stop(): void {
		if (this.#tick) clearInterval(this.#tick);
		if (this.#clock) clearInterval(this.#clock);
		this.#tick = this.#clock = null;
		for (const t of this.#timers.splice(0)) clearTimeout(t);
	}

	destroy(): void {
		this.#destroyed = true;
		this.#stop();
		if (this.torch.on) void this.#torchTrack?.applyConstraints({ advanced: [{ torch: false } as MediaTrackConstraintSet] }).catch(() => {});
		for (const d of this.#detach.splice(0)) d();
		this.camera.stop();
	}
}

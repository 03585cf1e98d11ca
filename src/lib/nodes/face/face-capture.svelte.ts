// The state of a face node's screen (browser): camera, detector, worker and the capture machine
// wired together. The .svelte file only renders it.
import { FACE_SCAN_DEFAULTS } from '#lib/domain/face/thresholds.ts';
import type { FaceNodeType } from '#lib/domain/flow/node-types.ts';
import type { FaceViewSettings } from '#lib/domain/nodes/face.contract.ts';
import type { NodeViewOf } from '#lib/domain/nodes/node-contracts.ts';
import { CameraController } from '#lib/camera/camera.svelte.ts';
import { CaptureMachine, type CaptureView } from '#lib/camera/capture-machine.ts';
import { createCues } from '#lib/camera/cues.ts';
import type { FaceDetectorPort } from '#lib/camera/detector.ts';
import { sharedFaceWorker } from '#lib/camera/face-worker-client.ts';
import { faceWatcher } from '#lib/camera/face-watcher.ts';
import { sharedDetector } from '#lib/camera/shared-detector.ts';
import { createLiveSource } from '#lib/camera/live-frames.ts';
import type { QualitySettings } from '#lib/face/quality-gate.ts';
import { uploadEvidence, type PagePort } from './face-upload.ts';

const CLAIMS: Record<string, { success: string; failure: string }> = {
	liveness_detection: { success: 'livenessDetected', failure: 'deepfakeDetected' },
	face_scan: { success: 'passed', failure: 'notPassed' }
};

/** Embeddings of faces captured on this page, by saveToField (a later compare can preview its result). */
const localFaces = new Map<string, Float32Array>();

export class FaceCaptureState {
	view = $state<CaptureView>({ phase: 'loading', message: 'guidance.loading', progress: 0, challenge: null, reason: null, triesLeft: null, box: null, light: null });
	readonly camera: CameraController;
	readonly settings: FaceViewSettings;
	readonly node: NodeViewOf<FaceNodeType>;
	readonly runner: PagePort;
	#machine: CaptureMachine | null = null;
	#detach: (() => void)[] = [];
	#destroyed = false;

	constructor(runner: PagePort, node: NodeViewOf<FaceNodeType>, camera = new CameraController()) {
		this.runner = runner;
		this.node = node;
		this.camera = camera;
		// Settings with the defaults applied by the server, from the node type's contract.
		this.settings = node.props.settings;
	}

	/** Starts the camera in `video` and the capture. */
	async mount(video: HTMLVideoElement): Promise<void> {
		const shared = this.runner.media?.stream;
		if (shared && shared.getVideoTracks().some((t) => t.readyState === 'live')) this.camera.adopt(shared);
		else this.camera.start();
		this.#detach.push(this.camera.attach(video));
		// "Getting the camera ready…" until the detector has looked; but once the picture plays (the
		// detector still building on a first visit with Continue tapped at once: 1.9–3.7 s measured)
		// those words beside a live picture read as stuck, so the page says what to do instead. An
		// instruction, not a finding: it claims nothing about a face the detector has not seen.
		let showing = false;
		const framed = (v: CaptureView): CaptureView => (showing && v.message === 'guidance.loading' && (v.phase === 'loading' || v.phase === 'positioning') ? { ...v, message: 'guidance.frame' } : v);
		const onPlaying = () => {
			showing = true;
			this.view = framed(this.view);
		};
		video.addEventListener('playing', onPlaying);
		this.#detach.push(() => video.removeEventListener('playing', onPlaying));
		let det: FaceDetectorPort;
		try {
			det = await sharedDetector(this.settings.useWebGL);
		} catch {
			this.view = { ...this.view, phase: 'failed', reason: 'error', message: 'failure.error' };
			return;
		}
		if (this.#destroyed) return;
		const source = createLiveSource(video, det, this.settings);
		const cue = createCues({ sound: this.settings.enableSound, haptics: this.settings.enableHaptics });
		const challenge = this.node.props.challenge;
		const referenceField = this.node.props.referenceField ?? null;
		const saveTo = this.node.props.saveToField ?? null;
		const machine = new CaptureMachine(
			{
				now: () => performance.now(),
				setTimeout: (fn, ms) => setTimeout(fn, ms),
				clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
				check: () => (this.camera.state.status === 'live' ? source.check() : null),
				grab: () => source.grab(),
				analyser: {
					ready: () => sharedFaceWorker().ready(),
					analyse: (...args) => sharedFaceWorker().analyse(...args),
					keep: (...args) => sharedFaceWorker().keep(...args),
					embed: (frameId) => sharedFaceWorker().embed(frameId),
					encode: (...args) => sharedFaceWorker().encode(...args),
					drop: (...args) => sharedFaceWorker().drop(...args)
				},
				upload: (payload) => uploadEvidence(this.runner, this.node.id, payload),
				cue,
				camera: () => {
					const info = this.camera.info;
					return info ? { label: info.label.slice(0, 256), virtual: info.virtual, width: info.width, height: info.height, ...(info.facingMode ? { facingMode: info.facingMode } : {}) } : undefined;
				}
			},
			{
				challenge,
				light: this.node.props.light,
				captureDelay: this.settings.captureDelay,
				detectionInterval: this.settings.detectionInterval,
				timeoutMs: this.settings.timeoutSeconds ? this.settings.timeoutSeconds * 1000 : null,
				buffered: this.node.type === 'recognition' ? faceWatcher.take() : undefined,
				localReference: referenceField ? (localFaces.get(referenceField) ?? null) : null,
				onEmbedding: (e) => {
					if (saveTo) localFaces.set(saveTo, e);
				},
				claimOutcomes: CLAIMS[this.node.type]
			}
		);
		this.#machine = machine;
		this.#detach.push(machine.subscribe((v) => (this.view = framed(v))));
		await machine.start();
	}

	cancel(): Promise<unknown> {
		this.#machine?.cancel();
		return this.runner.act('cancel');
	}

	restart(): void {
		this.#machine?.restart();
	}

	retryCamera(): void {
		this.camera.start({ deviceId: this.camera.state.deviceId });
	}

	destroy(): void {
		this.#destroyed = true;
		this.#machine?.destroy();
		for (const d of this.#detach.splice(0)) d();
		this.camera.stop();
	}
}

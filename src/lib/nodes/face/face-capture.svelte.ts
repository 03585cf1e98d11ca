// The state of a face node's screen (browser): camera, detector, worker and the capture machine
// wired together. The .svelte file only renders it.
import { isChallenge } from '#lib/domain/face/challenge.ts';
import { FACE_SCAN_DEFAULTS } from '#lib/domain/face/thresholds.ts';
import { FACE_NODE_DEFAULTS } from '#lib/domain/flow/face-settings.ts';
import type { NodeView } from '#lib/domain/page/page.schema.ts';
import { CameraController } from '#lib/camera/camera.svelte.ts';
import { CaptureMachine, type CaptureView } from '#lib/camera/capture-machine.ts';
import { createCues } from '#lib/camera/cues.ts';
import type { FaceDetectorPort } from '#lib/camera/detector.ts';
import { sharedFaceWorker } from '#lib/camera/face-worker-client.ts';
import { faceWatcher } from '#lib/camera/face-watcher.ts';
import { createLiveSource } from '#lib/camera/live-frames.ts';
import type { QualitySettings } from '#lib/face/quality-gate.ts';
import { uploadEvidence, type FaceRunnerLike } from './face-runner.ts';

interface NodeSettings extends QualitySettings {
	captureInstructions: string | null;
	captureDelay: number;
	detectionInterval: number;
	enableSound: boolean;
	enableHaptics: boolean;
	useWebGL: boolean;
	maxRetries: number;
	timeoutSeconds: number | null;
}

/** The node's settings as the server's view gives them (defaults for anything missing). */
export function settingsOf(node: NodeView): NodeSettings {
	const s = (node.props.settings ?? {}) as Partial<NodeSettings>;
	return {
		captureInstructions: s.captureInstructions ?? null,
		captureDelay: s.captureDelay ?? FACE_NODE_DEFAULTS.captureDelay,
		detectionInterval: s.detectionInterval ?? FACE_NODE_DEFAULTS.detectionInterval,
		qualityThreshold: s.qualityThreshold ?? FACE_SCAN_DEFAULTS.qualityThreshold,
		blurThreshold: s.blurThreshold ?? FACE_SCAN_DEFAULTS.blurThreshold,
		minFaceSize: s.minFaceSize ?? FACE_SCAN_DEFAULTS.minFaceSize,
		maxFaceSize: s.maxFaceSize ?? FACE_SCAN_DEFAULTS.maxFaceSize,
		enableSound: s.enableSound ?? true,
		enableHaptics: s.enableHaptics ?? true,
		useWebGL: s.useWebGL ?? true,
		maxRetries: s.maxRetries ?? FACE_NODE_DEFAULTS.maxRetries,
		timeoutSeconds: s.timeoutSeconds ?? null
	};
}

const CLAIMS: Record<string, { success: string; failure: string }> = {
	liveness_detection: { success: 'livenessDetected', failure: 'deepfakeDetected' },
	face_scan: { success: 'passed', failure: 'notPassed' }
};

let detector: Promise<FaceDetectorPort> | null = null;
/** One detector per page (its wasm and model are large; nodes share it). */
export function sharedDetector(useWebGL: boolean): Promise<FaceDetectorPort> {
	detector ??= import('#lib/camera/detector.mediapipe.ts').then((m) => m.createMediaPipeDetector({ useWebGL }));
	detector.catch(() => (detector = null));
	return detector;
}

/** Embeddings of faces captured on this page, by saveToField (a later compare can preview its result). */
const localFaces = new Map<string, Float32Array>();

export class FaceCaptureState {
	view = $state<CaptureView>({ phase: 'loading', message: 'guidance.loading', progress: 0, challenge: null, reason: null, triesLeft: null, box: null });
	readonly camera: CameraController;
	readonly settings: NodeSettings;
	readonly node: NodeView;
	readonly runner: FaceRunnerLike;
	#machine: CaptureMachine | null = null;
	#detach: (() => void)[] = [];
	#destroyed = false;

	constructor(runner: FaceRunnerLike, node: NodeView, camera = new CameraController()) {
		this.runner = runner;
		this.node = node;
		this.camera = camera;
		this.settings = settingsOf(node);
	}

	/** Starts the camera in `video` and the capture. */
	async mount(video: HTMLVideoElement): Promise<void> {
		const shared = this.runner.media?.stream;
		if (shared && shared.getVideoTracks().some((t) => t.readyState === 'live')) this.camera.adopt(shared);
		else this.camera.start();
		this.#detach.push(this.camera.attach(video));
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
		const referenceField = typeof this.node.props.referenceField === 'string' ? this.node.props.referenceField : null;
		const saveTo = typeof this.node.props.saveToField === 'string' ? this.node.props.saveToField : null;
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
				challenge: isChallenge(challenge) ? challenge : null,
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
		this.#detach.push(machine.subscribe((v) => (this.view = v)));
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

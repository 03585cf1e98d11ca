// The document_scan screen's browser side; the .svelte file renders it. It owns what the pure machine
// (document-capture-machine.ts) must not: the camera (rear camera preferred, torch where the track has
// one), the intervals and wakes, the frame checks (document-check.ts) and the upload. It turns each of
// them into an event for the machine and runs the commands the machine answers with.
import type { DocumentSideName } from '#lib/domain/page/document-evidence.schema.ts';
import type { DocumentViewProps } from '#lib/domain/nodes/document-scan.contract.ts';
import type { NodeViewOf } from '#lib/domain/nodes/node-contracts.ts';
import { CameraController } from '#lib/camera/camera.svelte.ts';
import type { PagePort } from '../face/face-upload.ts';
import { documentTransition, initialDocumentState, type DocumentCommand, type DocumentEvent, type DocumentMachineState, type DocumentView } from './document-capture-machine.ts';
import { checkFrame, sideSignature } from './document-check.ts';
import { ScanStats } from './document-claim.ts';
import { shareOfFrame, VideoFrames } from './document-frames.ts';
import { Torch } from './document-torch.svelte.ts';
import { uploadDocument } from './document-upload.ts';

/** Milliseconds between frame checks. */
export const CHECK_INTERVAL_MS = 300;
/** Milliseconds between ticks of the machine's clock: the countdown on screen moves with them. */
const CLOCK_INTERVAL_MS = 250;
/** Width of the frame copy the checks run on. */
const CHECK_WIDTH = 640;

const now = () => performance.now();

export class DocumentCaptureState {
	#machine: DocumentMachineState;
	readonly torch: Torch;
	readonly camera: CameraController;
	readonly settings: DocumentViewProps['settings'];
	#frames: VideoFrames | null = null;
	readonly #stats = new ScanStats();
	readonly #opened = now();
	#intervals: ReturnType<typeof setInterval>[] = [];
	#wakes: ReturnType<typeof setTimeout>[] = [];
	#detach: (() => void)[] = [];
	#destroyed = false;

	constructor(
		readonly runner: PagePort,
		readonly node: NodeViewOf<'document_scan'>,
		camera = new CameraController()
	) {
		this.camera = camera;
		// Settings with the defaults applied by the server, from the node type's contract.
		const { settings, timeLeftMs } = node.props;
		this.settings = settings;
		this.torch = new Torch(settings.showTorchButton);
		const sides: DocumentSideName[] = settings.scanningMode === 'MULTI_SIDE' ? ['front', 'back'] : ['front'];
		// Raw: every transition returns a new state, and signatures and blobs need no proxy.
		this.#machine = $state.raw(initialDocumentState({ sides, timeLeftMs, now: this.#opened }));
	}

	/** What the screen shows. */
	get view(): DocumentView {
		return this.#machine.view;
	}

	get timeLeftMs(): number {
		return this.#machine.timeLeftMs;
	}

	/** Starts the camera in `video`, the checks and the countdown. */
	async mount(video: HTMLVideoElement): Promise<void> {
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
		this.#frames = new VideoFrames(video, now);
		void this.#send({ type: 'start' });
		this.#intervals.push(
			setInterval(() => this.#check(), CHECK_INTERVAL_MS),
			setInterval(() => void this.#send({ type: 'tick', now: now() }), CLOCK_INTERVAL_MS)
		);
	}

	/** After a failed upload: scan again from the first side. */
	restart(): void {
		void this.#send({ type: 'restart' });
	}

	/** Resolves once the server has the user's cancel. */
	async cancel(): Promise<unknown> {
		return this.#send({ type: 'cancel' });
	}

	retryCamera(): void {
		this.camera.start({ deviceId: this.camera.state.deviceId, facing: 'environment' });
	}

	switchCamera(): void {
		this.torch.forget();
		this.camera.switchCamera();
	}

	toggleTorch(): Promise<void> {
		return this.torch.toggle();
	}

	destroy(): void {
		this.#destroyed = true;
		this.#stop();
		this.torch.off();
		for (const d of this.#detach.splice(0)) d();
		this.camera.stop();
	}

	/** Feeds the machine one event and runs its commands; resolves when what they started is done. */
	#send(event: DocumentEvent): Promise<unknown> {
		const { state, commands } = documentTransition(this.#machine, event);
		this.#machine = state;
		return Promise.all(commands.map((c) => this.#run(c)));
	}

	async #run(command: DocumentCommand): Promise<unknown> {
		switch (command.type) {
			case 'capture':
				return this.#capture();
			case 'upload': {
				const claim = this.#stats.claim(command.measures, { now: now(), openedAt: this.#opened, camera: this.camera.info, torch: this.torch.on });
				const answer = await uploadDocument(this.runner, this.node.id, command.sides, claim);
				return this.#destroyed ? undefined : this.#send({ type: 'answered', now: now(), answer });
			}
			case 'wake':
				this.#wakes.push(setTimeout(() => void this.#send({ type: 'tick', now: now() }), Math.max(0, command.at - now())));
				return;
			case 'stop':
				return this.#stop();
			case 'report':
				return this.runner.act(command.action);
		}
	}

	/** Checks the current frame while the machine is looking for a document and the camera is live. */
	#check(): void {
		if (this.view.phase !== 'scanning' || this.camera.state.status !== 'live') return;
		this.torch.follow(this.camera.stream?.getVideoTracks()[0] ?? null);
		const frame = this.#frames?.small(CHECK_WIDTH);
		if (!frame) return;
		const c = checkFrame(frame);
		this.#stats.checked(c.ms, c.quad !== null, now());
		// The signature costs a warp: taken only if the machine asks, and once per frame.
		let signature: Float32Array | null | undefined;
		void this.#send({
			type: 'frame',
			look: { good: c.good, guidance: c.guidance, signature: () => (signature ??= c.quad ? sideSignature(frame, c.quad) : null) },
			quad: c.quad ? shareOfFrame(c.quad, frame) : null,
			measures: { sharpness: c.quality?.sharpness ?? 0, glare: c.quality?.glare ?? 0, coverage: c.coverage }
		});
	}

	async #capture(): Promise<unknown> {
		const shot = this.#frames ? await this.#frames.jpeg() : null;
		if (this.#destroyed) return;
		if (shot?.jpeg) this.#stats.captured(shot.drawMs, shot.encodeMs);
		return this.#send({ type: 'captured', now: now(), jpeg: shot?.jpeg ?? null, t: (shot?.at ?? now()) - this.#opened });
	}

	#stop(): void {
		for (const i of this.#intervals.splice(0)) clearInterval(i);
		for (const t of this.#wakes.splice(0)) clearTimeout(t);
	}
}

// The camera for face nodes (browser only): runs camera-machine.ts against getUserMedia. It either owns
// its stream (a node opened without the session's camera) or adopts the session's stream (the video-call
// layout keeps one camera for the whole session); an adopted stream's tracks belong to its owner.
import { isVirtualCameraLabel } from '#lib/face/injection.ts';
import {
	cameraTransition,
	classifyCameraError,
	constraintsFor,
	initialCamera,
	type CameraEvent,
	type CameraState,
	type Facing
} from './camera-machine.ts';

export interface CameraInfo {
	label: string;
	deviceId: string | null;
	width: number;
	height: number;
	facingMode: string | null;
	/** The label names a virtual camera (a signal for the server, not a verdict). */
	virtual: boolean;
}

export interface CameraEnv {
	getUserMedia?: (c: MediaStreamConstraints) => Promise<MediaStream>;
	enumerateDevices?: () => Promise<MediaDeviceInfo[]>;
	document?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
}

function browserEnv(): CameraEnv {
	const md = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
	return {
		getUserMedia: md?.getUserMedia ? (c) => md.getUserMedia(c) : undefined,
		enumerateDevices: md?.enumerateDevices ? () => md.enumerateDevices() : undefined,
		document: typeof document !== 'undefined' ? document : undefined
	};
}

export class CameraController {
	state = $state<CameraState>(initialCamera());
	stream = $state.raw<MediaStream | null>(null);
	info = $state.raw<CameraInfo | null>(null);
	devices = $state.raw<MediaDeviceInfo[]>([]);
	/** True while the stream belongs to someone else (the session's camera). */
	adopted = $state(false);

	readonly #env: CameraEnv;
	#generation = 0;
	#detach: (() => void)[] = [];

	constructor(env: CameraEnv = browserEnv()) {
		this.#env = env;
		const doc = env.document;
		if (doc) {
			const onVisibility = () => this.send({ type: doc.visibilityState === 'hidden' ? 'hidden' : 'visible' });
			doc.addEventListener('visibilitychange', onVisibility);
			this.#detach.push(() => doc.removeEventListener('visibilitychange', onVisibility));
		}
		if (typeof window !== 'undefined') {
			const onOrientation = () => this.#readInfo();
			window.addEventListener('orientationchange', onOrientation);
			screen.orientation?.addEventListener?.('change', onOrientation);
			this.#detach.push(() => {
				window.removeEventListener('orientationchange', onOrientation);
				screen.orientation?.removeEventListener?.('change', onOrientation);
			});
		}
	}

	/** Takes the camera (front camera unless a device or facing mode is given). */
	start(options: { deviceId?: string | null; facing?: Facing } = {}): void {
		if (!this.#env.getUserMedia) {
			this.state = { ...this.state, status: 'problem', problem: typeof window !== 'undefined' && !window.isSecureContext ? 'insecure' : 'unsupported' };
			return;
		}
		this.send({ type: 'start', ...options });
	}

	/** Uses a stream someone else owns (the session's camera): never stops its tracks. */
	adopt(stream: MediaStream): void {
		this.#release();
		this.adopted = true;
		this.stream = stream;
		const track = stream.getVideoTracks()[0];
		this.state = { ...this.state, status: track && track.readyState === 'live' ? 'live' : 'lost', problem: null, deviceId: track?.getSettings().deviceId ?? null };
		this.#watchTrack(stream);
		this.#readInfo();
		void this.#listDevices();
	}

	/** The next camera (front ↔ back on phones). */
	switchCamera(): void {
		const cams = this.devices;
		if (cams.length < 2) return;
		const at = cams.findIndex((d) => d.deviceId === this.info?.deviceId);
		const next = cams[(at + 1) % cams.length];
		if (this.adopted) {
			// Switching replaces the stream: from now on this controller owns it.
			this.adopted = false;
			this.stream = null;
			this.state = { ...this.state, status: 'problem' };
			this.send({ type: 'start', deviceId: next.deviceId });
			return;
		}
		this.send({ type: 'switch', deviceId: next.deviceId });
	}

	/** Ends the camera for this node: owned tracks stopped, listeners removed. */
	stop(): void {
		this.send({ type: 'stop' });
		for (const d of this.#detach.splice(0)) d();
	}

	/** Shows the stream in a video element (inline on iOS, muted so autoplay is allowed). */
	attach(video: HTMLVideoElement): () => void {
		video.playsInline = true;
		video.muted = true;
		video.autoplay = true;
		video.setAttribute('playsinline', '');
		const apply = () => {
			if (video.srcObject !== this.stream) video.srcObject = this.stream;
			if (this.stream) void video.play().catch(() => {});
		};
		apply();
		const stop = $effect.root(() => {
			$effect(() => {
				void this.stream;
				apply();
			});
		});
		return () => {
			stop();
			video.srcObject = null;
		};
	}

	send(event: CameraEvent): void {
		if (this.adopted && (event.type === 'hidden' || event.type === 'visible' || event.type === 'stop')) {
			// The owner suspends and resumes its own stream; this controller only lets go of it.
			if (event.type === 'stop') {
				this.adopted = false;
				this.stream = null;
				this.state = { ...this.state, status: 'stopped' };
			}
			return;
		}
		const { state, effect } = cameraTransition(this.state, event);
		this.state = state;
		if (effect === 'release') this.#release();
		if (effect === 'acquire') void this.#acquire();
	}

	async #acquire(): Promise<void> {
		const generation = ++this.#generation;
		this.#release(false);
		try {
			const stream = await this.#env.getUserMedia!(constraintsFor(this.state));
			if (generation !== this.#generation || this.state.status !== 'starting') {
				for (const t of stream.getTracks()) t.stop();
				return;
			}
			this.stream = stream;
			this.#watchTrack(stream);
			this.send({ type: 'started', deviceId: stream.getVideoTracks()[0]?.getSettings().deviceId ?? null });
			this.#readInfo();
			void this.#listDevices();
		} catch (err) {
			if (generation === this.#generation) this.send({ type: 'failed', problem: classifyCameraError(err) });
		}
	}

	#watchTrack(stream: MediaStream): void {
		const track = stream.getVideoTracks()[0];
		track?.addEventListener('ended', () => {
			if (this.stream === stream) this.send({ type: 'trackEnded' });
		});
	}

	#release(bump = true): void {
		if (bump) this.#generation++;
		if (!this.adopted) for (const t of this.stream?.getTracks() ?? []) t.stop();
		this.stream = null;
	}

	#readInfo(): void {
		const track = this.stream?.getVideoTracks()[0];
		if (!track) return void (this.info = null);
		const s = track.getSettings();
		this.info = {
			label: track.label,
			deviceId: s.deviceId ?? null,
			width: s.width ?? 0,
			height: s.height ?? 0,
			facingMode: s.facingMode ?? null,
			virtual: isVirtualCameraLabel(track.label)
		};
	}

	async #listDevices(): Promise<void> {
		try {
			this.devices = ((await this.#env.enumerateDevices?.()) ?? []).filter((d) => d.kind === 'videoinput');
		} catch {
			this.devices = [];
		}
	}
}

import { classifyMediaError, type MediaProblem } from './permission-result.ts';

export interface MediaNeeds {
	camera: boolean;
	microphone: boolean;
}

export type MediaRequest = { ok: true } | { ok: false; problem: MediaProblem };

type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

/**
 * The camera for the whole session: asked for once (permissions page), kept for the video-call
 * layout and the camera nodes, stopped when the tab is hidden (and taken again, without a prompt,
 * when it is visible) and when the session ends. The microphone is asked for with it so the
 * browser asks once, then released: speech recognition opens its own.
 */
export class MediaSession {
	stream = $state.raw<MediaStream | null>(null);
	problem = $state<MediaProblem | null>(null);
	/** The camera was granted this session (a hidden tab suspends it; visible again resumes). */
	granted = $state(false);
	#ended = false;
	#detach: (() => void) | null = null;

	private readonly getUserMedia: GetUserMedia | null;

	constructor(getUserMedia: GetUserMedia | null = defaultGetUserMedia()) {
		this.getUserMedia = getUserMedia;
	}

	/** Asks for what the flow needs. Only a granted camera stays open. */
	async request(needs: MediaNeeds): Promise<MediaRequest> {
		if (!needs.camera && !needs.microphone) return { ok: true };
		if (typeof window !== 'undefined' && !window.isSecureContext) return this.#fail('insecure');
		if (!this.getUserMedia) return this.#fail('unsupported');
		try {
			const stream = await this.getUserMedia({
				video: needs.camera ? { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } } : false,
				audio: needs.microphone
			});
			for (const track of stream.getAudioTracks()) track.stop();
			this.problem = null;
			if (needs.camera && !this.#ended) {
				this.stream = stream;
				this.granted = true;
				this.#watchVisibility();
			} else {
				for (const track of stream.getTracks()) track.stop();
			}
			return { ok: true };
		} catch (err) {
			return this.#fail(classifyMediaError(err));
		}
	}

	/** Takes the camera again after a reload or a hidden tab; never prompts for a new permission. */
	async resume(): Promise<void> {
		if (this.stream || this.#ended || !this.getUserMedia) return;
		try {
			const stream = await this.getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
			if (this.#ended || (typeof document !== 'undefined' && document.visibilityState === 'hidden')) {
				for (const track of stream.getTracks()) track.stop();
				return;
			}
			this.stream = stream;
			this.granted = true;
			this.#watchVisibility();
		} catch (err) {
			this.problem = classifyMediaError(err);
		}
	}

	/** Stops every track (hidden tab). */
	suspend(): void {
		for (const track of this.stream?.getTracks() ?? []) track.stop();
		this.stream = null;
	}

	/** The session is over: stop for good. */
	end(): void {
		this.#ended = true;
		this.suspend();
		this.#detach?.();
		this.#detach = null;
	}

	#fail(problem: MediaProblem): MediaRequest {
		this.problem = problem;
		return { ok: false, problem };
	}

	#watchVisibility(): void {
		if (this.#detach || typeof document === 'undefined') return;
		const onChange = () => {
			if (document.visibilityState === 'hidden') this.suspend();
			else if (this.granted) void this.resume();
		};
		document.addEventListener('visibilitychange', onChange);
		this.#detach = () => document.removeEventListener('visibilitychange', onChange);
	}
}

function defaultGetUserMedia(): GetUserMedia | null {
	if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) return null;
	return (constraints) => navigator.mediaDevices.getUserMedia(constraints);
}

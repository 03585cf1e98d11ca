// The torch button of the document scan: offered where the live track can light the scene and the
// node shows the button; switched off when the page leaves, since the light belongs to the device.

/** The torch as a track constraint (not in the DOM typings yet). */
const torchSet = (on: boolean) => ({ advanced: [{ torch: on } as MediaTrackConstraintSet] });

export class Torch {
	available = $state(false);
	on = $state(false);
	readonly #allowed: boolean;
	#track: MediaStreamTrack | null = null;

	constructor(allowed: boolean) {
		this.#allowed = allowed;
	}

	/** Reads whether `track` has a torch (once per track: the capabilities do not change). */
	follow(track: MediaStreamTrack | null): void {
		if (!track || track === this.#track) return;
		this.#track = track;
		const caps = (track.getCapabilities?.() ?? {}) as MediaTrackCapabilities & { torch?: boolean };
		this.available = this.#allowed && caps.torch === true;
		this.on = false;
	}

	async toggle(): Promise<void> {
		const track = this.#track;
		if (!track || !this.available) return;
		const on = !this.on;
		try {
			await track.applyConstraints(torchSet(on));
			this.on = on;
		} catch {
			this.forget();
		}
	}

	/** Another camera is coming: its track is read afresh. */
	forget(): void {
		this.#track = null;
		this.available = false;
		this.on = false;
	}

	off(): void {
		if (this.on) void this.#track?.applyConstraints(torchSet(false)).catch(() => {});
	}
}

// The camera's lifecycle as an explicit state machine (STYLE.md habit 8). Pure: `cameraTransition`
// says what state follows an event and which effect to run (take the camera, or release every track);
// camera.svelte.ts runs the effects against the browser.

export type CameraProblem = 'denied' | 'noCamera' | 'busy' | 'insecure' | 'unsupported' | 'error';

export type CameraStatus =
	/** Not asked yet. */
	| 'idle'
	/** getUserMedia is pending (first start, a device switch, a lower resolution, coming back visible). */
	| 'starting'
	| 'live'
	/** The tab is hidden: every track is stopped; taken again when visible. */
	| 'suspended'
	/** The camera went away while live (unplugged, taken by another app, driver crash). */
	| 'lost'
	/** getUserMedia failed: see `problem`. */
	| 'problem'
	/** The node or the session ended: every track is stopped. */
	| 'stopped';

export type Facing = 'user' | 'environment';

export interface CameraState {
	status: CameraStatus;
	problem: CameraProblem | null;
	/** Device asked for (null: by facing mode). */
	deviceId: string | null;
	facing: Facing;
	/** Index into RESOLUTIONS tried now (a camera that cannot do one gets the next). */
	resolution: number;
}

/** Resolutions asked for in turn: 720p where the camera has it, then VGA, then whatever it gives. */
export const RESOLUTIONS: readonly ({ width: number; height: number } | null)[] = [{ width: 1280, height: 720 }, { width: 640, height: 480 }, null];

export type CameraEvent =
	| { type: 'start'; deviceId?: string | null; facing?: Facing }
	| { type: 'started'; deviceId: string | null }
	| { type: 'failed'; problem: CameraProblem | 'overconstrained' }
	| { type: 'trackEnded' }
	| { type: 'hidden' }
	| { type: 'visible' }
	| { type: 'switch'; deviceId: string }
	| { type: 'stop' };

export type CameraEffect = 'acquire' | 'release' | null;

export const initialCamera = (facing: Facing = 'user'): CameraState => ({ status: 'idle', problem: null, deviceId: null, facing, resolution: 0 });

/** The next state and the effect to run for an event; events that make no sense in a state change nothing. */
export function cameraTransition(state: CameraState, event: CameraEvent): { state: CameraState; effect: CameraEffect } {
	const stay = { state, effect: null };
	switch (event.type) {
		case 'start':
			if (state.status === 'starting' || state.status === 'live') return stay;
			return {
				state: { status: 'starting', problem: null, deviceId: event.deviceId ?? state.deviceId, facing: event.facing ?? state.facing, resolution: 0 },
				effect: 'acquire'
			};
		case 'started':
			if (state.status !== 'starting') return { state, effect: 'release' }; // stopped meanwhile: give it back
			return { state: { ...state, status: 'live', problem: null, deviceId: event.deviceId ?? state.deviceId }, effect: null };
		case 'failed':
			if (state.status !== 'starting') return stay;
			if (event.problem === 'overconstrained') {
				// A camera that cannot do this resolution (or this device id any more) gets the next step down.
				if (state.resolution + 1 < RESOLUTIONS.length) return { state: { ...state, resolution: state.resolution + 1 }, effect: 'acquire' };
				if (state.deviceId) return { state: { ...state, deviceId: null, resolution: 0 }, effect: 'acquire' };
				return { state: { ...state, status: 'problem', problem: 'noCamera' }, effect: null };
			}
			return { state: { ...state, status: 'problem', problem: event.problem }, effect: null };
		case 'trackEnded':
			return state.status === 'live' ? { state: { ...state, status: 'lost', problem: null }, effect: 'release' } : stay;
		case 'hidden':
			return state.status === 'live' || state.status === 'starting' ? { state: { ...state, status: 'suspended' }, effect: 'release' } : stay;
		case 'visible':
			return state.status === 'suspended' ? { state: { ...state, status: 'starting', resolution: 0 }, effect: 'acquire' } : stay;
		case 'switch':
			if (state.status === 'stopped' || state.status === 'idle') return stay;
			return { state: { ...state, status: 'starting', problem: null, deviceId: event.deviceId, resolution: 0 }, effect: 'acquire' };
		case 'stop':
			return state.status === 'stopped' ? stay : { state: { ...state, status: 'stopped' }, effect: 'release' };
	}
}

/** getUserMedia constraints for a state. */
export function constraintsFor(state: CameraState): MediaStreamConstraints {
	const size = RESOLUTIONS[state.resolution];
	const video: MediaTrackConstraints = {
		...(state.deviceId ? { deviceId: { exact: state.deviceId } } : { facingMode: state.facing }),
		...(size ? { width: { ideal: size.width }, height: { ideal: size.height } } : {}),
		frameRate: { ideal: 30 }
	};
	return { video, audio: false };
}

/** What a getUserMedia error means for the user. */
export function classifyCameraError(err: unknown): CameraProblem | 'overconstrained' {
	const name = (err as { name?: string } | null)?.name ?? '';
	switch (name) {
		case 'NotAllowedError':
		case 'PermissionDeniedError':
		case 'SecurityError':
			return 'denied';
		case 'NotFoundError':
		case 'DevicesNotFoundError':
			return 'noCamera';
		case 'OverconstrainedError':
		case 'ConstraintNotSatisfiedError':
			return 'overconstrained';
		case 'NotReadableError':
		case 'TrackStartError':
		case 'AbortError':
			return 'busy';
		case 'TypeError':
			return 'unsupported';
		default:
			return 'error';
	}
}

/** Why the camera or microphone could not be used; each has its own explanation on the page. */
export const MEDIA_PROBLEMS = ['denied', 'noDevice', 'inUse', 'insecure', 'unsupported', 'error'] as const;
export type MediaProblem = (typeof MEDIA_PROBLEMS)[number];

/** The answer of the permissions page, posted to a `permissions` node when one is current. */
export type PermissionResult =
	| { outcome: 'granted'; camera: boolean; microphone: boolean; consent: { biometric: boolean; enrolment: boolean } }
	| { outcome: 'denied'; reason: MediaProblem; camera: boolean; microphone: boolean };

/** The permissions node's action and payload for a result (the handler's contract). */
export function permissionAction(result: PermissionResult): { action: 'granted' | 'denied'; payload: Record<string, unknown> } {
	return result.outcome === 'granted'
		? { action: 'granted', payload: { consent: result.consent, camera: result.camera, microphone: result.microphone } }
		: { action: 'denied', payload: { reason: result.reason } };
}

/** Names a getUserMedia failure by what the user can do about it. */
export function classifyMediaError(err: unknown): MediaProblem {
	const name = (err as { name?: string } | null)?.name ?? '';
	switch (name) {
		case 'NotAllowedError':
		case 'PermissionDeniedError':
		case 'SecurityError':
			return 'denied';
		case 'NotFoundError':
		case 'DevicesNotFoundError':
		case 'OverconstrainedError':
			return 'noDevice';
		case 'NotReadableError':
		case 'TrackStartError':
		case 'AbortError':
			return 'inUse';
		case 'TypeError':
			return 'unsupported';
		default:
			return 'error';
	}
}

/**
 * The session lifecycle, in one place: created → inProgress → complete | incomplete.
 * `created → incomplete` is allowed too: a link that expires unopened ends the session (the spec
 * does not show that edge; without it such sessions would stay `created` for ever).
 */
export const SESSION_STATUSES = ['created', 'inProgress', 'complete', 'incomplete'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

const TRANSITIONS: Record<SessionStatus, readonly SessionStatus[]> = {
	created: ['inProgress', 'incomplete'],
	inProgress: ['complete', 'incomplete'],
	complete: [],
	incomplete: []
};

/** Position of a status in the lifecycle; what `sortBy=status` orders by. */
export const STATUS_RANK: Record<SessionStatus, number> = { created: 0, inProgress: 1, complete: 2, incomplete: 3 };

export const canTransition = (from: SessionStatus, to: SessionStatus): boolean => TRANSITIONS[from].includes(to);

export class IllegalTransitionError extends Error {
	constructor(
		readonly from: SessionStatus,
		readonly to: SessionStatus
	) {
		super(`A session cannot go from '${from}' to '${to}'`);
		this.name = 'IllegalTransitionError';
	}
}

/** Throws unless `from → to` is an edge of the lifecycle. */
export function assertTransition(from: SessionStatus, to: SessionStatus): void {
	if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}

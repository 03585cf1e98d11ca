import type { UnitOfWork } from '../repositories/index.ts';
import type { SessionService } from './session.service.ts';

export const SWEEP_BATCH = 100;

/**
 * Ends sessions that will never finish: the link expired (opened or not), or the user has been
 * idle longer than SESSION_INACTIVITY_TIMEOUT_S. They go `incomplete` with `finishedAt` and the
 * `session.status` event, the reason kept in the session data (`endReason`).
 */
export class SweeperService {
	constructor(private readonly deps: { uow: UnitOfWork; sessions: SessionService; now: () => number; inactivityMs: number }) {}

	/** One pass; returns how many sessions it ended. Safe to run on several instances at once. */
	async sweep(): Promise<number> {
		let total = 0;
		for (;;) {
			const ended = await this.deps.uow.transaction(async (repos) => {
				const now = this.deps.now();
				const stale = await repos.sessions.claimStale(now, now - this.deps.inactivityMs, SWEEP_BATCH);
				for (const { id, reason } of stale) {
					const row = await repos.sessions.findById(id);
					await repos.sessions.update(id, { data: { ...(row?.data ?? {}), endReason: reason } });
					await this.deps.sessions.transition(repos, id, 'incomplete');
				}
				return stale.length;
			});
			total += ended;
			if (ended < SWEEP_BATCH) return total;
		}
	}
}

import { logger } from '../logger.ts';
import type { MediaStore } from '../media/media-store.ts';
import type { UnitOfWork } from '../repositories/index.ts';
import { mediaKeyPrefix } from './media.service.ts';

const DAY_MS = 86_400_000;

export interface RetentionDeps {
	uow: UnitOfWork;
	store: MediaStore;
	now: () => number;
	/** RETENTION_TEST_DAYS (sandbox) and RETENTION_LIVE_DAYS (production). */
	testDays: number;
	liveDays: number;
	batchSize?: number;
}

/**
 * Purges sessions older than their environment's retention period, with everything kept about
 * them: media bytes first (a prefix delete per session), then the rows in one transaction.
 * Idempotent in every step, so a crash mid-batch or two instances purging the same batch only
 * repeat deletions of what is already gone.
 */
export class RetentionService {
	constructor(private readonly deps: RetentionDeps) {}

	/** One batch per environment; returns how many sessions and platform events it removed. */
	async purgeOnce(): Promise<{ sessions: number; events: number }> {
		const now = this.deps.now();
		const limit = this.deps.batchSize ?? 100;
		let purged = 0;
		for (const [env, days] of [['test', this.deps.testDays], ['live', this.deps.liveDays]] as const) {
			const ids = await this.deps.uow.repos.retention.expiredSessionIds(env, now - days * DAY_MS, limit);
			if (!ids.length) continue;
			for (const id of ids) await this.deps.store.deletePrefix(mediaKeyPrefix(id));
			purged += await this.deps.uow.transaction((repos) => repos.retention.deleteSessions(ids));
		}
		// settings.* events have no session; keep them as long as the longest retention.
		const events = await this.deps.uow.repos.retention.deletePlatformEvents(now - Math.max(this.deps.testDays, this.deps.liveDays) * DAY_MS, limit);
		return { sessions: purged, events };
	}

	/** Batches until nothing is left to purge (or `maxBatches` ran). */
	async purge(maxBatches = 50): Promise<{ sessions: number; events: number }> {
		const total = { sessions: 0, events: 0 };
		for (let i = 0; i < maxBatches; i++) {
			const r = await this.purgeOnce();
			total.sessions += r.sessions;
			total.events += r.events;
			if (!r.sessions && !r.events) break;
		}
		if (total.sessions || total.events) logger.info(total, 'retention purge');
		return total;
	}
}

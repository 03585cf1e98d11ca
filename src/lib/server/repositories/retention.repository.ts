import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { outboxEvents, sessions } from '../db/schema.ts';
import type { Env } from './account.repository.ts';

/** What the retention purge reads and deletes. */
export class RetentionRepository {
	constructor(private readonly db: DbOrTx) {}

	/** Oldest sessions of `env` created before `before` (index sessions_retention_idx). */
	async expiredSessionIds(env: Env, before: number, limit: number): Promise<string[]> {
		const rows = await this.db
			.select({ id: sessions.id })
			.from(sessions)
			.where(and(eq(sessions.env, env), lt(sessions.createdAt, before)))
			.orderBy(asc(sessions.createdAt))
			.limit(limit);
		return rows.map((r) => r.id);
	}

	/**
	 * Deletes sessions and everything that hangs off them: the outbox events of the sessions (their
	 * webhook deliveries and attempts cascade) explicitly, the rest by ON DELETE CASCADE (client
	 * secrets, page tokens, transcript, node reports, passcodes, sandbox messages, media rows, video
	 * chunks, post-session rows, and any table a later issue hangs off `sessions`). Idempotent.
	 */
	async deleteSessions(ids: string[]): Promise<number> {
		if (!ids.length) return 0;
		await this.db.delete(outboxEvents).where(inArray(outboxEvents.sessionId, ids));
		const deleted = await this.db.delete(sessions).where(inArray(sessions.id, ids)).returning({ id: sessions.id });
		return deleted.length;
	}

	/** Platform-wide events (`settings.*`, no session) older than `before`, in batches. */
	async deletePlatformEvents(before: number, limit: number): Promise<number> {
		const rows = await this.db
			.delete(outboxEvents)
			.where(
				inArray(
					outboxEvents.seq,
					this.db
						.select({ seq: outboxEvents.seq })
						.from(outboxEvents)
						.where(and(eq(outboxEvents.sessionId, ''), lt(outboxEvents.createdAt, before)))
						.orderBy(asc(outboxEvents.seq))
						.limit(limit)
				)
			)
			.returning({ seq: outboxEvents.seq });
		return rows.length;
	}

	async countSessions(): Promise<number> {
		const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
		return Number(row?.n ?? 0);
	}
}

import { and, eq, lt } from 'drizzle-orm';
import type { ApiSession, ClientSecret } from '#lib/domain/session/session.schema.ts';
import type { DbOrTx } from '../db/store.ts';
import { idempotencyKeys } from '../db/schema.ts';
import type { Env } from './account.repository.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** The first response to a creation, its client secret left out: that is unsealed again on replay. */
export interface IdempotentResponse {
	session: ApiSession;
	clientSecret: Pick<ClientSecret, 'createdAt' | 'expireAt'>;
}

/** A claimed key: what the first request was, and the session it answered with once it has. */
export interface IdempotencyRecord {
	requestHash: string;
	sessionId: string;
	/** Null while the first request is still being processed. */
	session: ApiSession | null;
}

export class IdempotencyRepository {
	constructor(private readonly db: DbOrTx) {}

	/**
	 * Claims a key; false when it was already taken. On PostgreSQL a concurrent claim of the same
	 * key waits for the first transaction and then sees its row, so only one session is created.
	 */
	async claim(row: Omit<IdempotencyRow, 'response'>): Promise<boolean> {
		const inserted = await this.db
			.insert(idempotencyKeys)
			.values({ ...row, response: {} })
			.onConflictDoNothing()
			.returning({ key: idempotencyKeys.key });
		return inserted.length > 0;
	}

	async find(accountId: string, env: Env, key: string): Promise<IdempotencyRecord | null> {
		const [row] = await this.db
			.select()
			.from(idempotencyKeys)
			.where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.env, env), eq(idempotencyKeys.key, key)));
		return row ? { requestHash: row.requestHash, sessionId: row.sessionId, session: row.response.session ?? null } : null;
	}

	async saveResponse(accountId: string, env: Env, key: string, response: IdempotentResponse): Promise<void> {
		await this.db
			.update(idempotencyKeys)
			.set({ response })
			.where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.env, env), eq(idempotencyKeys.key, key)));
	}

	async deleteOlderThan(at: number): Promise<number> {
		const rows = await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, at)).returning({ key: idempotencyKeys.key });
		return rows.length;
	}
}

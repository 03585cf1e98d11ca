import { and, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { idempotencyKeys } from '../db/schema.ts';
import type { Env } from './account.repository.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

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

	async find(accountId: string, env: Env, key: string): Promise<IdempotencyRow | null> {
		const [row] = await this.db
			.select()
			.from(idempotencyKeys)
			.where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.env, env), eq(idempotencyKeys.key, key)));
		return row ?? null;
	}

	async saveResponse(accountId: string, env: Env, key: string, response: Record<string, unknown>): Promise<void> {
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

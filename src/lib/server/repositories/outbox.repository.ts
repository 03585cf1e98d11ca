import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { outboxEvents } from '../db/schema.ts';
import type { Env } from './account.repository.ts';

export type OutboxEventRow = typeof outboxEvents.$inferSelect;

export interface NewOutboxEvent {
	id: string;
	accountId: string | null;
	env: Env | null;
	type: string;
	sessionId: string;
	createdAt: number;
	payload?: Record<string, unknown>;
}

export class OutboxRepository {
	constructor(private readonly db: DbOrTx) {}

	/** Must be called inside the transaction of the change the event reports. */
	async insert(event: NewOutboxEvent): Promise<void> {
		await this.db.insert(outboxEvents).values({ ...event, payload: event.payload ?? {} });
	}

	async listForSession(sessionId: string): Promise<OutboxEventRow[]> {
		return this.db.select().from(outboxEvents).where(eq(outboxEvents.sessionId, sessionId)).orderBy(asc(outboxEvents.seq));
	}
}

import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { outboxEvents } from '../db/schema.ts';
import type { Env } from './account.repository.ts';

/** An event as the outbox holds it until the relay fans it out to webhook deliveries. */
export interface OutboxEvent {
	/** Order of writing: the relay dispatches in this order. */
	seq: number;
	id: string;
	accountId: string | null;
	env: Env | null;
	type: string;
	sessionId: string;
	createdAt: number;
	/** Extra fields of the payload (the `media` object of media.* events). */
	payload: Record<string, unknown>;
	dispatchedAt: number | null;
}

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

	async listForSession(sessionId: string): Promise<OutboxEvent[]> {
		return this.db.select().from(outboxEvents).where(eq(outboxEvents.sessionId, sessionId)).orderBy(asc(outboxEvents.seq));
	}
}

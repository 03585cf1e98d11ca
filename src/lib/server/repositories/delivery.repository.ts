import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { outboxEvents, sessions, webhookAttempts, webhookDeliveries, webhookEndpoints, type DeliveryState } from '../db/schema.ts';
import type { Env, WebhookEndpointRow } from './account.repository.ts';
import type { OutboxEvent } from './outbox.repository.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** A delivery a worker holds, with what it needs to send it. */
export interface ClaimedDelivery {
	id: string;
	claimToken: string;
	eventId: string;
	eventType: string;
	eventCreatedAt: number;
	eventPayload: Record<string, unknown>;
	endpointId: string;
	sessionId: string;
	/** Attempts finished before this one. */
	attempts: number;
	url: string;
	/** Sealed signing secret. */
	secret: string;
	endpointDisabled: boolean;
}

export interface AttemptRecord {
	deliveryId: string;
	claimToken: string;
	attempt: number;
	sentAt: number;
	latencyMs: number;
	outcome: string;
	status: number | null;
	error: string | null;
	responseSnippet: string;
	state: DeliveryState;
	nextAttemptAt: number | null;
	failReason: string | null;
	now: number;
}

export interface DeliveryFilter {
	eventId?: string;
	sessionId?: string;
	state?: DeliveryState;
	limit?: number;
}

/** Raw results differ by driver (node-postgres QueryResult, PGlite Results); both carry `rows`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Storage of webhook delivery: the outbox relay's claim of undispatched events, the deliveries it
 * fans them out to, the workers' claims of due deliveries, and the attempt log.
 */
export class DeliveryRepository {
	constructor(private readonly db: DbOrTx) {}

	/**
	 * Locks up to `limit` events not yet dispatched, oldest first; rows another instance holds are
	 * skipped. Call inside the transaction that dispatches them.
	 */
	async lockUndispatched(limit: number): Promise<OutboxEvent[]> {
		return this.db
			.select()
			.from(outboxEvents)
			.where(isNull(outboxEvents.dispatchedAt))
			.orderBy(asc(outboxEvents.seq))
			.limit(limit)
			.for('update', { skipLocked: true });
	}

	async markDispatched(seqs: number[], at: number): Promise<void> {
		if (seqs.length) await this.db.update(outboxEvents).set({ dispatchedAt: at }).where(inArray(outboxEvents.seq, seqs));
	}

	/** Active endpoints of these accounts (all accounts' when `allAccounts`). */
	async activeEndpoints(accountIds: string[], allAccounts: boolean): Promise<WebhookEndpointRow[]> {
		if (!allAccounts && !accountIds.length) return [];
		const active = isNull(webhookEndpoints.disabledAt);
		return this.db
			.select()
			.from(webhookEndpoints)
			.where(allAccounts ? active : and(active, inArray(webhookEndpoints.accountId, accountIds)))
			.orderBy(asc(webhookEndpoints.createdAt));
	}

	/** Idempotent: an (event, endpoint) pair is delivered by one row only. */
	async insertDeliveries(rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<void> {
		if (rows.length) await this.db.insert(webhookDeliveries).values(rows).onConflictDoNothing();
	}

	/** Finished sessions among these ids, with their end time (for post-session scheduling). */
	async finishedSessions(ids: string[]): Promise<{ id: string; finishedAt: number; env: Env }[]> {
		if (!ids.length) return [];
		const rows = await this.db
			.select({ id: sessions.id, finishedAt: sessions.finishedAt, env: sessions.env })
			.from(sessions)
			.where(and(inArray(sessions.id, ids), inArray(sessions.status, ['complete', 'incomplete'])));
		return rows.map((r) => ({ id: r.id, finishedAt: r.finishedAt ?? 0, env: r.env }));
	}

	/**
	 * Claims up to `limit` due deliveries in one statement: `FOR UPDATE SKIP LOCKED` keeps two
	 * instances off the same rows, and moving `next_attempt_at` to `now + leaseMs` is the lease: if
	 * this worker dies, the row falls due again when the lease runs out.
	 */
	async claimDue(now: number, leaseMs: number, limit: number, token: string): Promise<ClaimedDelivery[]> {
		const result = await this.db.execute(sql`
			with due as (
				select id from webhook_deliveries
				 where state = 'pending' and next_attempt_at <= ${now}
				 order by next_attempt_at, id
				 limit ${limit}
				 for update skip locked
			)
			update webhook_deliveries d
			   set next_attempt_at = ${now + leaseMs}, claim_token = ${token}, updated_at = ${now}
			  from due, outbox_events o, webhook_endpoints e
			 where d.id = due.id and o.seq = d.event_seq and e.id = d.endpoint_id
			returning d.id, d.event_id, d.endpoint_id, d.session_id, d.attempts,
			          o.type, o.created_at, o.payload, e.url, e.secret, e.disabled_at`);
		return rowsOf<Record<string, unknown>>(result).map((r) => ({
			id: String(r.id),
			claimToken: token,
			eventId: String(r.event_id),
			eventType: String(r.type),
			eventCreatedAt: Number(r.created_at),
			eventPayload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
			endpointId: String(r.endpoint_id),
			sessionId: String(r.session_id),
			attempts: Number(r.attempts),
			url: String(r.url),
			secret: String(r.secret),
			endpointDisabled: r.disabled_at !== null && r.disabled_at !== undefined
		}));
	}

	/**
	 * Records an attempt and the delivery's new state in one statement, only if the claim is still
	 * this worker's (a lease that ran out and was re-claimed elsewhere makes this a no-op).
	 */
	async completeAttempt(a: AttemptRecord): Promise<boolean> {
		const result = await this.db.execute(sql`
			with upd as (
				update webhook_deliveries
				   set state = ${a.state}, attempts = ${a.attempt}, next_attempt_at = ${a.nextAttemptAt ?? a.now},
				       claim_token = null, last_status = ${a.status}, last_error = ${a.error}, fail_reason = ${a.failReason},
				       updated_at = ${a.now}, delivered_at = ${a.state === 'delivered' ? a.now : null}
				 where id = ${a.deliveryId} and claim_token = ${a.claimToken}
				returning id, event_id, endpoint_id, session_id
			)
			insert into webhook_attempts (delivery_id, event_id, endpoint_id, session_id, attempt, sent_at, latency_ms, outcome, status, error, response_snippet, next_attempt_at)
			select id, event_id, endpoint_id, session_id, ${a.attempt}, ${a.sentAt}, ${a.latencyMs}, ${a.outcome}, ${a.status}, ${a.error}, ${a.responseSnippet}, ${a.nextAttemptAt}
			  from upd
			returning seq`);
		return rowsOf(result).length > 0;
	}

	/**
	 * `completeAttempt` for several attempts in one statement (one commit instead of one each).
	 * Returns the ids of the deliveries whose claim still held.
	 */
	async completeAttempts(list: AttemptRecord[]): Promise<Set<string>> {
		if (!list.length) return new Set();
		const rows = list.map(
			(a) =>
				sql`(${a.deliveryId}::text, ${a.claimToken}::text, ${a.state}::text, ${a.attempt}::smallint, ${a.nextAttemptAt ?? a.now}::bigint, ${a.status}::int, ${a.error}::text, ${a.failReason}::text, ${a.state === 'delivered' ? a.now : null}::bigint, ${a.sentAt}::bigint, ${a.latencyMs}::int, ${a.outcome}::text, ${a.responseSnippet}::text, ${a.nextAttemptAt}::bigint, ${a.now}::bigint)`
		);
		const result = await this.db.execute(sql`
			with v (id, token, state, attempt, next_at, status, error, fail_reason, delivered_at, sent_at, latency, outcome, snippet, next_attempt, now) as (
				values ${sql.join(rows, sql`, `)}
			),
			upd as (
				update webhook_deliveries d
				   set state = v.state, attempts = v.attempt, next_attempt_at = v.next_at, claim_token = null, last_status = v.status,
				       last_error = v.error, fail_reason = v.fail_reason, updated_at = v.now, delivered_at = v.delivered_at
				  from v
				 where d.id = v.id and d.claim_token = v.token
				returning d.id, d.event_id, d.endpoint_id, d.session_id, v.attempt, v.sent_at, v.latency, v.outcome, v.status, v.error, v.snippet, v.next_attempt
			)
			insert into webhook_attempts (delivery_id, event_id, endpoint_id, session_id, attempt, sent_at, latency_ms, outcome, status, error, response_snippet, next_attempt_at)
			select id, event_id, endpoint_id, session_id, attempt, sent_at, latency, outcome, status, error, snippet, next_attempt from upd
			returning delivery_id`);
		return new Set(rowsOf<{ delivery_id: string }>(result).map((r) => r.delivery_id));
	}

	/** Ends a delivery without an attempt (its endpoint was removed after the fan-out). */
	async cancel(id: string, token: string, reason: string, now: number): Promise<void> {
		await this.db
			.update(webhookDeliveries)
			.set({ state: 'failed', failReason: reason, claimToken: null, updatedAt: now })
			.where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.claimToken, token)));
	}

	/** Puts an event's failed deliveries back in the queue with a fresh schedule. */
	async requeueFailed(eventId: string, now: number, endpointId?: string): Promise<number> {
		const where = [eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.state, 'failed')];
		if (endpointId) where.push(eq(webhookDeliveries.endpointId, endpointId));
		const rows = await this.db
			.update(webhookDeliveries)
			.set({ state: 'pending', attempts: 0, nextAttemptAt: now, claimToken: null, failReason: null, updatedAt: now })
			.where(and(...where))
			.returning({ id: webhookDeliveries.id });
		return rows.length;
	}

	async listDeliveries(filter: DeliveryFilter = {}): Promise<(DeliveryRow & { eventType: string; url: string })[]> {
		const where: SQL[] = [];
		if (filter.eventId) where.push(eq(webhookDeliveries.eventId, filter.eventId));
		if (filter.sessionId) where.push(eq(webhookDeliveries.sessionId, filter.sessionId));
		if (filter.state) where.push(eq(webhookDeliveries.state, filter.state));
		const rows = await this.db
			.select({ d: webhookDeliveries, eventType: outboxEvents.type, url: webhookEndpoints.url })
			.from(webhookDeliveries)
			.innerJoin(outboxEvents, eq(outboxEvents.seq, webhookDeliveries.eventSeq))
			.innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
			.where(where.length ? and(...where) : undefined)
			.orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
			.limit(filter.limit ?? 100);
		return rows.map((r) => ({ ...r.d, eventType: r.eventType, url: r.url }));
	}

	/** The attempt log, newest first (filtered by event or session). */
	async listAttempts(filter: { eventId?: string; sessionId?: string; limit?: number } = {}): Promise<(AttemptRow & { eventType: string })[]> {
		const where: SQL[] = [];
		if (filter.eventId) where.push(eq(webhookAttempts.eventId, filter.eventId));
		if (filter.sessionId) where.push(eq(webhookAttempts.sessionId, filter.sessionId));
		const rows = await this.db
			.select({ a: webhookAttempts, eventType: outboxEvents.type })
			.from(webhookAttempts)
			.innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
			.innerJoin(outboxEvents, eq(outboxEvents.seq, webhookDeliveries.eventSeq))
			.where(where.length ? and(...where) : undefined)
			.orderBy(desc(webhookAttempts.seq))
			.limit(filter.limit ?? 50);
		return rows.map((r) => ({ ...r.a, eventType: r.eventType }));
	}

	async findEvent(eventId: string): Promise<OutboxEvent | null> {
		const [row] = await this.db.select().from(outboxEvents).where(eq(outboxEvents.id, eventId));
		return row ?? null;
	}

	/** Counts by state, for health and tests. */
	async countByState(): Promise<Record<DeliveryState, number>> {
		const rows = await this.db
			.select({ state: webhookDeliveries.state, n: sql<number>`count(*)::int` })
			.from(webhookDeliveries)
			.groupBy(webhookDeliveries.state);
		const out: Record<DeliveryState, number> = { pending: 0, delivered: 0, failed: 0 };
		for (const r of rows) out[r.state] = Number(r.n);
		return out;
	}

	/** Outbox events the relay has not dispatched yet (tests, health). */
	async countUndispatched(): Promise<number> {
		const [row] = await this.db
			.select({ n: sql<number>`count(*)::int` })
			.from(outboxEvents)
			.where(isNull(outboxEvents.dispatchedAt));
		return Number(row?.n ?? 0);
	}
}

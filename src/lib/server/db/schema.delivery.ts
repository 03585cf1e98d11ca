import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SessionReport } from '../../domain/session/session.schema.ts';
import { outboxEvents, sessions, webhookEndpoints } from './schema.core.ts';

/*
 * Tables of webhook delivery, media, session video and post-session work (issue 4).
 * Everything that belongs to one session references it with ON DELETE CASCADE, so the retention
 * purge removes a session's rows with the session (media bytes are removed from the store first).
 */

const ms = (name: string) => bigint(name, { mode: 'number' });
const sessionRef = () =>
	text('session_id')
		.notNull()
		.references(() => sessions.id, { onDelete: 'cascade' });

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/**
 * One outbox event to one endpoint. `next_attempt_at` doubles as the claim's lease: a worker that
 * claims a row pushes it forward by the lease, so a crashed worker's claim simply falls due again.
 */
export const webhookDeliveries = pgTable(
	'webhook_deliveries',
	{
		id: text('id').primaryKey(),
		eventSeq: bigint('event_seq', { mode: 'number' })
			.notNull()
			.references(() => outboxEvents.seq, { onDelete: 'cascade' }),
		eventId: text('event_id').notNull(),
		endpointId: text('endpoint_id')
			.notNull()
			.references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
		/** Null on platform-wide `settings.*` events. */
		accountId: text('account_id'),
		/** '' on `settings.*` events. */
		sessionId: text('session_id').notNull(),
		state: text('state').$type<DeliveryState>().notNull(),
		/** Attempts that finished (a claim interrupted by a crash is not counted). */
		attempts: smallint('attempts').notNull().default(0),
		nextAttemptAt: ms('next_attempt_at').notNull(),
		/** Set while a worker holds the row; its completion must present the same token. */
		claimToken: text('claim_token'),
		lastStatus: integer('last_status'),
		lastError: text('last_error'),
		failReason: text('fail_reason'),
		createdAt: ms('created_at').notNull(),
		updatedAt: ms('updated_at').notNull(),
		deliveredAt: ms('delivered_at')
	},
	(t) => [
		uniqueIndex('webhook_deliveries_event_endpoint_idx').on(t.eventId, t.endpointId),
		index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
		index('webhook_deliveries_session_idx').on(t.sessionId),
		index('webhook_deliveries_seq_idx').on(t.eventSeq)
	]
);

/** Every attempt, as sent and as answered: what `webhooks attempts` lists. */
export const webhookAttempts = pgTable(
	'webhook_attempts',
	{
		seq: bigserial('seq', { mode: 'number' }).primaryKey(),
		deliveryId: text('delivery_id')
			.notNull()
			.references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
		eventId: text('event_id').notNull(),
		endpointId: text('endpoint_id').notNull(),
		sessionId: text('session_id').notNull(),
		attempt: smallint('attempt').notNull(),
		/** Signature time of the attempt (`t=` of X-Service-Signature). */
		sentAt: ms('sent_at').notNull(),
		latencyMs: integer('latency_ms').notNull(),
		/** `acknowledged` | `final` | `retry`. */
		outcome: text('outcome').notNull(),
		status: integer('status'),
		error: text('error'),
		responseSnippet: text('response_snippet').notNull().default(''),
		/** When the next attempt is due, if one follows. */
		nextAttemptAt: ms('next_attempt_at')
	},
	(t) => [
		index('webhook_attempts_event_idx').on(t.eventId, t.seq),
		index('webhook_attempts_session_idx').on(t.sessionId, t.seq),
		index('webhook_attempts_delivery_idx').on(t.deliveryId)
	]
);

export type MediaKind = 'user_photo' | 'document_photo' | 'user_video' | 'screenshot';

/** A stored media object of a session; the bytes live in the MediaStore under `storeKey`. */
export const media = pgTable(
	'media',
	{
		id: text('id').primaryKey(),
		sessionId: sessionRef(),
		kind: text('kind').$type<MediaKind>().notNull(),
		/** The node that captured it, when one did. */
		nodeId: text('node_id'),
		/** Sniffed from the bytes, never taken from a request header. */
		contentType: text('content_type').notNull(),
		size: bigint('size', { mode: 'number' }).notNull(),
		storeKey: text('store_key').notNull(),
		createdAt: ms('created_at').notNull(),
		/** Bytes removed (session end without retainSessionMedia, or retention); the row stays for the record. */
		deletedAt: ms('deleted_at')
	},
	(t) => [index('media_session_idx').on(t.sessionId, t.kind, t.createdAt)]
);

/** One uploaded MediaRecorder chunk; `seq` numbers them from 0. */
export const videoChunks = pgTable(
	'video_chunks',
	{
		sessionId: sessionRef(),
		seq: integer('seq').notNull(),
		size: integer('size').notNull(),
		sha256: text('sha256').notNull(),
		storeKey: text('store_key').notNull(),
		createdAt: ms('created_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.sessionId, t.seq] })]
);

/** recording → closed (no more chunks; assembly runs) → assembled | empty; discarded once deleted. */
export type RecordingState = 'recording' | 'closed' | 'assembled' | 'empty' | 'discarded';

/** The session video's upload state: chunks arrive while recording; assembly closes it. */
export const videoRecordings = pgTable('video_recordings', {
	sessionId: text('session_id')
		.primaryKey()
		.references(() => sessions.id, { onDelete: 'cascade' }),
	state: text('state').$type<RecordingState>().notNull(),
	/** Seq of the chunk the page marked as the last one, once it did. */
	finalSeq: integer('final_seq'),
	bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
	/** Seqs missing when it was assembled (a gap the page never filled). */
	missing: jsonb('missing').$type<number[]>(),
	mediaId: text('media_id'),
	createdAt: ms('created_at').notNull(),
	updatedAt: ms('updated_at').notNull()
});

export type FinalizationState = 'pending' | 'done' | 'failed';

/**
 * Post-session work (video assembly, analyses, discarding media that is not retained), one row per
 * finished session, scheduled by the outbox relay when it sees the session's final status event.
 * `due_at` doubles as the claim's lease, like `webhook_deliveries.next_attempt_at`.
 */
export const sessionFinalizations = pgTable(
	'session_finalizations',
	{
		sessionId: text('session_id')
			.primaryKey()
			.references(() => sessions.id, { onDelete: 'cascade' }),
		state: text('state').$type<FinalizationState>().notNull(),
		dueAt: ms('due_at').notNull(),
		attempts: smallint('attempts').notNull().default(0),
		/** Names of the steps already done, so a retry after a crash resumes where it stopped. */
		steps: jsonb('steps').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
		lastError: text('last_error'),
		createdAt: ms('created_at').notNull(),
		doneAt: ms('done_at')
	},
	(t) => [index('session_finalizations_due_idx').on(t.dueAt).where(sql`${t.state} = 'pending'`)]
);

/** Results of post-session analyses: `video` (videoAIAnalysis), `screenshot` (aiAnalysis). */
export const sessionAnalyses = pgTable(
	'session_analyses',
	{
		sessionId: sessionRef(),
		kind: text('kind').$type<'video' | 'screenshot'>().notNull(),
		/** What the report shows as `videoAIAnalysis` or `aiAnalysis`, by `kind` (PostSessionRepository pairs them). */
		result: jsonb('result').$type<NonNullable<SessionReport['videoAIAnalysis'] | SessionReport['aiAnalysis']>>().notNull(),
		createdAt: ms('created_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.sessionId, t.kind] })]
);

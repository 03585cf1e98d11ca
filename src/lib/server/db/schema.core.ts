import { sql } from 'drizzle-orm';
import {
	bigint,
	bigserial,
	boolean,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	smallint,
	text,
	uniqueIndex
} from 'drizzle-orm/pg-core';
import type { FlowNode } from '../../domain/flow/flow.schema.ts';
import type { SessionConsent, SessionDevice, SessionLocation } from '../../domain/session/session.model.ts';
import type { ApiSession, ClientSecret } from '../../domain/session/session.schema.ts';
import type { SessionStatus } from '../../domain/session/session-status.ts';
import type { SessionSettings } from '../../domain/session/settings.schema.ts';

/*
 * The core tables (accounts, sessions, the outbox, the catalogues; schema.ts exports every table).
 * Times are bigint Unix milliseconds (the API's unit), read as JS numbers.
 * Row types never leave `#lib/server/db` and the repositories; services see domain types.
 */

const ms = (name: string) => bigint(name, { mode: 'number' });

export const accounts = pgTable('accounts', {
	id: text('id').primaryKey(),
	name: text('name').notNull(),
	createdAt: ms('created_at').notNull(),
	/** Origins allowed to frame the hosted page (CSP frame-ancestors), on top of FRAME_ANCESTORS. */
	frameAncestors: jsonb('frame_ancestors').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
	/** Sealed (AES-GCM with the server key) secret of the account's biometric template rotation. */
	templateKey: text('template_key')
});

export const apiKeys = pgTable(
	'api_keys',
	{
		id: text('id').primaryKey(),
		accountId: text('account_id')
			.notNull()
			.references(() => accounts.id, { onDelete: 'cascade' }),
		env: text('env').$type<'test' | 'live'>().notNull(),
		/** SHA-256 of the whole key: keys are 190+ random bits, so a fast hash is enough. */
		hash: text('hash').notNull(),
		/** First characters, shown in listings so an operator can tell keys apart. */
		prefix: text('prefix').notNull(),
		createdAt: ms('created_at').notNull(),
		revokedAt: ms('revoked_at'),
		lastUsedAt: ms('last_used_at')
	},
	(t) => [uniqueIndex('api_keys_hash_idx').on(t.hash), index('api_keys_account_idx').on(t.accountId)]
);

export const webhookEndpoints = pgTable(
	'webhook_endpoints',
	{
		id: text('id').primaryKey(),
		accountId: text('account_id')
			.notNull()
			.references(() => accounts.id, { onDelete: 'cascade' }),
		url: text('url').notNull(),
		/** Signing secret `whsec_…`; needed in clear to sign, so sealed with the server key. */
		secret: text('secret').notNull(),
		/** Environment whose events it receives; null = both. */
		env: text('env').$type<'test' | 'live'>(),
		createdAt: ms('created_at').notNull(),
		disabledAt: ms('disabled_at')
	},
	(t) => [index('webhook_endpoints_account_idx').on(t.accountId)]
);

export const sessions = pgTable(
	'sessions',
	{
		id: text('id').primaryKey(),
		accountId: text('account_id')
			.notNull()
			.references(() => accounts.id, { onDelete: 'cascade' }),
		env: text('env').$type<'test' | 'live'>().notNull(),
		status: text('status').$type<SessionStatus>().notNull(),
		/** Lifecycle position of `status`, what `sortBy=status` orders by. */
		statusRank: smallint('status_rank').notNull(),
		createdAt: ms('created_at').notNull(),
		startedAt: ms('started_at'),
		finishedAt: ms('finished_at'),
		/** `finished_at` or 0: keyset pagination needs a non-null sort key. */
		finishedSort: ms('finished_sort').notNull().default(0),
		updatedAt: ms('updated_at').notNull(),
		lastActivityAt: ms('last_activity_at'),
		clientReferenceId: text('client_reference_id').notNull(),
		flowId: text('flow_id').notNull(),
		/*
		 * The jsonb columns carry their domain types: each is written only from a value already
		 * checked (settings by createSessionRequestSchema, the flow by validateFlow, whose node schemas
		 * add no defaults, location and device by the open route's parsers), so a read is typed
		 * without parsing again. `data` is free-form, as the spec's session data is.
		 */
		/** What the caller sent, as sent (legacy `modules` stay modules). */
		settings: jsonb('settings').$type<SessionSettings>().notNull(),
		/** The flow the runner walks (converted from modules when those were sent). */
		flow: jsonb('flow').$type<FlowNode[]>().notNull(),
		/** Lower-cased clientReferenceId, id and metadata values, for `search`. */
		searchText: text('search_text').notNull(),
		lang: text('lang'),
		/** Id of the node the user is on; null before the first open and after the end. */
		currentNodeId: text('current_node_id'),
		/** Increments on every move, so a replayed or out-of-turn node result can be recognised. */
		step: integer('step').notNull().default(0),
		/** What nodes saved on the way: e-mail, saved fields, extracted document data, dialog entities. */
		data: jsonb('data').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
		/** Where and on what the end user opened the link (GeoIP, user agent), for the report. */
		location: jsonb('location').$type<SessionLocation>(),
		device: jsonb('device').$type<SessionDevice>(),
		/** Consent given on the permissions page: biometric processing, and enrolment for recognition. */
		consent: jsonb('consent').$type<SessionConsent>(),
		version: text('version').notNull()
	},
	(t) => [
		index('sessions_created_idx').on(t.accountId, t.env, t.createdAt, t.id),
		index('sessions_status_idx').on(t.accountId, t.env, t.statusRank, t.id),
		index('sessions_finished_idx').on(t.accountId, t.env, t.finishedSort, t.id),
		index('sessions_status_created_idx').on(t.accountId, t.env, t.status, t.createdAt, t.id),
		index('sessions_client_ref_idx').on(t.accountId, t.env, t.clientReferenceId, t.createdAt, t.id),
		index('sessions_flow_idx').on(t.accountId, t.env, t.flowId, t.createdAt, t.id),
		// The retention purge's scan: oldest sessions of an environment first.
		index('sessions_retention_idx').on(t.env, t.createdAt),
		index('sessions_open_idx')
			.on(t.status, t.lastActivityAt)
			.where(sql`${t.status} in ('created', 'inProgress')`)
	]
);

export const clientSecrets = pgTable(
	'client_secrets',
	{
		sessionId: text('session_id')
			.primaryKey()
			.references(() => sessions.id, { onDelete: 'cascade' }),
		/** SHA-256 of the secret: how a page request finds its session. */
		hash: text('hash').notNull(),
		/** The secret sealed with the server key, because GET /sessions/{id} returns it. */
		sealed: text('sealed').notNull(),
		createdAt: ms('created_at').notNull(),
		expireAt: ms('expire_at').notNull(),
		/** First open: from then on only the page token of that browser works. */
		openedAt: ms('opened_at'),
		/** Hash of the opening tab's nonce: a retried open whose answer was lost gets a token again. */
		openNonceHash: text('open_nonce_hash')
	},
	(t) => [uniqueIndex('client_secrets_hash_idx').on(t.hash), index('client_secrets_expire_idx').on(t.expireAt)]
);

export const idempotencyKeys = pgTable(
	'idempotency_keys',
	{
		accountId: text('account_id')
			.notNull()
			.references(() => accounts.id, { onDelete: 'cascade' }),
		env: text('env').$type<'test' | 'live'>().notNull(),
		key: text('key').notNull(),
		/** SHA-256 of the request body, so a reused key with another body is refused. */
		requestHash: text('request_hash').notNull(),
		sessionId: text('session_id').notNull(),
		/**
		 * The first response body, the client secret left out (it is re-read on replay); `{}` while
		 * the first request is still being processed. Written only by SessionService.create.
		 */
		response: jsonb('response').$type<{ session?: ApiSession; clientSecret?: Pick<ClientSecret, 'createdAt' | 'expireAt'> }>().notNull(),
		createdAt: ms('created_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.accountId, t.env, t.key] }), index('idempotency_created_idx').on(t.createdAt)]
);

/**
 * The transactional outbox: every event is written in the transaction of the change it reports,
 * so none is lost; the delivery worker reads from here.
 */
export const outboxEvents = pgTable(
	'outbox_events',
	{
		seq: bigserial('seq', { mode: 'number' }).primaryKey(),
		id: text('id').notNull(),
		accountId: text('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
		env: text('env').$type<'test' | 'live'>(),
		type: text('type').notNull(),
		sessionId: text('session_id').notNull(),
		createdAt: ms('created_at').notNull(),
		/** Extra fields of the payload (the `media` object of media.* events). */
		payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
		/** When the outbox relay fanned it out to webhook deliveries (and scheduled post-session work). */
		dispatchedAt: ms('dispatched_at')
	},
	(t) => [
		uniqueIndex('outbox_events_id_idx').on(t.id),
		index('outbox_events_session_idx').on(t.sessionId),
		index('outbox_events_undispatched_idx').on(t.seq).where(sql`${t.dispatchedAt} is null`)
	]
);

/** Server-wide secrets when SECRET_KEY is not set (first instance to start writes it). */
export const serverSecrets = pgTable('server_secrets', {
	name: text('name').primaryKey(),
	value: text('value').notNull(),
	createdAt: ms('created_at').notNull()
});

export const avatars = pgTable('avatars', {
	id: text('id').primaryKey(),
	name: text('name').notNull(),
	gender: text('gender').$type<'male' | 'female' | 'unknown'>().notNull(),
	/** Path under the app (`/avatars/…`) or an absolute URL. */
	image: text('image').notNull(),
	/** BCP-47 voice hint for speech synthesis. */
	voice: text('voice'),
	isDefault: boolean('is_default').notNull().default(false),
	createdAt: ms('created_at').notNull(),
	removedAt: ms('removed_at')
});

export const langs = pgTable('langs', {
	id: text('id').primaryKey(),
	title: text('title').notNull(),
	enabled: boolean('enabled').notNull().default(true),
	createdAt: ms('created_at').notNull()
});

/**
 * Fixed-window counters shared by instances on PostgreSQL (http/rate-limit-postgres.ts): the points
 * handed out in the window that ends at `expire`. The key, points and expire columns keep
 * rate-limiter-flexible's layout, which wrote this table first; `granted` is what the last
 * reservation added, which an upsert cannot otherwise return.
 */
export const rateLimits = pgTable('rate_limits', {
	key: text('key').primaryKey(),
	points: integer('points').notNull().default(0),
	expire: bigint('expire', { mode: 'number' }),
	granted: integer('granted').notNull().default(0)
});

import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, boolean } from 'drizzle-orm/pg-core';
import type { SubmitResponse } from '../../domain/page/page.schema.ts';
import { sessions } from './schema.core.ts';

/* Tables of the hosted page's runner: page tokens, handoffs, transcript, node reports, OTP. */

const ms = (name: string) => bigint(name, { mode: 'number' });
const sessionRef = () =>
	text('session_id')
		.notNull()
		.references(() => sessions.id, { onDelete: 'cascade' });

/** What the browser holds after the first open (the client secret is single use). */
export const pageTokens = pgTable(
	'page_tokens',
	{
		hash: text('hash').primaryKey(),
		sessionId: sessionRef(),
		/** `primary` drives the flow; `observer` follows it (a desktop after a phone handoff). */
		role: text('role').$type<'primary' | 'observer'>().notNull(),
		createdAt: ms('created_at').notNull(),
		expiresAt: ms('expires_at').notNull(),
		revokedAt: ms('revoked_at')
	},
	(t) => [index('page_tokens_session_idx').on(t.sessionId)]
);

/** One-time, short-lived links that move a session to another device. */
export const handoffs = pgTable(
	'handoffs',
	{
		hash: text('hash').primaryKey(),
		sessionId: sessionRef(),
		createdAt: ms('created_at').notNull(),
		expiresAt: ms('expires_at').notNull(),
		usedAt: ms('used_at'),
		/** Hash of the redeeming tab's nonce (a retry after a lost answer is not "already used"). */
		nonceHash: text('nonce_hash')
	},
	(t) => [index('handoffs_session_idx').on(t.sessionId)]
);

/** The transcript: every phrase of the avatar and of the user, in order. */
export const phrases = pgTable(
	'phrases',
	{
		seq: bigserial('seq', { mode: 'number' }).primaryKey(),
		id: text('id').notNull(),
		sessionId: sessionRef(),
		nodeId: text('node_id'),
		createdAt: ms('created_at').notNull(),
		text: text('text').notNull(),
		isAvatar: boolean('is_avatar').notNull()
	},
	(t) => [index('phrases_session_idx').on(t.sessionId, t.seq)]
);

/** One row per finished node: what it ended with and what the server measured. */
export const nodeReports = pgTable(
	'node_reports',
	{
		seq: bigserial('seq', { mode: 'number' }).primaryKey(),
		sessionId: sessionRef(),
		nodeId: text('node_id').notNull(),
		type: text('type').notNull(),
		outcome: text('outcome').notNull(),
		targetNodeId: text('target_node_id'),
		createdAt: ms('created_at').notNull(),
		details: jsonb('details').$type<Record<string, unknown>>()
	},
	(t) => [index('node_reports_session_idx').on(t.sessionId, t.seq)]
);

/** The answer given to a node result, by the page's request id: a retried submit gets it again. */
export const nodeSubmissions = pgTable(
	'node_submissions',
	{
		sessionId: sessionRef(),
		requestId: text('request_id').notNull(),
		step: integer('step').notNull(),
		nodeId: text('node_id').notNull(),
		requestHash: text('request_hash').notNull(),
		/** Written only by PageService from the SubmitResponse it returned; a replay returns it as it was. */
		response: jsonb('response').$type<SubmitResponse>().notNull(),
		createdAt: ms('created_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.sessionId, t.requestId] })]
);

/** A one-time passcode of a two-factor node, stored hashed. */
export const otpCodes = pgTable(
	'otp_codes',
	{
		id: text('id').primaryKey(),
		sessionId: sessionRef(),
		nodeId: text('node_id').notNull(),
		channel: text('channel').$type<'email' | 'sms'>().notNull(),
		destination: text('destination').notNull(),
		/** HMAC of the code with the server key and the code id: useless without both. */
		codeHash: text('code_hash').notNull(),
		createdAt: ms('created_at').notNull(),
		expiresAt: ms('expires_at').notNull(),
		attempts: integer('attempts').notNull().default(0),
		maxAttempts: integer('max_attempts').notNull(),
		sentCount: integer('sent_count').notNull().default(1),
		lastSentAt: ms('last_sent_at').notNull(),
		verifiedAt: ms('verified_at'),
		/** Set when the attempts run out; nothing verifies afterwards. */
		lockedAt: ms('locked_at'),
		deliveryError: text('delivery_error')
	},
	(t) => [index('otp_codes_session_idx').on(t.sessionId, t.nodeId)]
);

/** Messages not sent for real (no SMTP_URL / SMS_WEBHOOK_URL, or testMode): readable with a test key. */
export const sandboxMessages = pgTable(
	'sandbox_messages',
	{
		id: text('id').primaryKey(),
		sessionId: sessionRef(),
		accountId: text('account_id').notNull(),
		env: text('env').$type<'test' | 'live'>().notNull(),
		channel: text('channel').$type<'email' | 'sms'>().notNull(),
		to: text('to').notNull(),
		subject: text('subject'),
		body: text('body').notNull(),
		createdAt: ms('created_at').notNull()
	},
	(t) => [index('sandbox_messages_session_idx').on(t.sessionId, t.createdAt)]
);

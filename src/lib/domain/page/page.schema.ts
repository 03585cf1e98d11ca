import { z } from 'zod';
import { SUPPORTED_LANGS } from '../langs.ts';
import { nodeViewSchema } from '../nodes/node-contracts.ts';
import { SESSION_STATUSES } from '../session/session-status.ts';
import { phraseSchema } from '../session/session.schema.ts';
import { customizationSchema } from '../session/settings.schema.ts';

/*
 * The contract between the hosted page and the server (`/api/client/*`), shared by both sides.
 * The page authenticates with the page token it got for the client secret on first open.
 */

export const openRequestSchema = z.strictObject({
	clientSecret: z.string().regex(/^cs_[A-Za-z0-9]{20,64}$/, 'is not a client secret').optional(),
	handoff: z.string().regex(/^ho_[A-Za-z0-9]{20,64}$/, 'is not a handoff code').optional(),
	/** navigator.languages, most preferred first. */
	languages: z.array(z.string().max(64)).max(20).default([]),
	/** `?lang=` on /demo only (the server ignores it elsewhere). */
	override: z.string().max(16).optional(),
	/**
	 * Random per tab, kept in sessionStorage: if the answer to the first open is lost, the same tab
	 * opening again with the same nonce gets a page token instead of "already used".
	 */
	nonce: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be 16–64 letters, digits, _ or -').optional()
});
export type OpenRequest = z.input<typeof openRequestSchema>;

export const avatarViewSchema = z.object({ id: z.string(), name: z.string(), imageUrl: z.string(), gender: z.enum(['male', 'female', 'unknown']) });

/** What the page may know of the current node: its type, id, words and typed props (domain/nodes). */
export { nodeViewSchema, type NodeView, type NodeViewOf } from '../nodes/node-contracts.ts';

export const pageStateSchema = z.object({
	session: z.object({
		id: z.string(),
		status: z.enum(SESSION_STATUSES),
		lang: z.enum(SUPPORTED_LANGS),
		langs: z.array(z.enum(SUPPORTED_LANGS)),
		step: z.int()
	}),
	role: z.enum(['primary', 'observer']),
	sandbox: z.boolean(),
	/** A `/demo` session: its passcodes are shown on the page from the sandbox outbox. */
	demo: z.boolean().default(false),
	/** "Step n of m" along the flow's main path; null off it (domain/flow/flow-progress.ts). */
	progress: z.object({ current: z.int().min(1), total: z.int().min(1) }).nullable().default(null),
	avatar: avatarViewSchema.nullable(),
	customization: customizationSchema.default({}),
	node: nodeViewSchema.nullable(),
	transcript: z.array(phraseSchema),
	/** What the whole flow will need, so the permissions page asks once and says why. */
	requirements: z.object({ camera: z.boolean(), microphone: z.boolean(), recognition: z.boolean(), biometric: z.boolean() }),
	/** Origins that may embed this page; postMessage events go to these only. */
	embedOrigins: z.array(z.string()),
	/**
	 * The primary page of a session in progress: how long the session may stay idle
	 * (SESSION_INACTIVITY_TIMEOUT_S) and how much of it is left, so the page warns before it ends.
	 */
	idle: z.object({ timeoutMs: z.int().min(0), leftMs: z.int().min(0) }).nullable().default(null),
	/**
	 * Set once the session is over. `isVerified` only for embedded integrations (the account has
	 * embed origins), for the `veriflow:complete` event; decisions belong on the server.
	 */
	finished: z.object({ status: z.enum(['complete', 'incomplete']), finalPhrase: z.string().optional(), isVerified: z.boolean().optional() }).optional()
});
export type PageState = z.infer<typeof pageStateSchema>;

export const openResponseSchema = z.object({ pageToken: z.string(), state: pageStateSchema });
export type OpenResponse = z.infer<typeof openResponseSchema>;

/**
 * A node result the page posts. `step` is the session step it was made for (a result for an older
 * step is refused); `requestId` identifies this user action, so a retry of it (lost connection)
 * gets the first answer instead of acting twice.
 */
export const submitRequestSchema = z.strictObject({
	step: z.int().min(0),
	requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, _ or -').optional(),
	action: z.string().min(1).max(32),
	payload: z.record(z.string(), z.unknown()).default({})
});
export type SubmitRequest = z.input<typeof submitRequestSchema>;

/** What every camera upload carries besides its own content (the node type's schema checks the rest). */
export const evidenceEnvelopeSchema = z.looseObject({
	step: z.int().min(0),
	requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, _ or -').optional()
});

/**
 * Something the user should be told about their last action (wrong code, invalid e-mail…): a
 * `code` the page turns into words (flow/notice-text.ts) and its parameters. One shape for the
 * node handlers that raise it and the page that shows it.
 */
export const noticeSchema = z.object({ code: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() });
export type Notice = z.infer<typeof noticeSchema>;

export const submitResponseSchema = z.object({
	state: pageStateSchema,
	/** A problem with this result that the user should see (wrong code, invalid e-mail…). */
	notice: noticeSchema.optional()
});
export type SubmitResponse = z.infer<typeof submitResponseSchema>;

/** postMessage events to the embedding page: ids and statuses only, never personal data. */
export const EMBED_EVENTS = ['veriflow:ready', 'veriflow:node', 'veriflow:complete', 'veriflow:incomplete', 'veriflow:error', 'veriflow:resize'] as const;
export type EmbedEvent = (typeof EMBED_EVENTS)[number];

import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { flowNodeSchema } from '#lib/domain/flow/flow.schema.ts';
import { listSessionsQueryFields } from '#lib/domain/session/list-query.schema.ts';
import {
	avatarSchema,
	errorBodySchema,
	languageSchema,
	listSessionsResponseSchema,
	sessionWithSecretSchema
} from '#lib/domain/session/session.schema.ts';
import { createSessionRequestSchema } from '#lib/domain/session/settings.schema.ts';
import { API_VERSION } from '../services/session.service.ts';
import { EVENT_TYPES, webhookEventSchema, type EventType } from '#lib/domain/webhook/webhook-event.schema.ts';

const WHEN: Record<EventType, string> = {
	'session.status': 'On every status change (created, inProgress, complete, incomplete); fetch the session for the new status',
	'media.user_photo': 'After a face capture during the session; carries `media`',
	'media.document_photo': 'After a document scan node stored its image; carries `media`',
	'media.user_video': 'After the session ended and its video was assembled, only with retainSessionMedia; carries `media`',
	'analysis.video': '5–20 s after the end, once videoAIAnalysis is stored (only with videoAIAnalysisEnabled)',
	'analysis.screenshot': "Once the screenshot analysis stored the report's aiAnalysis (not sent while no face model runs)",
	'settings.avatars': 'When avatars are added, removed or changed (sessionId is empty); refetch GET /avatars',
	'settings.langs': 'When languages are enabled or disabled (sessionId is empty); refetch GET /langs'
};

const webhookHeaders = z.object({
	'X-Service-Signature': z.string().meta({ description: 't=<unix ms of this attempt>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint secret string>' }),
	'webhook-id': z.string().meta({ description: 'Standard Webhooks: the event id' }),
	'webhook-timestamp': z.string().meta({ description: 'Standard Webhooks: unix seconds of this attempt' }),
	'webhook-signature': z.string().meta({ description: 'Standard Webhooks: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">' })
});

/** One entry per event type under the document's `webhooks` (OpenAPI 3.1). */
const webhooks = Object.fromEntries(
	EVENT_TYPES.map((type) => [
		type,
		{
			post: {
				operationId: `webhook_${type.replace('.', '_')}`,
				summary: `${type} event`,
				description: `${WHEN[type]}. Delivered at least once (deduplicate on \`id\`); 2xx acknowledges, 4xx and 3xx end delivery, 5xx, time-outs (10 s) and connection errors are retried after 1 min, 5 min, 15 min, 1 h and 6 h.`,
				requestParams: { header: webhookHeaders },
				requestBody: { required: true, content: { 'application/json': { schema: webhookEventSchema } } },
				responses: {
					'200': { description: 'Acknowledged (any 2xx)' },
					'4XX': { description: 'Rejected: not retried' },
					'5XX': { description: 'Retried on the schedule' }
				}
			}
		}
	])
);

const error = (description: string) => ({ description, content: { 'application/json': { schema: errorBodySchema } } });

const rateHeaders = z.object({
	'X-RateLimit-Limit': z.string().meta({ description: 'Requests allowed per window' }),
	'X-RateLimit-Remaining': z.string().meta({ description: 'Requests left in this window' }),
	'X-RateLimit-Reset': z.string().meta({ description: 'Unix time in milliseconds when the window resets' })
});

const common = {
	'401': error('Missing or invalid API key (authentication_error)'),
	'429': error('Rate limit exceeded (rate_limit_error)'),
	'500': error('Server failure (server_error)')
};

/** The OpenAPI 3.1 document, generated from the zod schemas the handlers validate with. */
export function openApiDocument(baseUrl: string) {
	return createDocument({
		openapi: '3.1.0',
		info: {
			title: 'Veriflow Session API',
			version: API_VERSION,
			description:
				'Identity-verification sessions: create a session from a flow, send the end user to the hosted URL, read the report. All timestamps are integer Unix milliseconds.'
		},
		servers: [{ url: `${baseUrl}/api` }],
		security: [{ apiKey: [] }],
		components: {
			securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'sk_test_… (sandbox) or sk_live_… (production)' } },
			schemas: { FSNode: flowNodeSchema, WebhookEvent: webhookEventSchema }
		},
		webhooks,
		paths: {
			'/sessions': {
				post: {
					operationId: 'createSession',
					summary: 'Create a session',
					requestParams: { header: z.object({ 'Idempotency-Key': z.string().max(255).optional().meta({ description: 'A retry with the same key and body returns the first result' }) }) },
					requestBody: { required: true, content: { 'application/json': { schema: createSessionRequestSchema } } },
					responses: {
						'201': { description: 'Created', headers: rateHeaders, content: { 'application/json': { schema: sessionWithSecretSchema } } },
						'400': error('Invalid settings or flow (validation_error); nothing is created'),
						'409': error('Idempotency-Key reused with another body'),
						'413': error('Body larger than 8 MB'),
						...common
					}
				},
				get: {
					operationId: 'listSessions',
					summary: 'List sessions (keyset pagination)',
					requestParams: { query: listSessionsQueryFields },
					responses: {
						'200': { description: 'A page of sessions (without reports)', headers: rateHeaders, content: { 'application/json': { schema: listSessionsResponseSchema } } },
						'400': error('Malformed or out-of-range parameter (validation_error)'),
						...common
					}
				}
			},
			'/sessions/{sessionId}': {
				get: {
					operationId: 'getSession',
					summary: 'Get a session with its report and client secret',
					requestParams: { path: z.object({ sessionId: z.string() }) },
					responses: {
						'200': { description: 'The session', headers: rateHeaders, content: { 'application/json': { schema: sessionWithSecretSchema } } },
						'404': error('Session not found (not_found_error)'),
						...common
					}
				}
			},
			'/langs': {
				get: {
					operationId: 'listLangs',
					summary: 'Supported interface languages',
					responses: { '200': { description: 'Languages', content: { 'application/json': { schema: z.object({ langs: z.array(languageSchema) }) } } }, ...common }
				}
			},
			'/avatars': {
				get: {
					operationId: 'listAvatars',
					summary: 'Available avatars',
					responses: { '200': { description: 'Avatars', content: { 'application/json': { schema: z.object({ avatars: z.array(avatarSchema) }) } } }, ...common }
				}
			}
		}
	});
}

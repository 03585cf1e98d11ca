import { z } from 'zod';

/* The webhook payload (the spec's "common payload"), shared by the sender and the OpenAPI document. */

/** Webhook event types of the spec. */
export const EVENT_TYPES = [
	'session.status',
	'media.user_photo',
	'media.document_photo',
	'media.user_video',
	'analysis.video',
	'analysis.screenshot',
	'settings.avatars',
	'settings.langs'
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const MEDIA_EVENT_TYPES = ['media.user_photo', 'media.document_photo', 'media.user_video'] as const satisfies readonly EventType[];

export const isMediaEventType = (type: string): type is (typeof MEDIA_EVENT_TYPES)[number] => (MEDIA_EVENT_TYPES as readonly string[]).includes(type);

const ms = z.int().min(0).meta({ description: 'Unix time in milliseconds' });

export const webhookMediaSchema = z
	.object({
		id: z.string().meta({ description: 'Media id (`med_…`)' }),
		createdAt: ms,
		url: z.string().meta({ description: 'Signed download URL: {PUBLIC_BASE_URL}/media/{id}?exp=…&sig=…; no API key needed; 403 once expired' }),
		expires: ms.meta({ description: 'When `url` stops working (15 minutes after it was signed; each delivery attempt signs a fresh one)' }),
		contentType: z.string().meta({ description: 'MIME type sniffed from the bytes: image/jpeg, image/png, image/webp, video/webm…' })
	})
	.meta({ id: 'WebhookMedia' });
export type WebhookMedia = z.infer<typeof webhookMediaSchema>;

export const webhookEventSchema = z
	.object({
		id: z.string().meta({ description: 'Unique event id (`evt_…`), the same on every attempt: deduplicate on it' }),
		type: z.enum(EVENT_TYPES),
		createdAt: ms.meta({ description: 'When the change happened (Unix ms)' }),
		sessionId: z.string().meta({ description: "The session; '' on settings.* events" }),
		media: webhookMediaSchema.optional().meta({ description: 'Only on media.* events' })
	})
	.meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

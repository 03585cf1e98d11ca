import { z } from 'zod';
import { ERROR_TYPES } from '../errors.ts';
import { IN_APP_BROWSERS } from '../in-app-browser.ts';
import { NODE_TYPES } from '../flow/node-types.ts';
import { SUPPORTED_LANGS } from '../langs.ts';
import { sessionSettingsSchema } from './settings.schema.ts';
import { SESSION_STATUSES } from './session-status.ts';

/* Response shapes. Timestamps are integer Unix milliseconds everywhere (the spec's rule). */

const ms = z.int().min(0).meta({ description: 'Unix time in milliseconds' });

export const phraseSchema = z
	.object({ id: z.string(), createdAt: ms, text: z.string(), isAvatar: z.boolean() })
	.meta({ id: 'Phrase' });
export type Phrase = z.infer<typeof phraseSchema>;

export const nodeReportSchema = z
	.object({
		nodeId: z.string(),
		type: z.enum(NODE_TYPES),
		outcome: z.string().meta({ description: 'Outcome key (fixed nodes) or conditional outcome id' }),
		targetNodeId: z.string().optional(),
		createdAt: ms,
		details: z
			.record(z.string(), z.unknown())
			.optional()
			.meta({ description: 'What the server measured for this node (scores, matched reference, claims that disagreed)' })
	})
	.meta({ id: 'NodeReport' });
export type NodeReport = z.infer<typeof nodeReportSchema>;

export const aiAnalysisSchema = z
	.object({
		ageMin: z.int().optional(),
		ageMax: z.int().optional(),
		sex: z.enum(['male', 'female']).optional(),
		realPersonOrVirtual: z.enum(['real', 'virtual', 'noface']).optional(),
		overallSummary: z.string().optional(),
		analysis: z
			.array(z.object({ title: z.string(), shortDescription: z.string(), longDescription: z.string() }))
			.optional()
	})
	.meta({ id: 'SessionReportAIAnalysis' });

export const videoCriterionSchema = z
	.object({
		id: z.string().meta({ description: 'Stable criterion id, e.g. frozen_video, repeated_footage, recording_gaps' }),
		title: z.string(),
		detected: z.boolean(),
		confidence: z.number().min(0).max(1).meta({ description: 'How clearly the measurement is on its side of the threshold: 0.5 at the threshold, 1 far from it; not a calibrated probability' }),
		details: z.string().optional().meta({ description: 'What was measured, in words' })
	})
	.meta({ id: 'VideoCriterion' });

export const videoAIAnalysisSchema = z
	.object({
		createdAt: ms,
		status: z.enum(['completed', 'no_video', 'undecodable', 'unavailable']).meta({
			description: 'completed: criteria evaluated; no_video: nothing was recorded; undecodable: the recording could not be decoded; unavailable: the server has no video decoder (ffmpeg)'
		}),
		message: z.string().optional().meta({ description: 'Why the analysis is not completed' }),
		framesAnalysed: z.int().meta({ description: 'Frames decoded and measured (sampled uniformly in time)' }),
		durationMs: z.int().optional(),
		frameCount: z.int().optional().meta({ description: 'Video frames in the recording' }),
		averageFps: z.number().optional(),
		sampledFps: z.number().optional(),
		criteria: z.array(videoCriterionSchema),
		notEvaluated: z
			.array(z.object({ id: z.string(), title: z.string(), reason: z.string() }))
			.meta({ description: 'Fraud criteria this server did not evaluate, and why (never guessed)' })
	})
	.meta({ id: 'VideoAIAnalysis' });
export type VideoAIAnalysis = z.infer<typeof videoAIAnalysisSchema>;

export const locationSchema = z
	.object({
		ip: z.string().optional(),
		city: z.string().optional(),
		region: z.string().optional(),
		countryCode: z.string().optional(),
		latitude: z.number().optional(),
		longitude: z.number().optional(),
		timezone: z.string().optional(),
		isp: z.string().optional(),
		asn: z.int().optional(),
		asOrganization: z.string().optional().meta({ description: 'Name of the autonomous system (network operator)' }),
		isHosting: z.boolean().optional().meta({ description: 'Address belongs to a hosting/VPN network (from its ASN)' })
	})
	.meta({ id: 'Location' });

export const deviceSchema = z
	.object({
		browserName: z.string().optional(),
		browserVersion: z.string().optional(),
		osName: z.string().optional(),
		osVersion: z.string().optional(),
		platform: z.string().optional(),
		deviceType: z.enum(['mobile', 'tablet', 'desktop', 'unknown']),
		vendor: z.string().optional(),
		model: z.string().optional(),
		inAppBrowser: z.enum(IN_APP_BROWSERS).optional().meta({ description: 'Social or messaging app web view the page ran in' }),
		userAgent: z.string().optional()
	})
	.meta({ id: 'Device' });

export const sessionReportSchema = z
	.object({
		transcript: z.array(phraseSchema).meta({ description: 'Every phrase of the avatar and the user, in order' }),
		nodeReports: z.array(nodeReportSchema).optional().meta({ description: 'One entry per finished node on the walked path, in order; each appears as soon as its node finishes' }),
		aiAnalysis: aiAnalysisSchema.optional().meta({ description: "Computed from the session's face screenshots by the server's own models; absent until such an analysis has run (never guessed)" }),
		videoAIAnalysis: videoAIAnalysisSchema.optional().meta({ description: 'Only with videoAIAnalysisEnabled; stored 5–20 s after the session ends, announced by analysis.video' }),
		location: locationSchema.optional().meta({ description: 'From offline GeoIP of the address that first opened the link' }),
		device: deviceSchema.optional().meta({ description: 'From the User-Agent and Client Hints of the browser that first opened the link' }),
		livenessDetected: z.boolean().optional().meta({
			description: 'Absent when no liveness check ran. true when a liveness_detection node ended livenessDetected (or a face node recorded a positive server liveness verdict) and no node recorded a negative one (deepfakeDetected, or a negative verdict); false otherwise'
		}),
		lang: z.enum(SUPPORTED_LANGS).optional(),
		extractedData: z.record(z.string(), z.string()).optional().meta({ description: 'Data nodes extracted (document fields, dialog answers): string values only' }),
		screenshots: z.array(z.string()).optional().meta({ description: 'Signed URLs (valid 15 minutes) of the screenshots kept for the session' }),
		videos: z
			.object({ avatarVideoUrl: z.string().optional(), userVideoUrl: z.string().optional().meta({ description: 'Signed URL (15 minutes) of the session video, when it is retained (retainSessionMedia)' }) })
			.optional(),
		isVerified: z.boolean().optional().meta({
			description:
				'Only on finished sessions. true when the session is complete, at least one verification node (liveness_detection, face_scan, face_compare, recognition, document_scan, two_factor*) passed and none of them ended with a failing outcome; recognition newUser counts as neither'
		})
	})
	.meta({ id: 'SessionReport' });
export type SessionReport = z.infer<typeof sessionReportSchema>;

export const sessionSchema = z
	.object({
		id: z.string(),
		createdAt: ms,
		startedAt: ms.optional(),
		finishedAt: ms.optional(),
		status: z.enum(SESSION_STATUSES),
		settings: sessionSettingsSchema,
		version: z.string().optional(),
		flowId: z.string().meta({ description: "The caller's flowId, or a hash of the flow when none was sent" }),
		report: sessionReportSchema.optional()
	})
	.meta({ id: 'Session' });
/** The session as the API returns it; the server's own view is `Session` (session.model.ts). */
export type ApiSession = z.infer<typeof sessionSchema>;

export const clientSecretSchema = z
	.object({
		secret: z.string().meta({ description: 'Token prefixed `cs_`; authenticates the end user for this one session' }),
		createdAt: ms,
		expireAt: ms,
		url: z.string().meta({ description: 'Hosted session URL: {PUBLIC_BASE_URL}/verify?cs=<secret>' })
	})
	.meta({ id: 'ClientSecret' });
export type ClientSecret = z.infer<typeof clientSecretSchema>;

export const sessionWithSecretSchema = z
	.object({ session: sessionSchema, clientSecret: clientSecretSchema })
	.meta({ id: 'GetSessionResponse' });
export type SessionWithSecret = z.infer<typeof sessionWithSecretSchema>;

export const listSessionsResponseSchema = z
	.object({
		sessions: z.array(sessionSchema),
		hasMore: z.boolean(),
		nextCursor: z.string().optional().meta({ description: 'Absent on the last page' }),
		totalCount: z.int().optional().meta({ description: 'Only with includeTotalCount=true' })
	})
	.meta({ id: 'ListSessionsResponse' });
export type ListSessionsResponse = z.infer<typeof listSessionsResponseSchema>;

export const languageSchema = z.object({ id: z.enum(SUPPORTED_LANGS), title: z.string() }).meta({ id: 'Language' });
export type Language = z.infer<typeof languageSchema>;

export const avatarSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		gender: z.enum(['male', 'female', 'unknown']),
		imageUrl: z.string(),
		createdAt: ms
	})
	.meta({ id: 'Avatar' });
export type Avatar = z.infer<typeof avatarSchema>;

export const errorBodySchema = z
	.object({
		error: z.object({
			type: z.enum(Object.keys(ERROR_TYPES) as [keyof typeof ERROR_TYPES, ...(keyof typeof ERROR_TYPES)[]]),
			message: z.string(),
			code: z.string().optional()
		})
	})
	.meta({ id: 'Error' });

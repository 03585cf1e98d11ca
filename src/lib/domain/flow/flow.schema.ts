import { z } from 'zod';
import { validationSchema } from '../data-validation.ts';
import { CHALLENGES } from '../face/challenge.ts';
import {
	CONTACT_SOURCES,
	DOCUMENT_TYPES,
	FACE_SCAN_MODES,
	FIXED_OUTCOME_KEYS,
	REFERENCE_IMAGE_SOURCES,
	SCANNING_MODES,
	TWO_FACTOR_CHANNELS,
	type FixedOutcomeNodeType,
	type NodeType
} from './node-types.ts';

/*
 * Node schemas. Nodes are loose objects: the session keeps exactly what the caller sent (a flow
 * builder may add its own keys such as positions), while every field the spec names is checked.
 * Defaults are not written into the flow; `face-scan-settings.ts` and friends apply them at run time.
 */

const nodeId = z.string().min(1, 'must be a non-empty string').max(128, 'must be at most 128 characters');
const targetId = z.string().min(1, 'must name a node id');
const shortText = (max: number) => z.string().max(max, `must be at most ${max} characters`);

const fixedOutcomes = <T extends FixedOutcomeNodeType>(type: T) => {
	const keys = FIXED_OUTCOME_KEYS[type] as readonly string[];
	return z.strictObject(Object.fromEntries(keys.map((key) => [key, targetId])) as Record<string, typeof targetId>);
};

export const conditionalOutcomeSchema = z
	.looseObject({
		id: z.string().min(1, 'must be a non-empty string').max(128),
		condition: z.string().min(1, 'must be a non-empty string').max(2000),
		targetNodeId: targetId
	})
	.meta({ id: 'FSConditionalOutcome' });

const conditionalOutcomes = z.array(conditionalOutcomeSchema).min(1, 'must hold at least 1 outcome').max(50);

const base = <T extends NodeType>(type: T) => ({ id: nodeId, type: z.literal(type) });

export const startNodeSchema = z.looseObject({ ...base('start'), outcome: targetId });
export const endNodeSchema = z.looseObject({ ...base('end') });

export const conversationNodeSchema = z.looseObject({
	...base('conversation'),
	prompt: z.string().min(1, 'must be a non-empty string').max(4000),
	outcomes: conditionalOutcomes,
	doesNotRequireReply: z.boolean().optional()
});

/** Optional time limit we add to camera nodes (seconds); the spec leaves node time-outs open. */
const timeoutSeconds = z.int().min(5).max(600).optional();

/**
 * Our extension for sandbox face nodes (ignored in live sessions): pin the challenge, and have camera
 * signals, the light challenge or the turn's continuity decide as they do live. A typo here would
 * silently test less than the integrator meant, so each value is checked.
 */
const enforce = z.literal('enforce').optional();
const faceTestMode = z
	.looseObject({ challenge: z.enum(CHALLENGES).optional(), injection: enforce, lightChallenge: enforce, continuousTurn: enforce })
	.optional();



export const documentScanNodeSchema = z.looseObject({
	...base('document_scan'),
	scanningMode: z.enum(SCANNING_MODES),
	allowedDocumentTypes: z
		.array(z.enum(DOCUMENT_TYPES))
		.min(1, 'must list at least 1 document type')
		.refine((list) => new Set(list).size === list.length, 'must not repeat a document type'),
	outcomes: fixedOutcomes('document_scan'),
	showTorchButton: z.boolean().optional(),
	showCameraSwitch: z.boolean().optional(),
	timeoutSeconds
});

const referenceFields = {
	referenceImageSource: z.enum(REFERENCE_IMAGE_SOURCES).optional(),
	referenceImageKey: shortText(256).min(1).optional(),
	referenceImageUrl: z
		.url({ protocol: /^https$/, error: 'must be an https URL' })
		.max(2048)
		.optional(),
	similarityThreshold: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional()
};

/**
 * The spec's face_scan capture fields. Every face node type captures with the same page and reads
 * them when present (face.contract.ts faceSettingsOf), so every one checks them: a liveness node
 * with `captureDelay: 1e9` would hold for ever, `detectionInterval: 0` would spin the page.
 */
const captureFields = {
	captureInstructions: shortText(1000).optional(),
	captureDelay: z.int().min(0).max(60_000).optional(),
	detectionInterval: z.int().min(16).max(5_000).optional(),
	qualityThreshold: z.number().min(0).max(1).optional(),
	blurThreshold: z.number().min(0).max(10_000).optional(),
	minFaceSize: z.int().min(16).max(4096).optional(),
	maxFaceSize: z.int().min(16).max(4096).optional(),
	enableSound: z.boolean().optional(),
	enableHaptics: z.boolean().optional(),
	useWebGL: z.boolean().optional(),
	maxRetries: z.int().min(0).max(10).optional()
};

export const recognitionNodeSchema = z.looseObject({
	...base('recognition'),
	outcomes: fixedOutcomes('recognition'),
	/** The 1:N match threshold (faceSettingsOf), as face_scan's for 1:1. */
	similarityThreshold: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
	...captureFields,
	timeoutSeconds,
	testMode: faceTestMode
});

export const livenessNodeSchema = z.looseObject({
	...base('liveness_detection'),
	outcomes: fixedOutcomes('liveness_detection'),
	...captureFields,
	timeoutSeconds,
	testMode: faceTestMode
});

export const faceScanNodeSchema = z.looseObject({
	testMode: faceTestMode,
	...base('face_scan'),
	mode: z.enum(FACE_SCAN_MODES),
	outcomes: fixedOutcomes('face_scan'),
	saveToField: shortText(128).min(1).optional(),
	requireLiveness: z.boolean().optional(),
	...referenceFields,
	...captureFields,
	timeoutSeconds
});

export const faceCompareNodeSchema = z.looseObject({
	testMode: faceTestMode,
	...base('face_compare'),
	outcomes: fixedOutcomes('face_compare'),
	...referenceFields,
	...captureFields,
	timeoutSeconds
});

export const enterEmailNodeSchema = z.looseObject({
	...base('enter_email'),
	outcomes: fixedOutcomes('enter_email')
});

const email = z.email({ error: 'must be an e-mail address' }).max(254);
const phone = z.string().regex(/^\+?[0-9 ()\-.]{6,24}$/, 'must be a phone number, e.g. +14155550123');

const twoFactorFields = {
	contactSource: z.enum(CONTACT_SOURCES),
	staticEmail: email.optional(),
	staticPhone: phone.optional(),
	emailTemplate: shortText(10_000).optional(),
	smsTemplate: shortText(480).optional(),
	otpLength: z.int().min(4, 'must be between 4 and 8').max(8, 'must be between 4 and 8').optional(),
	expirySeconds: z.int().min(30).max(86_400).optional(),
	maxAttempts: z.int().min(1).max(10).optional(),
	resendAfterSeconds: z.int().min(0).max(3_600).optional(),
	showUI: z.boolean().optional(),
	testMode: z
		.looseObject({ enabled: z.boolean(), email: email.optional(), phone: phone.optional() })
		.optional()
};

export const twoFactorNodeSchema = z.looseObject({
	...base('two_factor'),
	channels: z
		.array(z.enum(TWO_FACTOR_CHANNELS))
		.min(1, 'must list at least 1 channel')
		.refine((list) => new Set(list).size === list.length, 'must not repeat a channel'),
	...twoFactorFields,
	outcomes: fixedOutcomes('two_factor')
});

// The spec does not detail the single-channel variants; they take two_factor's fields but their
// channel is implied, and `contactSource` defaults to `session_data`.
export const twoFactorEmailNodeSchema = z.looseObject({
	...base('two_factor_email'),
	...twoFactorFields,
	contactSource: twoFactorFields.contactSource.optional(),
	outcomes: fixedOutcomes('two_factor_email')
});

export const twoFactorSmsNodeSchema = z.looseObject({
	...base('two_factor_sms'),
	...twoFactorFields,
	contactSource: twoFactorFields.contactSource.optional(),
	outcomes: fixedOutcomes('two_factor_sms')
});

// The data_validation evaluator owns its schema (paths, actions, value rules).
export { validationSchema };

export const dataValidationNodeSchema = z.looseObject({
	...base('data_validation'),
	validation: validationSchema,
	outcomes: conditionalOutcomes
});

export const permissionsNodeSchema = z.looseObject({
	...base('permissions'),
	outcomes: fixedOutcomes('permissions')
});

/** One schema per node type; `satisfies` keeps this exhaustive. */
export const NODE_SCHEMAS = {
	start: startNodeSchema,
	end: endNodeSchema,
	conversation: conversationNodeSchema,
	liveness_detection: livenessNodeSchema,
	enter_email: enterEmailNodeSchema,
	data_validation: dataValidationNodeSchema,
	document_scan: documentScanNodeSchema,
	recognition: recognitionNodeSchema,
	face_scan: faceScanNodeSchema,
	two_factor: twoFactorNodeSchema,
	face_compare: faceCompareNodeSchema,
	two_factor_email: twoFactorEmailNodeSchema,
	two_factor_sms: twoFactorSmsNodeSchema,
	permissions: permissionsNodeSchema
} as const satisfies Record<NodeType, z.ZodType>;

export const flowNodeSchema = z
	.discriminatedUnion('type', [
		startNodeSchema,
		endNodeSchema,
		conversationNodeSchema,
		livenessNodeSchema,
		enterEmailNodeSchema,
		dataValidationNodeSchema,
		documentScanNodeSchema,
		recognitionNodeSchema,
		faceScanNodeSchema,
		twoFactorNodeSchema,
		faceCompareNodeSchema,
		twoFactorEmailNodeSchema,
		twoFactorSmsNodeSchema,
		permissionsNodeSchema
	])
	.meta({ id: 'FSNode' });

export type FlowNode = z.infer<typeof flowNodeSchema>;
export type Flow = FlowNode[];
export type NodeOf<T extends NodeType> = Extract<FlowNode, { type: T }>;
export type ConditionalOutcome = z.infer<typeof conditionalOutcomeSchema>;
export type Validation = z.infer<typeof validationSchema>;

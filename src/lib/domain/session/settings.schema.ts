import { z } from 'zod';
import { SUPPORTED_LANGS } from '../langs.ts';

/*
 * What an integrator sends to `POST /sessions`. Top-level objects are strict so a misspelt field
 * is refused with its name instead of being silently ignored; the flow is validated separately by
 * `validateFlow`, which names the node and field of every problem.
 */

export const MAX_METADATA_BYTES = 50 * 1024;
export const ZONES = ['eu', 'us', 'es'] as const;

const lang = z.enum(SUPPORTED_LANGS, { error: `must be one of ${SUPPORTED_LANGS.join(', ')}` });

// Colours end up in CSS: only plain colour syntax, nothing that could close a declaration.
const CSS_COLOUR =
	/^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|(rgb|rgba|hsl|hsla)\(\s*[0-9.%]+(deg)?\s*(,|\s)\s*[0-9.%]+\s*(,|\s)\s*[0-9.%]+\s*((,|\/)\s*[0-9.%]+\s*)?\)|[a-zA-Z]{3,20})$/;

const translations = (max: number) =>
	z.partialRecord(lang, z.string().max(max, `must be at most ${max} characters`));

export const permissionsPageSchema = z
	.strictObject({
		buttonText: z.string().min(1).max(60).optional(),
		mainHeading: z.string().max(200).optional(),
		subheading: z.string().max(1000).optional(),
		backgroundType: z.enum(['AVATAR', 'COLOR']).optional(),
		backgroundColor: z.string().regex(CSS_COLOUR, 'must be a CSS colour such as #0a84ff or rgb(10 132 255)').optional(),
		buttonTextTranslates: translations(60).optional(),
		mainHeadingTranslates: translations(200).optional(),
		subheadingTranslates: translations(1000).optional()
	})
	.meta({ id: 'PermissionsPageCustomization' });

/** A link back to the integrator's site: https, or http on this machine (development). */
const returnUrl = z
	.string()
	.max(2000)
	.refine((value) => {
		try {
			const url = new URL(value);
			return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
		} catch {
			return false;
		}
	}, 'must be an https URL (http only for localhost)');

/**
 * Our extension: the end screen's words and the way back to the integrator's site. The user is
 * sent to `returnUrl` with `sessionId` and `status` added to its query (never the verdict: the
 * integrator reads that from the API or a webhook).
 */
export const endPageSchema = z
	.strictObject({
		heading: z.string().min(1).max(200).optional(),
		text: z.string().min(1).max(1000).optional(),
		headingTranslates: translations(200).optional(),
		textTranslates: translations(1000).optional(),
		returnUrl: returnUrl.optional()
	})
	.meta({ id: 'EndPageCustomization' });

export const customizationSchema = z
	.strictObject({
		permissionsPage: permissionsPageSchema.optional(),
		endPage: endPageSchema.optional(),
		controls: z.strictObject({ showUxControls: z.boolean().optional() }).optional()
	})
	.meta({ id: 'Customization' });

const requestedDataSchema = z.strictObject({
	key: z.string().min(1).max(128),
	isRequired: z.boolean().optional(),
	description: z.string().max(1000).optional()
});

export const moduleSchema = z
	.discriminatedUnion('type', [
		z.strictObject({
			type: z.literal('emailVerification'),
			name: z.string().max(200).optional(),
			email: z.email().max(254).optional(),
			publicRecognitionEnabled: z.boolean().optional()
		}),
		z.strictObject({ type: z.literal('smsVerification'), phone: z.string().regex(/^\+?[0-9 ()\-.]{6,24}$/).optional() }),
		z.strictObject({ type: z.literal('identityVerification') }),
		z.strictObject({ type: z.literal('documentAuthentication') }),
		z.strictObject({ type: z.literal('ageEstimation'), age: z.int().min(1).max(150) }),
		z.strictObject({ type: z.literal('proofOfIntent'), requestedData: z.array(requestedDataSchema).min(1).max(50) }),
		z.strictObject({ type: z.literal('knowledgeVerify') })
	])
	.meta({ id: 'Module' });

export type Module = z.infer<typeof moduleSchema>;

const metadataSchema = z
	.record(z.string(), z.unknown())
	.refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= MAX_METADATA_BYTES, {
		message: `must be at most ${MAX_METADATA_BYTES / 1024} KB as JSON`
	});

/** Fields shared by the stored SessionSettings and the creation request. */
const settingsShape = {
	clientReferenceId: z.string().min(1, 'must be a non-empty string').max(256),
	metadata: metadataSchema.optional(),
	initialPhrase: z.string().max(2000).optional(),
	finalPhrase: z.string().max(2000).optional(),
	providedData: z.record(z.string().max(128), z.string().max(2_000_000, 'values must be at most 2 MB')).optional(),
	avatarId: z.string().min(1).max(64).optional(),
	langs: z
		.array(lang)
		.min(1)
		.refine((list) => new Set(list).size === list.length, 'must not repeat a language')
		.optional(),
	defaultLang: lang.optional(),
	zone: z.enum(ZONES).optional(),
	modules: z.array(moduleSchema).min(1, 'must hold at least 1 module').max(20).optional(),
	// Validated node by node by validateFlow, which gives better messages than a union would.
	flow: z
		.array(z.unknown())
		.optional()
		.meta({ override: { type: 'array', items: { $ref: '#/components/schemas/FSNode' }, description: 'Flat array of nodes (exactly one of flow or modules)' } }),
	customization: customizationSchema.optional(),
	videoAIAnalysisEnabled: z.boolean().optional(),
	retainSessionMedia: z.boolean().optional(),
	/** Our extension: a caller-chosen flow identifier for `GET /sessions?flowId=`. */
	flowId: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'must be 1–128 letters, digits or _ . : -').optional()
};

export const createSessionRequestSchema = z
	.strictObject(settingsShape)
	.superRefine((value, ctx) => {
		const hasFlow = value.flow !== undefined;
		const hasModules = value.modules !== undefined;
		if (hasFlow === hasModules) {
			ctx.addIssue({
				code: 'custom',
				path: [hasFlow ? 'modules' : 'flow'],
				message: hasFlow ? 'send either flow or modules, not both' : 'is required (or the legacy modules)'
			});
		}
	})
	.meta({ id: 'CreateSessionRequest' });

export type CreateSessionRequest = z.infer<typeof createSessionRequestSchema>;

/** The stored settings as the caller sent them (the flow included, legacy modules kept as such). */
export const sessionSettingsSchema = z
	.looseObject({ ...settingsShape, flow: z.array(z.record(z.string(), z.unknown())).optional() })
	.meta({ id: 'SessionSettings' });

export type SessionSettings = z.infer<typeof sessionSettingsSchema>;

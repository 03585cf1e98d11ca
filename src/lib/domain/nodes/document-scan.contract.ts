// The document_scan node's contract: its settings with defaults, its outcomes, what the page receives
// and what it uploads. Server and page both read the settings through it.
import { z } from 'zod';
import { DOCUMENT_TYPES, FIXED_OUTCOME_KEYS, SCANNING_MODES } from '../flow/node-types.ts';
import { DOCUMENT_RETRY_REASONS, DOCUMENT_SIDES } from '../page/document-evidence.schema.ts';

export { documentSettingsOf, sidesFor, DOCUMENT_SCAN_DEFAULTS, DOCUMENT_UPLOAD_GRACE_S, DOCUMENT_PORTRAIT_FIELD, type DocumentSettings } from '../flow/document-settings.ts';
export { documentEvidenceRequestSchema as documentEvidenceSchema, MAX_DOCUMENT_EVIDENCE_BODY_BYTES } from '../page/document-evidence.schema.ts';

export const DOCUMENT_SCAN_OUTCOMES = FIXED_OUTCOME_KEYS.document_scan;

/** What the page receives for a document_scan node (settings with the defaults applied). */
export const documentViewPropsSchema = z.object({
	available: z.literal(true),
	settings: z.object({
		scanningMode: z.enum(SCANNING_MODES),
		allowedDocumentTypes: z.array(z.enum(DOCUMENT_TYPES)).readonly(),
		showTorchButton: z.boolean(),
		showCameraSwitch: z.boolean(),
		timeoutSeconds: z.number()
	}),
	/** The sides the upload must hold, in order. */
	sides: z.array(z.enum(DOCUMENT_SIDES)).readonly(),
	/** Time left by the server's clock (a reload resumes the same countdown). */
	timeLeftMs: z.number().min(0),
	triesLeft: z.int().min(0),
	/** Why the last try was refused, if one was. */
	lastRefusal: z.enum(DOCUMENT_RETRY_REASONS).optional(),
	cancellable: z.boolean()
});
export type DocumentViewProps = z.infer<typeof documentViewPropsSchema>;

// The document_scan node's contract: its settings with defaults, its outcomes, what the page receives
// and what it uploads. Server and page both read the settings through it.
import { z } from 'zod';
import { DOCUMENT_TYPES, FIXED_OUTCOME_KEYS, SCANNING_MODES, type DocumentType } from '../flow/node-types.ts';
import { DOCUMENT_RETRY_REASONS, DOCUMENT_SIDES } from '../page/document-evidence.schema.ts';
import type { NodeOf } from '../flow/flow.schema.ts';

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

/** The document_scan node's settings with defaults applied (the flow keeps what was sent). */
export interface DocumentSettings {
	scanningMode: 'SINGLE_SIDE' | 'MULTI_SIDE' | 'BARCODE';
	allowedDocumentTypes: readonly DocumentType[];
	showTorchButton: boolean;
	showCameraSwitch: boolean;
	/** Seconds from entering the node to `scanTimeout` (the server enforces it too). */
	timeoutSeconds: number;
	/** Refused or unreadable tries before the node ends with `scanTimeout`. */
	maxTries: number;
}

export const DOCUMENT_SCAN_DEFAULTS = {
	showTorchButton: true,
	showCameraSwitch: true,
	timeoutSeconds: 120,
	maxTries: 5
} as const;

/**
 * Extra seconds an upload may arrive after the time limit: the page captured in time and the upload
 * and the server's reading took the rest. Anything later ends the node with `scanTimeout`.
 */
export const DOCUMENT_UPLOAD_GRACE_S = 20;

export function documentSettingsOf(node: NodeOf<'document_scan'>): DocumentSettings {
	return {
		scanningMode: node.scanningMode,
		allowedDocumentTypes: node.allowedDocumentTypes,
		showTorchButton: node.showTorchButton ?? DOCUMENT_SCAN_DEFAULTS.showTorchButton,
		showCameraSwitch: node.showCameraSwitch ?? DOCUMENT_SCAN_DEFAULTS.showCameraSwitch,
		timeoutSeconds: node.timeoutSeconds ?? DOCUMENT_SCAN_DEFAULTS.timeoutSeconds,
		maxTries: DOCUMENT_SCAN_DEFAULTS.maxTries
	};
}

/** Sides a mode's upload must hold, in order. */
export function sidesFor(mode: DocumentSettings['scanningMode']): readonly ('front' | 'back')[] {
	return mode === 'MULTI_SIDE' ? ['front', 'back'] : ['front'];
}

/** Session data key the document's portrait is saved under (a face_scan/face_compare `referenceImageKey`). */
export const DOCUMENT_PORTRAIT_FIELD = 'documentPortrait';

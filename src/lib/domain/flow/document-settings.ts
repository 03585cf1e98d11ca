import type { NodeOf } from './flow.schema.ts';
import type { DocumentType } from './node-types.ts';

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

/**
 * Node types of a flow: the spec's machine schema list plus the four its concept text adds.
 * Registries elsewhere are typed `satisfies Record<NodeType, …>` so a new type that is not handled
 * everywhere fails the type check.
 */
export const NODE_TYPES = [
	'start',
	'end',
	'conversation',
	'liveness_detection',
	'enter_email',
	'data_validation',
	'document_scan',
	'recognition',
	'face_scan',
	'two_factor',
	'face_compare',
	'two_factor_email',
	'two_factor_sms',
	'permissions'
] as const;

export type NodeType = (typeof NODE_TYPES)[number];

/** The camera-and-face node types: one set of settings, one server handler. */
export const FACE_NODE_TYPES = ['liveness_detection', 'face_scan', 'face_compare', 'recognition'] as const satisfies readonly NodeType[];
export type FaceNodeType = (typeof FACE_NODE_TYPES)[number];

/** The passcode node types: they differ only in their channel. */
export const TWO_FACTOR_TYPES = ['two_factor', 'two_factor_email', 'two_factor_sms'] as const satisfies readonly NodeType[];
export type TwoFactorType = (typeof TWO_FACTOR_TYPES)[number];

const TWO_FACTOR_OUTCOMES = ['verified', 'delivery_failed', 'failed_unverified', 'cancelled', 'error'] as const;

/** Outcome keys of the fixed-outcome node types, in the spec's order. */
export const FIXED_OUTCOME_KEYS = {
	recognition: ['recognized', 'newUser', 'noFace'],
	liveness_detection: ['livenessDetected', 'deepfakeDetected', 'noFace'],
	document_scan: ['scanSuccess', 'userCancelled', 'scanTimeout'],
	face_scan: ['passed', 'notPassed', 'cancelled', 'error'],
	face_compare: ['match', 'noMatch', 'imageUnavailable'],
	enter_email: ['emailEntered', 'canceled'],
	two_factor: TWO_FACTOR_OUTCOMES,
	two_factor_email: TWO_FACTOR_OUTCOMES,
	two_factor_sms: TWO_FACTOR_OUTCOMES,
	permissions: ['permissionsGranted', 'permissionsDenied']
} as const satisfies Partial<Record<NodeType, readonly string[]>>;

export type FixedOutcomeNodeType = keyof typeof FIXED_OUTCOME_KEYS;
export type ConditionalNodeType = 'conversation' | 'data_validation';

export const CONDITIONAL_NODE_TYPES = ['conversation', 'data_validation'] as const satisfies readonly ConditionalNodeType[];

export type OutcomeShape = 'single' | 'none' | 'fixed' | 'conditional';

/** How each node type names its successor(s). */
export const OUTCOME_SHAPE = {
	start: 'single',
	end: 'none',
	conversation: 'conditional',
	data_validation: 'conditional',
	liveness_detection: 'fixed',
	enter_email: 'fixed',
	document_scan: 'fixed',
	recognition: 'fixed',
	face_scan: 'fixed',
	two_factor: 'fixed',
	face_compare: 'fixed',
	two_factor_email: 'fixed',
	two_factor_sms: 'fixed',
	permissions: 'fixed'
} as const satisfies Record<NodeType, OutcomeShape>;

export const isNodeType = (value: unknown): value is NodeType =>
	typeof value === 'string' && (NODE_TYPES as readonly string[]).includes(value);

export const isFixedOutcomeType = (type: NodeType): type is FixedOutcomeNodeType => OUTCOME_SHAPE[type] === 'fixed';

/** The outcome keys a node of this type may finish with, or null for conditional/start/end nodes. */
export function fixedOutcomeKeys(type: NodeType): readonly string[] | null {
	return isFixedOutcomeType(type) ? FIXED_OUTCOME_KEYS[type] : null;
}

export const DOCUMENT_TYPES = [
	'MRTD_TYPE_UNKNOWN',
	'MRTD_TYPE_IDENITY_CARD',
	'MRTD_TYPE_PASSPORT',
	'MRTD_TYPE_VISA',
	'MRTD_TYPE_GREEN_CARD',
	'MRTD_TYPE_MYS_PASS_IMM13P',
	'MRTD_TYPE_DL',
	'MRTD_TYPE_INTERNAL_TRAVEL_DOCUMENT',
	'MRTD_TYPE_BORDER_CROSSING_CARD'
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const SCANNING_MODES = ['SINGLE_SIDE', 'MULTI_SIDE', 'BARCODE'] as const;
export const FACE_SCAN_MODES = ['capture', 'compare'] as const;
export const REFERENCE_IMAGE_SOURCES = ['session', 'providedData', 'url'] as const;
export const TWO_FACTOR_CHANNELS = ['email', 'sms'] as const;
export const CONTACT_SOURCES = ['session_data', 'module_settings', 'recognition_match'] as const;

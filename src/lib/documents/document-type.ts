import { z } from 'zod';
import { DOCUMENT_TYPES } from '#lib/domain/flow/node-types.ts';

/** Document types of the spec's `allowedDocumentTypes`: the flow schema's list, named for the reader. */
export const MRTD_TYPES = DOCUMENT_TYPES;

export const mrtdTypeSchema = z.enum(MRTD_TYPES);
export type MrtdType = z.infer<typeof mrtdTypeSchema>;

/** MRZ layouts we group and parse; the `mrz` package's own Swiss/French layouts are reported under their name. */
export type MrzFormat =
	| 'TD1'
	| 'TD2'
	| 'TD3'
	| 'MRV-A'
	| 'MRV-B'
	| 'FRENCH_NATIONAL_ID'
	| 'SWISS_DRIVING_LICENSE'
	| 'FRENCH_DRIVING_LICENSE';

/**
 * Classifies a document from its MRZ document code (first two characters of line 1), layout and
 * issuing state. ICAO 9303 part 4–7: `P` travel documents (passports), `V` visas, `I`/`A`/`C` official
 * travel documents in card form. The US permanent resident card is `C1`/`C<` issued by USA.
 */
export function classifyMrz(documentCode: string, format: MrzFormat, issuingState = ''): MrtdType {
	const code = documentCode.toUpperCase();
	const first = code.charAt(0);
	if (format === 'SWISS_DRIVING_LICENSE' || format === 'FRENCH_DRIVING_LICENSE') return 'MRTD_TYPE_DL';
	if (format === 'FRENCH_NATIONAL_ID') return 'MRTD_TYPE_IDENITY_CARD';
	if (format === 'MRV-A' || format === 'MRV-B' || first === 'V') return 'MRTD_TYPE_VISA';
	if (first === 'P') return 'MRTD_TYPE_PASSPORT';
	if (first === 'C' && issuingState === 'USA') return 'MRTD_TYPE_GREEN_CARD';
	if (first === 'I' || first === 'A' || first === 'C') return 'MRTD_TYPE_IDENITY_CARD';
	return 'MRTD_TYPE_UNKNOWN';
}

export const DOCUMENT_REFUSAL_REASONS = {
	/** Nothing readable was found (no MRZ, no barcode). */
	unreadable: 'DOCUMENT_UNREADABLE',
	/** The document was read but its type is not among the node's allowed types. */
	typeNotAllowed: 'DOCUMENT_TYPE_NOT_ALLOWED',
	/** The document was read but could not be classified, and the node does not allow unknown types. */
	typeUnknown: 'DOCUMENT_TYPE_UNKNOWN'
} as const;
export type DocumentRefusalReason = (typeof DOCUMENT_REFUSAL_REASONS)[keyof typeof DOCUMENT_REFUSAL_REASONS];

export type DocumentTypeDecision =
	| { accepted: true; documentType: MrtdType }
	| {
			accepted: false;
			reason: DocumentRefusalReason;
			documentType: MrtdType | null;
			allowed: readonly MrtdType[];
			message: string;
	  };

const TYPE_LABELS: Record<MrtdType, string> = {
	MRTD_TYPE_UNKNOWN: 'an unrecognised document',
	MRTD_TYPE_IDENITY_CARD: 'an identity card',
	MRTD_TYPE_PASSPORT: 'a passport',
	MRTD_TYPE_VISA: 'a visa',
	MRTD_TYPE_GREEN_CARD: 'a permanent resident card',
	MRTD_TYPE_MYS_PASS_IMM13P: 'an IMM13P pass',
	MRTD_TYPE_DL: "a driver's licence",
	MRTD_TYPE_INTERNAL_TRAVEL_DOCUMENT: 'an internal travel document',
	MRTD_TYPE_BORDER_CROSSING_CARD: 'a border crossing card'
};

/** English label of a type ("a passport"), for messages and logs; the page translates by reason code. */
export function documentTypeLabel(type: MrtdType): string {
	return TYPE_LABELS[type];
}

/**
 * Decides whether a read document may pass a `document_scan` node. An empty allowed list accepts
 * every type (the node then only requires that something was read); `MRTD_TYPE_UNKNOWN` in the list
 * admits documents that could be read but not classified.
 */
export function checkAllowedDocumentType(
	documentType: MrtdType | null,
	allowed: readonly MrtdType[]
): DocumentTypeDecision {
	if (documentType === null) {
		return {
			accepted: false,
			reason: DOCUMENT_REFUSAL_REASONS.unreadable,
			documentType,
			allowed,
			message: 'The document could not be read.'
		};
	}
	if (allowed.length === 0 || allowed.includes(documentType)) return { accepted: true, documentType };
	const expected = allowed.map(documentTypeLabel).join(' or ');
	if (documentType === 'MRTD_TYPE_UNKNOWN') {
		return {
			accepted: false,
			reason: DOCUMENT_REFUSAL_REASONS.typeUnknown,
			documentType,
			allowed,
			message: `This document could not be recognised; please show ${expected}.`
		};
	}
	return {
		accepted: false,
		reason: DOCUMENT_REFUSAL_REASONS.typeNotAllowed,
		documentType,
		allowed,
		message: `This looks like ${documentTypeLabel(documentType)}, which is not accepted here; please show ${expected}.`
	};
}

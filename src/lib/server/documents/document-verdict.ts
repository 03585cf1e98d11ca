// What a document_scan try leads to, decided from the server's own reading only (pure, so the rules
// are tested without the models). The page's claim is never consulted here.
import { MIN_FIELD_CONFIDENCE } from '#lib/documents/field-confidence.ts';
import { linesNotSeen } from '#lib/documents/mrz-unseen.ts';
import type { DocumentRetryReason } from '#lib/domain/page/document-evidence.schema.ts';
import type { ReadDocumentResult } from './document-reader.service.ts';

export type DocumentJudgement =
	| { kind: 'accept' }
	| { kind: 'retry'; reason: DocumentRetryReason }
	| { kind: 'finish'; outcome: 'scanTimeout'; reason: DocumentRetryReason };

/** What the verdict looks at: the reading's outcome, type decision, problems and sides, and the MRZ's confidences. */
export type Verdictable = Pick<ReadDocumentResult, 'status' | 'decision' | 'problems' | 'sides'> & { mrz?: Pick<NonNullable<ReadDocumentResult['mrz']>, 'fieldConfidence'> | null };

export interface JudgeOptions {
	/**
	 * An earlier capture of this node read exactly the same MRZ and was refused as uncertain. Two
	 * captures agreeing is what the second look was for: the reading passes, its doubt kept in the
	 * report (`LOW_CONFIDENCE`, `fieldConfidence`) for the integrator to weigh, never hidden.
	 * Not when a check digit fails: the reading is then known to be wrong somewhere (or the document
	 * misprinted), and a misread the recogniser makes on one photo it makes on the next (OCR-B's O
	 * read as 0, a stamp's stroke read into a glyph), so the agreement shows the misread is
	 * systematic, not that it is right.
	 */
	confirmed?: boolean;
}

/** Why a reading cannot pass the node (null: it passes). */
export function refusalOf(reading: Verdictable, options: JudgeOptions = {}): DocumentRetryReason | null {
	if (reading.status === 'unreadable') {
		// Say the most useful thing: what the user can change.
		if (reading.problems.includes('BLURRY')) return 'blurry';
		if (reading.problems.includes('GLARE')) return 'glare';
		if (reading.sides.every((s) => s.quad === null) && reading.problems.includes('NO_DOCUMENT_EDGES')) return 'noDocument';
		return 'unreadable';
	}
	// A field the recogniser was unsure of (names have no check digit to catch a misread): ask for
	// another capture rather than pass a possibly wrong value. The user hears what they can change:
	// blur or glare where the picture showed it, else that a few characters were not clear (the
	// document was read: "we couldn't read it" sent a third of the users of the generated set back to
	// refit a document that was already whole in the frame).
	// A type the node does not take, its document code read surely, is said first: another capture of
	// the same card would be refused for its type whatever its other characters read.
	const typeRefused = reading.decision && !reading.decision.accepted && reading.decision.reason === 'DOCUMENT_TYPE_NOT_ALLOWED';
	if (typeRefused && (reading.mrz?.fieldConfidence?.documentCode ?? 1) >= MIN_FIELD_CONFIDENCE) return 'typeNotAllowed';
	// MRZ lines that run to the photo's edge were cut by it (or nearly): "come closer" would cut more,
	// so the user hears to fit the whole document in the frame (`unreadable`'s message).
	const cut = isCut(reading);
	// Nor does a retake confirm a cut reading: the decoder fills the glyphs the photo did not show from
	// the grammar alone, and fills them alike on every photo cut the same way.
	// Nor a reading with glyphs hidden from the recogniser (a thumb over the MRZ): a second photo held
	// the same way hides the same glyphs, and the decoder fills them alike.
	const confirmed = options.confirmed && !cut && !isHidden(reading) && !reading.problems.includes('CHECK_DIGIT_MISMATCH');
	if (reading.problems.includes('LOW_CONFIDENCE') && !confirmed) {
		return cut ? 'unreadable' : reading.problems.includes('BLURRY') ? 'blurry' : reading.problems.includes('GLARE') ? 'glare' : 'uncertain';
	}
	if (reading.decision && !reading.decision.accepted) {
		return reading.decision.reason === 'DOCUMENT_TYPE_UNKNOWN' ? (cut ? 'unreadable' : 'typeUnknown') : reading.decision.reason === 'DOCUMENT_UNREADABLE' ? 'unreadable' : 'typeNotAllowed';
	}
	return null;
}

/** Some side's MRZ runs off the photo (`DocumentSide.mrzAtEdge`): glyphs at the cut were never seen. */
function isCut(reading: Pick<Verdictable, 'sides'>): boolean {
	return reading.sides.some((s) => s.mrzAtEdge);
}

/** Some side's MRZ has a line with glyphs the recogniser saw nothing at (`DocumentSide.mrzUnseen`). */
function isHidden(reading: Pick<Verdictable, 'sides'>): boolean {
	return reading.sides.some((s) => linesNotSeen(s.mrzUnseen).length > 0);
}

/**
 * Whether a refused reading may later be confirmed by a retake that reads it the same: one in doubt
 * (`LOW_CONFIDENCE`) of an MRZ the photo showed whole. A cut photo's reading is not kept as a witness:
 * it agrees with the next only on what the decoder made up for the glyphs it never saw (seed 8383's
 * 65 cut pages, 2026-12-06: 33 would have passed on a second photo read alike, 31 of them wrong).
 * Nor one whose glyphs were hidden (a thumb over the MRZ, held the same way twice): of seed 4141's
 * 65 thumb pages (2026-12-07), 35 would have passed so, 30 of them wrong; 11 (9 wrong) now.
 */
export function mayBeConfirmed(reading: Pick<Verdictable, 'problems' | 'sides'>): boolean {
	return reading.problems.includes('LOW_CONFIDENCE') && !isCut(reading) && !isHidden(reading);
}

/** Accept, ask for another try, or end with `scanTimeout` once the tries are used up. */
export function judgeDocument(reading: Verdictable, tries: { failed: number; max: number }, options: JudgeOptions = {}): DocumentJudgement {
	const reason = refusalOf(reading, options);
	if (!reason) return { kind: 'accept' };
	if (tries.failed + 1 >= tries.max) return { kind: 'finish', outcome: 'scanTimeout', reason };
	return { kind: 'retry', reason };
}

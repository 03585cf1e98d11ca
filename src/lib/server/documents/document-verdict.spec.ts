import { describe, expect, it } from 'vitest';
import { checkAllowedDocumentType } from '#lib/documents/document-type.ts';
import { judgeDocument, mayBeConfirmed, refusalOf } from './document-verdict.ts';

const side = (edges = true) => ({ width: 1000, height: 700, quad: edges ? ([[0, 0], [1, 0], [1, 1], [0, 1]] as const) : null, deskewAngle: 0, flipped: false, documentImage: null, mrzFound: true, mrzInkOnly: false, mrzAtEdge: false, mrzUnseen: [], barcodes: 0, quality: null });
const read = (type: Parameters<typeof checkAllowedDocumentType>[0], allowed: Parameters<typeof checkAllowedDocumentType>[1], problems: string[] = []) => ({
	status: 'read' as const,
	decision: checkAllowedDocumentType(type, allowed),
	problems: problems as never[],
	sides: [side()]
});
const unreadable = (problems: string[], edges = true) => ({ status: 'unreadable' as const, decision: checkAllowedDocumentType(null, []), problems: problems as never[], sides: [side(edges)] });

describe('document verdict', () => {
	it('accepts an allowed type, whatever its expiry or check digits say (they are reported)', () => {
		expect(refusalOf(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['DOCUMENT_EXPIRED', 'CHECK_DIGIT_MISMATCH']))).toBeNull();
	});
	it('names what the user can change first', () => {
		expect(refusalOf(unreadable(['NO_MRZ', 'BLURRY', 'GLARE']))).toBe('blurry');
		expect(refusalOf(unreadable(['NO_MRZ', 'GLARE']))).toBe('glare');
		expect(refusalOf(unreadable(['NO_DOCUMENT_EDGES', 'NO_MRZ'], false))).toBe('noDocument');
		expect(refusalOf(unreadable(['NO_MRZ', 'NO_BARCODE']))).toBe('unreadable');
	});
	it('asks for another capture when a field was read with low confidence, even of an allowed type', () => {
		expect(refusalOf(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE']))).toBe('uncertain');
		expect(judgeDocument(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE']), { failed: 0, max: 3 })).toEqual({ kind: 'retry', reason: 'uncertain' });
	});
	it('says first that a type is not taken when its document code was read surely, not that a few characters were unclear', () => {
		const card = (documentCode: number) => ({ ...read('MRTD_TYPE_IDENITY_CARD', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE']), mrz: { fieldConfidence: { documentCode, lastName: 0.4 } } });
		expect(refusalOf(card(0.99))).toBe('typeNotAllowed');
		// The type itself in doubt: another capture may read it otherwise.
		expect(refusalOf(card(0.4))).toBe('uncertain');
	});
	it('asks to fit the whole document in the frame, not to come closer, when the MRZ ran to the photo edge', () => {
		const cut = (problems: string[], type: Parameters<typeof checkAllowedDocumentType>[0] = 'MRTD_TYPE_PASSPORT') => {
			const r = read(type, ['MRTD_TYPE_PASSPORT'], problems);
			return { ...r, sides: [{ ...r.sides[0], mrzAtEdge: true }] };
		};
		expect(refusalOf(cut(['LOW_CONFIDENCE']))).toBe('unreadable');
		expect(refusalOf(cut(['LOW_CONFIDENCE', 'BLURRY']))).toBe('unreadable');
		expect(refusalOf(cut([], 'MRTD_TYPE_UNKNOWN'))).toBe('unreadable');
		// What it tells nothing of: a reading that passes, a type surely refused.
		expect(refusalOf(cut([]))).toBeNull();
		expect(refusalOf({ ...cut(['LOW_CONFIDENCE'], 'MRTD_TYPE_IDENITY_CARD'), mrz: { fieldConfidence: { documentCode: 0.99, lastName: 0.4 } } })).toBe('typeNotAllowed');
	});
	it('takes no retake as confirming a reading of an MRZ cut by the photo edge, nor keeps such a reading as a witness', () => {
		const unsure = read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE']);
		const cut = { ...unsure, sides: [{ ...unsure.sides[0], mrzAtEdge: true }] };
		// The glyphs past the cut were filled in from the grammar, alike on every photo cut alike.
		expect(refusalOf(cut, { confirmed: true })).toBe('unreadable');
		expect(judgeDocument(cut, { failed: 1, max: 3 }, { confirmed: true })).toEqual({ kind: 'retry', reason: 'unreadable' });
		expect(refusalOf(unsure, { confirmed: true })).toBeNull();
		expect(mayBeConfirmed(cut)).toBe(false);
		expect(mayBeConfirmed(unsure)).toBe(true);
		expect(mayBeConfirmed(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT']))).toBe(false);
	});
	it('takes no retake as confirming a reading with glyphs hidden from the recogniser, as a thumb hides them', () => {
		const unsure = read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE']);
		const covered = (mrzUnseen: number[]) => ({ ...unsure, sides: [{ ...unsure.sides[0], mrzUnseen }] });
		// Four glyphs of the second line unseen: a second photo held alike hides them alike.
		expect(refusalOf(covered([0, 4]), { confirmed: true })).toBe('uncertain');
		expect(mayBeConfirmed(covered([0, 4]))).toBe(false);
		// Two a line: a dropped filler or two, as whole real pages show.
		expect(refusalOf(covered([2, 1]), { confirmed: true })).toBeNull();
		expect(mayBeConfirmed(covered([2, 1]))).toBe(true);
	});
	it('names blur or glare behind an uncertain reading, where the picture showed them', () => {
		expect(refusalOf(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE', 'BLURRY', 'GLARE']))).toBe('blurry');
		expect(refusalOf(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE', 'GLARE']))).toBe('glare');
	});
	it('passes an uncertain reading that an earlier capture read the same, doubt kept, but not a refused type', () => {
		const unsure = read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE']);
		expect(judgeDocument(unsure, { failed: 1, max: 3 }, { confirmed: true })).toEqual({ kind: 'accept' });
		expect(judgeDocument(unsure, { failed: 1, max: 3 }, { confirmed: false })).toEqual({ kind: 'retry', reason: 'uncertain' });
		expect(refusalOf(read('MRTD_TYPE_IDENITY_CARD', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE']), { confirmed: true })).toBe('typeNotAllowed');
	});
	it('does not take two captures agreeing on a reading whose check digits fail as confirmation', () => {
		// Synthetic set, seed 1: 11 of the 18 wrong readings passed on a retake had a failing check
		// digit; the same misread (OCR-B's O as 0) came back on the second photo.
		const failing = read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['LOW_CONFIDENCE', 'CHECK_DIGIT_MISMATCH']);
		expect(judgeDocument(failing, { failed: 1, max: 3 }, { confirmed: true })).toEqual({ kind: 'retry', reason: 'uncertain' });
		expect(judgeDocument(failing, { failed: 2, max: 3 }, { confirmed: true })).toEqual({ kind: 'finish', outcome: 'scanTimeout', reason: 'uncertain' });
		// A failing check the recogniser is sure of is a misprint to report, not a doubt to retake.
		expect(refusalOf(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT'], ['CHECK_DIGIT_MISMATCH']))).toBeNull();
	});
	it('refuses other types and unclassified documents', () => {
		expect(refusalOf(read('MRTD_TYPE_IDENITY_CARD', ['MRTD_TYPE_PASSPORT']))).toBe('typeNotAllowed');
		expect(refusalOf(read('MRTD_TYPE_UNKNOWN', ['MRTD_TYPE_PASSPORT']))).toBe('typeUnknown');
		expect(refusalOf(read('MRTD_TYPE_UNKNOWN', ['MRTD_TYPE_UNKNOWN']))).toBeNull();
	});
	it('asks again until the tries are used up, then ends with scanTimeout', () => {
		const card = read('MRTD_TYPE_IDENITY_CARD', ['MRTD_TYPE_PASSPORT']);
		expect(judgeDocument(card, { failed: 0, max: 3 })).toEqual({ kind: 'retry', reason: 'typeNotAllowed' });
		expect(judgeDocument(card, { failed: 1, max: 3 })).toEqual({ kind: 'retry', reason: 'typeNotAllowed' });
		expect(judgeDocument(card, { failed: 2, max: 3 })).toEqual({ kind: 'finish', outcome: 'scanTimeout', reason: 'typeNotAllowed' });
		expect(judgeDocument(read('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT']), { failed: 2, max: 3 })).toEqual({ kind: 'accept' });
	});
});

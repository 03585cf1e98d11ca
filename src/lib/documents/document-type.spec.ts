import { describe, expect, it } from 'vitest';
import { checkAllowedDocumentType, classifyMrz, mrtdTypeSchema } from './document-type.ts';

describe('classifyMrz', () => {
	it('classifies from document code and layout', () => {
		expect(classifyMrz('P', 'TD3')).toBe('MRTD_TYPE_PASSPORT');
		expect(classifyMrz('PA', 'TD3')).toBe('MRTD_TYPE_PASSPORT');
		expect(classifyMrz('ID', 'TD1')).toBe('MRTD_TYPE_IDENITY_CARD');
		expect(classifyMrz('I', 'TD2')).toBe('MRTD_TYPE_IDENITY_CARD');
		expect(classifyMrz('VI', 'MRV-A')).toBe('MRTD_TYPE_VISA');
		expect(classifyMrz('C1', 'TD1', 'USA')).toBe('MRTD_TYPE_GREEN_CARD');
		expect(classifyMrz('C1', 'TD1', 'CAN')).toBe('MRTD_TYPE_IDENITY_CARD');
		expect(classifyMrz('D1', 'SWISS_DRIVING_LICENSE')).toBe('MRTD_TYPE_DL');
		expect(classifyMrz('X', 'TD3')).toBe('MRTD_TYPE_UNKNOWN');
	});
});

describe('checkAllowedDocumentType', () => {
	it('accepts an allowed type and any type for an empty list', () => {
		expect(checkAllowedDocumentType('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_PASSPORT', 'MRTD_TYPE_DL'])).toEqual({ accepted: true, documentType: 'MRTD_TYPE_PASSPORT' });
		expect(checkAllowedDocumentType('MRTD_TYPE_VISA', []).accepted).toBe(true);
	});

	it('refuses a passport on a driving-licence-only node with a reason and a message', () => {
		const d = checkAllowedDocumentType('MRTD_TYPE_PASSPORT', ['MRTD_TYPE_DL']);
		expect(d.accepted).toBe(false);
		if (d.accepted) return;
		expect(d.reason).toBe('DOCUMENT_TYPE_NOT_ALLOWED');
		expect(d.message).toContain('passport');
		expect(d.message).toContain("driver's licence");
	});

	it('distinguishes unknown types and unreadable documents', () => {
		const unknown = checkAllowedDocumentType('MRTD_TYPE_UNKNOWN', ['MRTD_TYPE_PASSPORT']);
		expect(unknown.accepted ? null : unknown.reason).toBe('DOCUMENT_TYPE_UNKNOWN');
		expect(checkAllowedDocumentType('MRTD_TYPE_UNKNOWN', ['MRTD_TYPE_UNKNOWN']).accepted).toBe(true);
		const none = checkAllowedDocumentType(null, []);
		expect(none.accepted ? null : none.reason).toBe('DOCUMENT_UNREADABLE');
	});

	it('validates the spec spelling of the enum', () => {
		expect(mrtdTypeSchema.safeParse('MRTD_TYPE_IDENITY_CARD').success).toBe(true);
		expect(mrtdTypeSchema.safeParse('MRTD_TYPE_IDENTITY_CARD').success).toBe(false);
	});
});

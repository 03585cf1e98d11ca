import { describe, expect, it } from 'vitest';
import { FIXED_OUTCOME_KEYS } from '../flow/node-types.ts';
import { isVerified, livenessDetected, VERIFICATION_OUTCOMES } from './report-rules.ts';

const r = (type: string, outcome: string, details?: Record<string, unknown>) => ({ type, outcome, details });

describe('VERIFICATION_OUTCOMES', () => {
	it('classifies every outcome key of each verification node type exactly once', () => {
		for (const [type, rule] of Object.entries(VERIFICATION_OUTCOMES)) {
			const listed = [...rule.pass, ...rule.fail, ...rule.neutral];
			expect(new Set(listed).size, type).toBe(listed.length);
			expect([...listed].sort(), type).toEqual([...FIXED_OUTCOME_KEYS[type as keyof typeof FIXED_OUTCOME_KEYS]].sort());
		}
	});
});

describe('isVerified', () => {
	it('is absent while the session runs and false when it ended incomplete', () => {
		expect(isVerified('created', [])).toBeUndefined();
		expect(isVerified('inProgress', [r('liveness_detection', 'livenessDetected')])).toBeUndefined();
		expect(isVerified('incomplete', [r('liveness_detection', 'livenessDetected')])).toBe(false);
	});

	it('needs one passed verification node and no failed one', () => {
		expect(isVerified('complete', [r('conversation', 'ready'), r('enter_email', 'emailEntered')])).toBe(false);
		expect(isVerified('complete', [r('liveness_detection', 'livenessDetected'), r('two_factor_email', 'verified')])).toBe(true);
		expect(isVerified('complete', [r('two_factor_email', 'failed_unverified'), r('liveness_detection', 'livenessDetected')])).toBe(false);
		expect(isVerified('complete', [r('document_scan', 'scanSuccess'), r('face_compare', 'noMatch')])).toBe(false);
		expect(isVerified('complete', [r('face_scan', 'cancelled')])).toBe(false);
	});

	it('treats recognition newUser as neither pass nor fail', () => {
		expect(isVerified('complete', [r('recognition', 'newUser')])).toBe(false);
		expect(isVerified('complete', [r('recognition', 'newUser'), r('face_scan', 'passed')])).toBe(true);
		expect(isVerified('complete', [r('recognition', 'recognized')])).toBe(true);
		expect(isVerified('complete', [r('recognition', 'noFace'), r('face_scan', 'passed')])).toBe(false);
	});
});

describe('livenessDetected', () => {
	it('is absent when no liveness verdict exists', () => {
		expect(livenessDetected([])).toBeUndefined();
		expect(livenessDetected([r('face_scan', 'passed'), r('two_factor', 'verified')])).toBeUndefined();
	});

	it('follows liveness_detection outcomes and server verdicts in details', () => {
		expect(livenessDetected([r('liveness_detection', 'livenessDetected')])).toBe(true);
		expect(livenessDetected([r('liveness_detection', 'noFace')])).toBe(false);
		expect(livenessDetected([r('liveness_detection', 'noFace'), r('liveness_detection', 'livenessDetected')])).toBe(true);
		expect(livenessDetected([r('liveness_detection', 'deepfakeDetected'), r('liveness_detection', 'livenessDetected')])).toBe(false);
		expect(livenessDetected([r('face_scan', 'passed', { livenessDetected: true })])).toBe(true);
		expect(livenessDetected([r('face_scan', 'notPassed', { livenessDetected: false }), r('liveness_detection', 'livenessDetected')])).toBe(false);
		expect(livenessDetected([r('face_scan', 'passed', { livenessDetected: 'yes' })])).toBeUndefined();
	});
});

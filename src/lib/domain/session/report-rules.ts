import { FIXED_OUTCOME_KEYS, type NodeType } from '../flow/node-types.ts';
import type { SessionStatus } from './session-status.ts';

/*
 * The report's two verdicts, as pure rules over the node reports of the walked path (the server's
 * own outcomes: the page never picks an outcome of a camera node, the server decides from evidence).
 */

type Verdicts<T extends keyof typeof FIXED_OUTCOME_KEYS> = {
	pass: readonly (typeof FIXED_OUTCOME_KEYS)[T][number][];
	fail: readonly (typeof FIXED_OUTCOME_KEYS)[T][number][];
	neutral: readonly (typeof FIXED_OUTCOME_KEYS)[T][number][];
};

const TWO_FACTOR = { pass: ['verified'], fail: ['delivery_failed', 'failed_unverified', 'cancelled', 'error'], neutral: [] } as const;

/**
 * Verification node types and what each outcome means for `isVerified`. Every outcome key of each
 * type is listed exactly once (a test checks it). `recognition: newUser` is neutral: not being found
 * among enrolled users is not a failed verification.
 */
export const VERIFICATION_OUTCOMES = {
	liveness_detection: { pass: ['livenessDetected'], fail: ['deepfakeDetected', 'noFace'], neutral: [] },
	face_scan: { pass: ['passed'], fail: ['notPassed', 'cancelled', 'error'], neutral: [] },
	face_compare: { pass: ['match'], fail: ['noMatch', 'imageUnavailable'], neutral: [] },
	recognition: { pass: ['recognized'], fail: ['noFace'], neutral: ['newUser'] },
	document_scan: { pass: ['scanSuccess'], fail: ['userCancelled', 'scanTimeout'], neutral: [] },
	two_factor: TWO_FACTOR,
	two_factor_email: TWO_FACTOR,
	two_factor_sms: TWO_FACTOR
} as const satisfies { [T in keyof typeof FIXED_OUTCOME_KEYS]?: Verdicts<T> };

export interface NodeOutcome {
	type: NodeType | string;
	outcome: string;
	details?: Record<string, unknown> | null;
}

/**
 * `isVerified`: only for a finished session. true when the session is `complete`, at least one
 * verification node passed, and no verification node on the walked path ended with a failing
 * outcome. Flows with no verification node are never "verified".
 */
export function isVerified(status: SessionStatus, reports: readonly NodeOutcome[]): boolean | undefined {
	if (status !== 'complete' && status !== 'incomplete') return undefined;
	if (status === 'incomplete') return false;
	let passed = false;
	for (const r of reports) {
		const rule = (VERIFICATION_OUTCOMES as Record<string, { pass: readonly string[]; fail: readonly string[] }>)[r.type];
		if (!rule) continue;
		if (rule.fail.includes(r.outcome)) return false;
		if (rule.pass.includes(r.outcome)) passed = true;
	}
	return passed;
}

/**
 * `livenessDetected`: absent when no liveness verdict exists. A verdict is a liveness_detection
 * node's outcome, or a boolean `details.livenessDetected` the server recorded on another node (a
 * face_scan with requireLiveness). true when at least one verdict is positive and none says
 * "spoof" (deepfakeDetected, or `details.livenessDetected === false`); `noFace` alone is no spoof,
 * but no liveness either.
 */
export function livenessDetected(reports: readonly NodeOutcome[]): boolean | undefined {
	let positive = 0;
	let spoof = 0;
	let seen = 0;
	for (const r of reports) {
		if (r.type === 'liveness_detection') {
			seen++;
			if (r.outcome === 'livenessDetected') positive++;
			else if (r.outcome === 'deepfakeDetected') spoof++;
		} else if (typeof r.details?.livenessDetected === 'boolean') {
			seen++;
			if (r.details.livenessDetected) positive++;
			else spoof++;
		}
	}
	if (!seen) return undefined;
	return positive > 0 && spoof === 0;
}

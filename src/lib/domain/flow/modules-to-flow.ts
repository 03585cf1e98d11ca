import type { Module } from '../session/settings.schema.ts';
import { DOCUMENT_TYPES } from './node-types.ts';

type RawNode = Record<string, unknown> & { id: string; type: string };

/** Keys of `saveToField` / session data the converted flows use, so later nodes can find them. */
export const LEGACY_FIELDS = {
	selfie: 'selfie',
	documentPortrait: 'documentPortrait'
} as const;

/**
 * Where a face_scan puts the server's age estimate in session data (`face.estimatedAgeMin` /
 * `face.estimatedAgeMax`, the report's ageMin/ageMax), for the legacy ageEstimation check to read.
 */
export const ESTIMATED_AGE_KEY = 'face';
export const ESTIMATED_AGE_MIN_FIELD = `${ESTIMATED_AGE_KEY}.estimatedAgeMin`;

/**
 * Whether a data_validation node of the flow reads the estimated age: only then does a face_scan
 * estimate it during the session (one model run, ≈35 ms; the report estimates after the session).
 */
export function flowReadsEstimatedAge(flow: readonly { type: string; validation?: { field?: string } }[]): boolean {
	return flow.some((n) => n.type === 'data_validation' && (n.validation?.field ?? '').startsWith(`${ESTIMATED_AGE_KEY}.estimatedAge`));
}

const CAMERA_MODULES = new Set<Module['type']>(['identityVerification', 'documentAuthentication', 'ageEstimation']);

/**
 * Converts the deprecated `modules` list into an equivalent flow: a linear chain, in the order the
 * modules were given, from START to one END. Success outcomes lead to the next module; a user's
 * cancel or a refused permission ends the session early (a failure of a check does not: the node
 * reports carry it and `isVerified` is false). The session keeps the modules as sent; this flow is
 * what the runner walks.
 */
export function modulesToFlow(modules: readonly Module[]): RawNode[] {
	const END = 'end';
	const segments: RawNode[][] = [];
	const needsCamera = modules.some(
		(m) => CAMERA_MODULES.has(m.type) || (m.type === 'emailVerification' && m.publicRecognitionEnabled)
	);
	// Each segment's nodes point at NEXT; the chain is wired once the order is known.
	const NEXT = '\u0000next';

	if (needsCamera) {
		segments.push([{ id: 'permissions', type: 'permissions', outcomes: { permissionsGranted: NEXT, permissionsDenied: END } }]);
	}

	modules.forEach((module, index) => {
		const p = `m${index + 1}_`;
		switch (module.type) {
			case 'emailVerification': {
				const seg: RawNode[] = [];
				if (module.publicRecognitionEnabled) {
					seg.push({ id: `${p}recognition`, type: 'recognition', outcomes: { recognized: NEXT, newUser: NEXT, noFace: NEXT } });
				}
				if (!module.email) {
					seg.push({ id: `${p}email`, type: 'enter_email', outcomes: { emailEntered: NEXT, canceled: END } });
				}
				seg.push({
					id: `${p}otp_email`,
					type: 'two_factor_email',
					contactSource: module.email ? 'module_settings' : 'session_data',
					...(module.email ? { staticEmail: module.email } : {}),
					outcomes: twoFactorOutcomes(NEXT, END)
				});
				segments.push(seg);
				break;
			}
			case 'smsVerification':
				segments.push([
					{
						id: `${p}otp_sms`,
						type: 'two_factor_sms',
						contactSource: module.phone ? 'module_settings' : 'session_data',
						...(module.phone ? { staticPhone: module.phone } : {}),
						outcomes: twoFactorOutcomes(NEXT, END)
					}
				]);
				break;
			case 'identityVerification':
				segments.push([
					{ id: `${p}liveness`, type: 'liveness_detection', outcomes: { livenessDetected: NEXT, deepfakeDetected: NEXT, noFace: NEXT } },
					{
						id: `${p}selfie`,
						type: 'face_scan',
						mode: 'capture',
						saveToField: LEGACY_FIELDS.selfie,
						requireLiveness: true,
						outcomes: { passed: NEXT, notPassed: NEXT, cancelled: END, error: NEXT }
					}
				]);
				break;
			case 'documentAuthentication':
				segments.push([
					{
						id: `${p}document`,
						type: 'document_scan',
						scanningMode: 'SINGLE_SIDE',
						allowedDocumentTypes: DOCUMENT_TYPES.filter((t) => t !== 'MRTD_TYPE_UNKNOWN'),
						outcomes: { scanSuccess: NEXT, userCancelled: END, scanTimeout: NEXT }
					},
					{
						id: `${p}face_compare`,
						type: 'face_compare',
						referenceImageSource: 'session',
						referenceImageKey: LEGACY_FIELDS.documentPortrait,
						outcomes: { match: NEXT, noMatch: NEXT, imageUnavailable: NEXT }
					}
				]);
				break;
			case 'ageEstimation':
				segments.push([
					{
						id: `${p}age_selfie`,
						type: 'face_scan',
						mode: 'capture',
						requireLiveness: true,
						outcomes: { passed: NEXT, notPassed: NEXT, cancelled: END, error: NEXT }
					},
					{
						id: `${p}age_check`,
						type: 'data_validation',
						// The face_scan stores the lower end of the server's age range here (a whole number), so
						// 'greater than age − 1' is ageMin ≥ age: conservative, as the range holds for most people.
						validation: { field: ESTIMATED_AGE_MIN_FIELD, action: 'greaterThan', value: String(module.age - 1) },
						outcomes: [
							{ id: 'oldEnough', condition: 'The validation passed', targetNodeId: NEXT },
							{ id: 'tooYoung', condition: 'otherwise', targetNodeId: NEXT }
						]
					}
				]);
				break;
			case 'proofOfIntent':
				segments.push(
					module.requestedData.map((item, i) => ({
						id: `${p}intent_${i + 1}`,
						type: 'conversation',
						prompt:
							`Ask the user for their ${item.description || item.key} and confirm it with them.` +
							(item.isRequired ? '' : ' It is optional: they may decline.'),
						outcomes: [
							{ id: 'provided', condition: `The user provided their ${item.key}`, targetNodeId: NEXT },
							{ id: 'declined', condition: 'The user declines', targetNodeId: item.isRequired ? END : NEXT }
						]
					}))
				);
				break;
			case 'knowledgeVerify':
				segments.push([
					{
						id: `${p}knowledge`,
						type: 'conversation',
						prompt: 'Ask the user to confirm the personal details the service already holds about them, one at a time.',
						outcomes: [
							{ id: 'confirmed', condition: 'The user agrees', targetNodeId: NEXT },
							{ id: 'notConfirmed', condition: 'The user declines', targetNodeId: NEXT }
						]
					}
				]);
				break;
		}
	});

	// Wire each segment's NEXT to the first node of the following segment (or END).
	const flat: RawNode[] = [];
	segments.forEach((seg, si) => {
		seg.forEach((node, ni) => {
			const next = ni + 1 < seg.length ? seg[ni + 1].id : si + 1 < segments.length ? segments[si + 1][0].id : END;
			flat.push(replaceTarget(node, NEXT, next));
		});
	});
	const first = flat[0]?.id ?? END;
	return [{ id: 'start', type: 'start', outcome: first }, ...flat, { id: END, type: 'end' }];
}

function twoFactorOutcomes(next: string, end: string) {
	return { verified: next, delivery_failed: next, failed_unverified: next, cancelled: end, error: next };
}

function replaceTarget(node: RawNode, from: string, to: string): RawNode {
	const out: RawNode = { ...node };
	if (Array.isArray(node.outcomes)) {
		out.outcomes = (node.outcomes as Record<string, unknown>[]).map((o) => (o.targetNodeId === from ? { ...o, targetNodeId: to } : o));
	} else if (node.outcomes && typeof node.outcomes === 'object') {
		out.outcomes = Object.fromEntries(Object.entries(node.outcomes).map(([k, v]) => [k, v === from ? to : v]));
	}
	return out;
}

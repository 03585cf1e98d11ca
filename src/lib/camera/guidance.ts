// What the user is told while a face node runs: one i18n key at a time (under `face.`), chosen from
// the quality gate's reasons, the phase and the challenge. Pure, so the wording logic is testable.
import type { FaceFailureReason, FaceRetryHint } from '#lib/domain/page/face-evidence.schema.ts';
import type { Challenge } from '#lib/domain/face/challenge.ts';
import type { QualityReason } from '#lib/face/quality-gate.ts';

const REASON_KEYS: Record<QualityReason, string> = {
	noFace: 'guidance.noFace',
	multipleFaces: 'guidance.multipleFaces',
	tooSmall: 'guidance.moveCloser',
	tooLarge: 'guidance.moveBack',
	offCentre: 'guidance.centre',
	notFrontal: 'guidance.lookStraight',
	blurry: 'guidance.holdStill',
	tooDark: 'guidance.moreLight',
	tooBright: 'guidance.tooBright'
};

/**
 * The key for the most actionable failed check (the gate lists them most actionable first). A face
 * too dark against bright surroundings (`lightBehind`) is told to turn towards the light, not to find
 * a brighter place.
 */
export function guidanceFor(reasons: readonly QualityReason[], lightBehind = false): string {
	if (!reasons.length) return 'guidance.good';
	return reasons[0] === 'tooDark' && lightBehind ? 'guidance.lightBehind' : REASON_KEYS[reasons[0]];
}

export const challengeKey = (c: Challenge) => `guidance.${c}`;

/** Plain words for why a try failed (`face.failure.*`). */
export const failureKey = (reason: FaceFailureReason | FaceRetryHint) => `failure.${reason}`;

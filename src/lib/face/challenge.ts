// Active liveness: the server picks a challenge at random when a node opens (turn the head left or
// right, or blink) and checks it on the uploaded frames; the browser runs the same check to know when
// the user has done it. Both judge a sequence of per-frame measurements from 68 landmarks.
import type { Challenge } from '#lib/domain/face/challenge.ts';
import {
	BLINK_CLOSED_RATIO,
	BLINK_REOPEN_RATIO,
	CHALLENGE_FRONTAL_YAW,
	CHALLENGE_MIN_SAMPLES,
	CHALLENGE_ONSET_SHARE,
	CHALLENGE_TURN_DELTA
} from './face-thresholds.ts';

/** One frame's measurements: time (ms), head yaw (degrees, + = towards the image's right), mean eye aspect ratio. */
export interface ChallengeSample {
	t: number;
	yaw: number;
	ear: number;
}

/** `notContinuous`: the turn reached its peak, but not as one continuous motion (turn-continuity.ts; set by the server). */
export type ChallengeFailure = 'tooFewFrames' | 'noFrontalStart' | 'notTurned' | 'wrongDirection' | 'noBlink' | 'eyesNotReopened' | 'notContinuous';

export interface ChallengeResult {
	passed: boolean;
	reason?: ChallengeFailure;
	/** Frontal yaw or open-eye ratio the movement was measured from. */
	baseline: number;
	/** Largest movement seen: yaw change in degrees (signed: + = the asked direction), or the eye ratio's lowest share of open. */
	peak: number;
	/** Index (in time order) of the frame that shows the movement best, or -1. */
	peakIndex: number;
	/**
	 * Index of the first frame of the climb to the peak that shows the movement under way (a turn past
	 * CHALLENGE_ONSET_SHARE of the asked yaw; a blink's closed frame, being short), or -1.
	 */
	onsetIndex: number;
	/** 0–1, for the UI's progress ring. */
	progress: number;
}

/**
 * The user's left is the image's right: the camera faces the user and uploaded frames are not
 * mirrored (only the preview is), so "turn left" means yaw increasing.
 */
export const TURN_SIGN: Record<'turnLeft' | 'turnRight', 1 | -1> = { turnLeft: 1, turnRight: -1 };

const median = (values: number[]) => {
	const s = [...values].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Judges a challenge on frames in any order (they are sorted by time here). */
export function verifyChallenge(challenge: Challenge, input: readonly ChallengeSample[]): ChallengeResult {
	const samples = [...input].filter((s) => Number.isFinite(s.yaw) && Number.isFinite(s.ear)).sort((a, b) => a.t - b.t);
	const none: ChallengeResult = { passed: false, reason: 'tooFewFrames', baseline: 0, peak: 0, peakIndex: -1, onsetIndex: -1, progress: 0 };
	if (samples.length < CHALLENGE_MIN_SAMPLES) return none;
	return challenge === 'blink' ? verifyBlink(samples) : verifyTurn(TURN_SIGN[challenge], samples);
}

function verifyTurn(sign: 1 | -1, samples: ChallengeSample[]): ChallengeResult {
	// The movement counts from any frontal frame before it: the user may look away and back first
	// (or a looping camera may start mid-turn), but the head must end up turned the asked way.
	if (!samples.some((s) => Math.abs(s.yaw) <= CHALLENGE_FRONTAL_YAW)) {
		return { passed: false, reason: 'noFrontalStart', baseline: 0, peak: 0, peakIndex: -1, onsetIndex: -1, progress: 0 };
	}
	let lowest = Infinity; // the frontal frame the asked movement best starts from (sign-adjusted)
	let highest = -Infinity; // …and the one a movement the other way starts from
	let peak = 0;
	let peakIndex = -1;
	let baseline = NaN;
	let against = 0;
	for (let i = 0; i < samples.length; i++) {
		const v = sign * samples[i].yaw;
		if (Number.isFinite(lowest) && v - lowest > peak) {
			peak = v - lowest;
			peakIndex = i;
			baseline = sign * lowest;
		}
		if (Number.isFinite(highest)) against = Math.max(against, highest - v);
		if (Math.abs(samples[i].yaw) <= CHALLENGE_FRONTAL_YAW) {
			lowest = Math.min(lowest, v);
			highest = Math.max(highest, v);
		}
	}
	if (Number.isNaN(baseline)) baseline = samples.find((s) => Math.abs(s.yaw) <= CHALLENGE_FRONTAL_YAW)!.yaw;
	const progress = Math.max(0, Math.min(1, peak / CHALLENGE_TURN_DELTA));
	// Back from the peak to the last frame still short of the onset: the climb crossed it just after.
	let onsetIndex = peakIndex;
	while (onsetIndex > 0 && sign * (samples[onsetIndex - 1].yaw - baseline) >= CHALLENGE_ONSET_SHARE * CHALLENGE_TURN_DELTA) onsetIndex--;
	if (peak >= CHALLENGE_TURN_DELTA) return { passed: true, baseline, peak, peakIndex, onsetIndex, progress: 1 };
	return { passed: false, reason: against >= CHALLENGE_TURN_DELTA ? 'wrongDirection' : 'notTurned', baseline, peak, peakIndex, onsetIndex, progress };
}

function verifyBlink(samples: ChallengeSample[]): ChallengeResult {
	// Open-eye level: the upper part of the ratios seen (a blink is short, most frames are open).
	const sorted = samples.map((s) => s.ear).sort((a, b) => a - b);
	const open = sorted[Math.floor(0.75 * (sorted.length - 1))];
	if (!(open > 0)) return { passed: false, reason: 'noBlink', baseline: 0, peak: 1, peakIndex: -1, onsetIndex: -1, progress: 0 };
	let lowest = Infinity;
	let lowestAt = -1;
	for (let i = 1; i < samples.length; i++) {
		// A closed frame counts only with an open frame before it (eyes were open, then shut).
		const share = samples[i].ear / open;
		if (share < lowest && samples.slice(0, i).some((s) => s.ear / open >= BLINK_REOPEN_RATIO)) {
			lowest = share;
			lowestAt = i;
		}
	}
	if (lowestAt < 0 || lowest > BLINK_CLOSED_RATIO) {
		const progress = lowestAt < 0 ? 0 : Math.max(0, Math.min(0.9, (1 - lowest) / (1 - BLINK_CLOSED_RATIO)));
		return { passed: false, reason: 'noBlink', baseline: open, peak: Number.isFinite(lowest) ? lowest : 1, peakIndex: lowestAt, onsetIndex: lowestAt, progress };
	}
	const reopened = samples.slice(lowestAt + 1).some((s) => s.ear / open >= BLINK_REOPEN_RATIO);
	if (!reopened) return { passed: false, reason: 'eyesNotReopened', baseline: open, peak: lowest, peakIndex: lowestAt, onsetIndex: lowestAt, progress: 0.9 };
	return { passed: true, baseline: open, peak: lowest, peakIndex: lowestAt, onsetIndex: lowestAt, progress: 1 };
}

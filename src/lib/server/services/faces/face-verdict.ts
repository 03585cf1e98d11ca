// How a face node decides, from the server's analysis of the evidence alone. Pure: the handlers feed
// it what the server measured and apply what it returns (finish with an outcome, or let the user try
// again), so every rule here is unit-tested without models or a database.
import { RETRYABLE_FAILURES, type FaceClaim, type FaceFailureReason, type FaceRetryHint } from '#lib/domain/page/face-evidence.schema.ts';
import type { Challenge } from '#lib/domain/face/challenge.ts';
import { TURN_SIGN, verifyChallenge, type ChallengeResult } from '#lib/face/challenge.ts';
import type { LightSequence } from '#lib/domain/face/light-challenge.ts';
import { verifyLightResponse, type LightResult } from '#lib/face/light-response.ts';
import { verifyTurnContinuity, type ContinuityResult } from '#lib/face/turn-continuity.ts';
import { isVirtualCameraLabel } from '#lib/face/injection.ts';
import type { HiddenFeature } from '#lib/face/occlusion.ts';
import type { EvidenceAnalysis } from './evidence-analysis.ts';
import { subjectFrames } from './subject-frames.ts';

export type { FaceNodeType } from '#lib/domain/flow/node-types.ts';
import type { FaceNodeType } from '#lib/domain/flow/node-types.ts';

/** A reference face resolved by the server (face_scan compare, face_compare). */
export type ReferenceResult =
	| {
			ok: true;
			source: 'session' | 'providedData' | 'url';
			kind: 'template' | 'image';
			similarity: number | null;
			/**
			 * The reference photo's face is brighter than a capture may be (MAX_LUMINANCE): highlights
			 * blown out. It can still match, but a low similarity says more about the photo than the person.
			 */
			washedOut?: boolean;
			/**
			 * The reference photo's face is blurred past MIN_REFERENCE_SHARPNESS. It can still match, but a
			 * low similarity says more about the photo than the person.
			 */
			blurred?: boolean;
			/**
			 * The reference photo's edge cuts the face (at or below the eyes, through the mouth): the
			 * landmarks of what is missing were guessed (face-edges.ts). It can still match; a low
			 * similarity is no evidence of another person.
			 */
			cutByEdge?: boolean;
			/**
			 * Text is printed across the reference photo's face (a stock photo's watermark, a `COPY`
			 * stamp: overprint.ts), which the embedding reads as part of the face. It can still match; a
			 * low similarity is no evidence of another person.
			 */
			overprinted?: boolean;
			/**
			 * Features the reference photo hides (dark glasses over the eyes, a mask over mouth and chin:
			 * occlusion.ts). It can still match; a low similarity is no evidence of another person.
			 */
			hidden?: HiddenFeature[];
	  }
	| { ok: false; source: 'session' | 'providedData' | 'url' | 'none'; error: string };

/** The server doubts the reference face: a non-match with it is no evidence of another person. */
export function referenceDoubted(reference: Extract<ReferenceResult, { ok: true }>): boolean {
	return !!(reference.washedOut || reference.blurred || reference.cutByEdge || reference.overprinted || reference.hidden?.length);
}

export interface RecognitionResult {
	match: { templateId: string; sessionId: string; clientReferenceId: string; score: number } | null;
}

export interface JudgeInput {
	type: FaceNodeType;
	mode?: 'capture' | 'compare';
	/** Passive liveness and the challenge must pass. */
	requireLiveness: boolean;
	/** The challenge the server issued for this try (null: passive only). */
	challenge: Challenge | null;
	/** Quality must pass (face_scan). */
	requireQuality: boolean;
	analysis: Pick<EvidenceAnalysis, 'frames' | 'bestIndex' | 'framesWithFace' | 'framesWithSeveralFaces' | 'liveness' | 'identity' | 'motion' | 'timing' | 'alignedCrop'>;
	reference?: ReferenceResult;
	recognition?: RecognitionResult;
	/** Cosine similarity at or above which faces match. */
	threshold: number;
	/** Injection signals decide (live sessions); in sandbox sessions they are only recorded. */
	enforceInjection: boolean;
	/** How many of the upload's frames another session of the account was sent before (0 when not looked up). */
	replayedFrames?: number;
	/** The light challenge of this try (absent: none issued); `enforce`: a failure fails the try. */
	light?: { sequence: LightSequence; startedAt: number | null; changedAt?: readonly number[] | null; enforce: boolean } | null;
	/** A turn must be one continuous motion to pass (live sessions; sandbox flows that opt in). */
	enforceContinuity?: boolean;
	claim: FaceClaim;
	/** Failed tries before this one, and how many retries the node allows. */
	failedTries: number;
	maxRetries: number;
}

export interface InjectionFindings {
	enforced: boolean;
	virtualCamera: boolean;
	cameraLabel?: string;
	frozen: boolean;
	looped: boolean;
	/** One frame is another's mirror image (a photo and its mirror posted as a head turn). */
	mirrored: boolean;
	nonMonotonic: boolean;
	/** Frames of this upload that the account's other sessions were sent before, byte for byte (a replay). */
	replayedFrames: number;
	/** The signals that fired. */
	signals: string[];
}

export interface Judgement {
	/** Set when the node ends with this try. */
	finish?: { outcome: string; reason?: FaceFailureReason };
	/** Set when the user may try again. */
	retry?: { reason: FaceFailureReason; hint?: FaceRetryHint };
	/** Server's similarity with the reference or the recognition match (null when none was computed). */
	similarity: number | null;
	challenge: (ChallengeResult & { type: Challenge; continuity?: ContinuityResult }) | null;
	/** The light challenge's verdict (null: none issued); `enforced`: whether it decided. */
	light: (LightResult & { enforced: boolean }) | null;
	injection: InjectionFindings;
	/** Where the page's claim differs from the server's findings. */
	disagreements: string[];
}

/** The outcome each node type ends with when it fails for `reason`. */
export function failureOutcome(type: FaceNodeType, reason: FaceFailureReason): string {
	switch (type) {
		case 'liveness_detection':
			return reason === 'noFace' || reason === 'multipleFaces' || reason === 'timeout' ? 'noFace' : reason === 'noConsent' || reason === 'error' ? 'noFace' : 'deepfakeDetected';
		case 'face_scan':
			return reason === 'referenceUnavailable' || reason === 'noConsent' || reason === 'error' ? 'error' : 'notPassed';
		case 'face_compare':
			return reason === 'noMatch' || reason === 'injection' || reason === 'identityChanged' || reason === 'notLive' || reason === 'challengeFailed' ? 'noMatch' : 'imageUnavailable';
		case 'recognition':
			// A face that fails passive liveness is neither recognised nor enrolled: it counts as new.
			return reason === 'notLive' ? 'newUser' : 'noFace';
	}
}

const SUCCESS: Record<FaceNodeType, string> = { liveness_detection: 'livenessDetected', face_scan: 'passed', face_compare: 'match', recognition: 'recognized' };

export function injectionFindings(input: Pick<JudgeInput, 'analysis' | 'claim' | 'enforceInjection' | 'replayedFrames'>): InjectionFindings {
	const { analysis, claim } = input;
	const label = claim.camera?.label;
	const virtualCamera = claim.camera?.virtual === true || isVirtualCameraLabel(label);
	// The server's own findings only: the page keeps thumbnails, on which a person sitting still (or
	// back in the same pose) repeats too; the server confirms a repeat on the full pictures it was
	// sent. A still needs several frames to tell from a camera.
	const frozen = analysis.frames.length >= 3 && analysis.motion.frozen;
	const looped = analysis.motion.looped;
	const nonMonotonic = analysis.timing.nonMonotonic || claim.timing?.nonMonotonic === true;
	// Measured on the server only: the page's claim has no say in it.
	const mirrored = analysis.motion.mirrored === true;
	// A camera never gives the same file twice: frames another session was sent are a replay.
	const replayedFrames = input.replayedFrames ?? 0;
	const signals = [
		virtualCamera && 'virtualCamera',
		frozen && 'frozenFrames',
		looped && 'loopedFrames',
		mirrored && 'mirroredFrames',
		nonMonotonic && 'frameTiming',
		replayedFrames > 0 && 'replayedFrames'
	].filter((s): s is string => !!s);
	return { enforced: input.enforceInjection, virtualCamera, ...(label ? { cameraLabel: label.slice(0, 120) } : {}), frozen, looped, mirrored, nonMonotonic, replayedFrames, signals };
}

/** Judges one try of a face node. */
export function judgeFaceEvidence(input: JudgeInput): Judgement {
	const { analysis, type } = input;
	const injection = injectionFindings(input);
	const best = analysis.bestIndex >= 0 ? analysis.frames[analysis.bestIndex] : undefined;
	const subject = subjectFrames(analysis.frames);
	const samples = subject.map((f) => ({ t: f.t, yaw: f.face!.quality.yaw, ear: f.face!.quality.eyeAspectRatio, box: f.face!.box }));
	const challenge = input.challenge && input.requireLiveness ? judgeChallenge(input, input.challenge, samples) : null;
	// The movement must be under way while the colours show; it may finish after them (a slow turn).
	const light = input.light && input.requireLiveness ? judgeLight(input, input.light, challenge ? (samples[challenge.onsetIndex]?.t ?? null) : null, new Set(subject)) : null;
	let similarity: number | null = null;
	if (input.reference?.ok) similarity = input.reference.similarity;
	if (input.recognition?.match) similarity = input.recognition.match.score;

	const reason = ((): FaceFailureReason | null => {
		// A mirrored pair fails the challenge below (retryable) rather than ending the node: the one
		// scene it could misjudge is a real person turning both ways in front of a plain wall.
		if (injection.enforced && injection.signals.some((s) => s !== 'mirroredFrames')) return 'injection';
		if (analysis.framesWithFace === 0) return 'noFace';
		// A face is there in most frames; a detection that does not persist across them is the
		// detector firing on a texture (Chromium's test pattern scored 0.80 in one of three frames
		// and passed a capture). Seen by a camera for a second or more, a real face stays found.
		if (analysis.frames.length >= 3 && 2 * analysis.framesWithFace < analysis.frames.length) return 'noFace';
		if (!best?.face) return 'multipleFaces';
		if (!analysis.identity.consistent) return 'identityChanged';
		if (input.reference && !input.reference.ok) return 'referenceUnavailable';
		if (input.requireQuality && !best.face.gate.pass) return 'poorQuality';
		if (input.requireLiveness || type === 'recognition') {
			if (!analysis.liveness.live) return 'notLive';
		}
		if (challenge && (!challenge.passed || (injection.enforced && injection.mirrored))) return 'challengeFailed';
		if (light?.enforced && !light.passed) return 'challengeFailed';
		// Dark glasses or a mask on the user: a capture would save a face that is half there, and a
		// non-match says only that the covered face did not match. The user can take them off.
		if (best.face.hidden?.length) {
			if (type === 'face_scan' && input.mode === 'capture') return 'faceCovered';
			if (type === 'recognition' && !(input.recognition?.match && input.recognition.match.score >= input.threshold)) return 'faceCovered';
			if (input.reference?.ok && (similarity === null || similarity < input.threshold)) return 'faceCovered';
		}
		// A washed-out reference, or one whose face the photo's edge cuts, that does not match is no
		// evidence of another person (face-damage eval: blown-out references missed their owner in 2 of
		// 9 pairs, faces cut below the eyes in 10 of 10; neither matched a stranger): the reference is
		// unusable, not the user someone else. So is one whose eyes or mouth are hidden (dark glasses: 4 of
		// 10 genuine pairs missed, a mask 7 of 10, no stranger matched), or whose face is blurred (on photos
		// never seen here, blurred references missed their owner in 3 and 11 of 61, no stranger matched),
		// or text printed across it (a watermark: 29 of 280 genuine pairs missed on the same photos).
		if (input.reference?.ok && (similarity === null || similarity < input.threshold)) return referenceDoubted(input.reference) ? 'referenceUnavailable' : 'noMatch';
		return null;
	})();

	const judgement: Judgement = { similarity, challenge, light, injection, disagreements: [] };
	if (reason === null) {
		judgement.finish = { outcome: type === 'recognition' && !input.recognition?.match ? 'newUser' : SUCCESS[type] };
		if (type === 'recognition' && input.recognition?.match && input.recognition.match.score < input.threshold) judgement.finish = { outcome: 'newUser' };
	} else if (RETRYABLE_FAILURES.has(reason) && input.failedTries < input.maxRetries) {
		const hint = retryHint(reason, challenge, light);
		judgement.retry = { reason, ...(hint ? { hint } : {}) };
	} else {
		judgement.finish = { outcome: failureOutcome(type, reason), reason };
	}
	judgement.disagreements = disagreements(input, judgement);
	return judgement;
}

/**
 * What to tell a user whose movement was seen but whose light was not: the colours did not show on
 * the face (no response, or not the sequence's; or the whole frame tinted alike), or a turn began
 * after them. A light that failed for want of frames (a slow device) or for lag gets no hint.
 */
function retryHint(reason: FaceFailureReason, challenge: Judgement['challenge'], light: Judgement['light']): FaceRetryHint | null {
	if (reason !== 'challengeFailed' || !challenge?.passed || !light?.enforced || light.passed) return null;
	if (light.reason === 'noResponse' || light.reason === 'mismatch' || light.reason === 'backgroundLit') return 'lightNotSeen';
	if (light.reason === 'turnOutside' && challenge.type !== 'blink') return 'turnLate';
	return null;
}

type Sample = { t: number; yaw: number; ear: number; box: { x: number; y: number; width: number; height: number } };

/**
 * The challenge on the frames; a turn must also be one continuous motion (a photo and its mirror
 * image reach the yaw in one jump). Where continuity is not enforced (sandbox), it is only recorded.
 */
function judgeChallenge(input: JudgeInput, type: Challenge, samples: Sample[]): NonNullable<Judgement['challenge']> {
	const result = { type, ...verifyChallenge(type, samples) };
	if (type === 'blink' || !result.passed) return result;
	const continuity = verifyTurnContinuity(TURN_SIGN[type], samples);
	if (continuity.continuous || !input.enforceContinuity) return { ...result, continuity };
	return { ...result, continuity, passed: false, reason: 'notContinuous' };
}

/** The light challenge, and whether the challenge's movement happened while the colours were shown. */
function judgeLight(input: JudgeInput, light: NonNullable<JudgeInput['light']>, movementAt: number | null, subject: ReadonlySet<EvidenceAnalysis['frames'][number]>): NonNullable<Judgement['light']> {
	// The light is read on the subject's face only: another face's frame is a frame not measured.
	const frames = input.analysis.frames.map((f) => ({ t: f.t, measure: subject.has(f) ? (f.light ?? null) : null, ...(f.face ? { yaw: f.face.quality.yaw } : {}) }));
	const result = verifyLightResponse(light.sequence, light.startedAt, frames, movementAt, light.changedAt ?? null);
	return { ...result, enforced: light.enforce };
}

/** Differences between the page's claim and the server's findings, in words for the node report. */
function disagreements(input: JudgeInput, j: Judgement): string[] {
	const { claim, analysis } = input;
	const out: string[] = [];
	const serverOutcome = j.finish?.outcome ?? 'retry';
	if (claim.outcome && claim.outcome !== serverOutcome) out.push(`outcome: page claimed '${claim.outcome}', server found '${serverOutcome}'`);
	const median = analysis.liveness.median;
	if (claim.liveness !== undefined && median !== null && Math.abs(claim.liveness - median) > 0.3) {
		out.push(`liveness: page claimed ${claim.liveness.toFixed(2)}, server measured ${median.toFixed(2)}`);
	}
	if (claim.similarity !== undefined && j.similarity !== null && Math.abs(claim.similarity - j.similarity) > 0.15) {
		out.push(`similarity: page claimed ${claim.similarity.toFixed(2)}, server measured ${j.similarity.toFixed(2)}`);
	}
	if (claim.challenge && j.challenge && claim.challenge.passed !== j.challenge.passed) {
		out.push(`challenge ${j.challenge.type}: page claimed ${claim.challenge.passed ? 'passed' : 'failed'}, server found ${j.challenge.passed ? 'passed' : 'failed'}`);
	}
	if (claim.challenge && input.challenge && claim.challenge.type !== input.challenge) out.push(`challenge: page answered '${claim.challenge.type}', server asked '${input.challenge}'`);
	if (analysis.alignedCrop && analysis.alignedCrop.similarity < input.threshold) {
		out.push(`aligned face: the crop the page embedded is not the face in its frames (similarity ${analysis.alignedCrop.similarity.toFixed(2)})`);
	}
	return out;
}

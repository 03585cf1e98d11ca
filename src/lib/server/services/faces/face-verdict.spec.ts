import { describe, expect, it } from 'vitest';
import { LIVENESS_THRESHOLD } from '#lib/face/face-thresholds.ts';
import type { QualityVerdict } from '#lib/face/quality-gate.ts';
import type { AnalysedFrame, EvidenceAnalysis } from './evidence-analysis.ts';
import { judgeFaceEvidence, type JudgeInput } from './face-verdict.ts';
import { hexToRgb, lightStepAt, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import type { LightMeasure } from '#lib/face/light-response.ts';

const PASS: QualityVerdict = { pass: true, reasons: [], score: 0.95, scores: { size: 1, centre: 1, pose: 1, sharpness: 1, exposure: 1 } };

function frame(t: number, over: { yaw?: number; ear?: number; faces?: number; liveness?: number | null; gate?: QualityVerdict } = {}): AnalysedFrame {
	const faces = over.faces ?? 1;
	return {
		index: t / 100,
		t,
		width: 640,
		height: 480,
		faceCount: faces,
		face: faces
			? {
					box: { x: 200, y: 100, width: 200, height: 240 },
					score: 0.99,
					landmarks5: [{ x: 0, y: 0 }, { x: 0, y: 0 }, { x: 0, y: 0 }, { x: 0, y: 0 }, { x: 0, y: 0 }],
					quality: { faceSize: 200, centreOffset: 0, yaw: over.yaw ?? 0, pitch: 0, roll: 0, sharpness: 300, luminance: 120, eyeAspectRatio: over.ear ?? 0.3 },
					gate: over.gate ?? PASS,
					liveness: over.liveness === undefined ? 0.95 : over.liveness,
					embedding: null
				}
			: null,
		light: null
	};
}

function analysis(frames: AnalysedFrame[], over: Partial<EvidenceAnalysis> = {}): JudgeInput['analysis'] {
	const scores = frames.flatMap((f) => (f.face?.liveness != null ? [f.face.liveness] : []));
	const median = scores.length ? [...scores].sort((a, b) => a - b)[(scores.length - 1) >> 1] : null;
	return {
		frames,
		bestIndex: frames.findIndex((f) => f.faceCount === 1),
		framesWithFace: frames.filter((f) => f.faceCount > 0).length,
		framesWithSeveralFaces: frames.filter((f) => f.faceCount > 1).length,
		liveness: { scores, median, live: median !== null && median >= LIVENESS_THRESHOLD },
		identity: { minSimilarity: 0.8, consistent: true },
		motion: { frozen: false, looped: false, frozenShare: 0, meanChange: 4, mirrored: false },
		timing: { frames: frames.length, fps: 10, jitter: 0.1, nonMonotonic: false },
		alignedCrop: null,
		...over
	};
}

const turnLeftFrames = () => [frame(0), frame(100), frame(200, { yaw: 10 }), frame(300, { yaw: 25 }), frame(400, { yaw: 5 })];

const input = (over: Partial<JudgeInput>): JudgeInput => ({
	type: 'liveness_detection',
	requireLiveness: true,
	challenge: 'turnLeft',
	requireQuality: false,
	analysis: analysis(turnLeftFrames()),
	threshold: 0.45,
	enforceInjection: true,
	claim: {},
	failedTries: 0,
	maxRetries: 3,
	...over
});

describe('judgeFaceEvidence', () => {
	it('finds a live face that did the challenge', () => {
		const j = judgeFaceEvidence(input({}));
		expect(j.finish).toEqual({ outcome: 'livenessDetected' });
		expect(j.challenge).toMatchObject({ type: 'turnLeft', passed: true });
		expect(j.disagreements).toEqual([]);
	});

	it('does not take a face found in one frame of three for a face (a detector firing on a texture)', () => {
		const capture = { type: 'face_scan' as const, mode: 'capture' as const, requireLiveness: false, challenge: null, requireQuality: true };
		const flicker = analysis([frame(0), frame(5000, { faces: 0 }), frame(8000, { faces: 0 })]);
		expect(judgeFaceEvidence(input({ ...capture, analysis: flicker })).retry).toEqual({ reason: 'noFace' });
		const present = analysis([frame(0), frame(100), frame(200, { faces: 0 })]);
		expect(judgeFaceEvidence(input({ ...capture, analysis: present })).finish).toEqual({ outcome: 'passed' });
	});

	it('lets the user try again while tries remain, then ends with the type\'s failure outcome', () => {
		const still = analysis([frame(0), frame(100), frame(200), frame(300)]);
		expect(judgeFaceEvidence(input({ analysis: still, failedTries: 2 })).retry).toEqual({ reason: 'challengeFailed' });
		expect(judgeFaceEvidence(input({ analysis: still, failedTries: 3 })).finish).toEqual({ outcome: 'deepfakeDetected', reason: 'challengeFailed' });
		const empty = analysis([frame(0, { faces: 0 }), frame(100, { faces: 0 })]);
		expect(judgeFaceEvidence(input({ analysis: empty, failedTries: 3 })).finish).toEqual({ outcome: 'noFace', reason: 'noFace' });
		expect(judgeFaceEvidence(input({ analysis: empty, failedTries: 3, type: 'face_scan', mode: 'capture' })).finish).toEqual({ outcome: 'notPassed', reason: 'noFace' });
		expect(judgeFaceEvidence(input({ analysis: empty, failedTries: 3, type: 'face_compare', requireLiveness: false })).finish).toEqual({ outcome: 'imageUnavailable', reason: 'noFace' });
	});

	it('refuses a printed or replayed face (low passive liveness) even when the head turned', () => {
		const frames = turnLeftFrames().map((f) => ({ ...f, face: { ...f.face!, liveness: 0.05 } }));
		expect(judgeFaceEvidence(input({ analysis: analysis(frames), failedTries: 3 })).finish).toEqual({ outcome: 'deepfakeDetected', reason: 'notLive' });
	});

	it('keeps the frames of the subject that also show another face (a poster, an emblem behind): the turn is judged on them', () => {
		// The peak frame also shows a second face: the subject is still the largest, where it stood.
		const frames = turnLeftFrames().map((f) => (f.t === 300 ? { ...f, faceCount: 2 } : f));
		expect(judgeFaceEvidence(input({ analysis: analysis(frames) })).finish).toEqual({ outcome: 'livenessDetected' });
		// The largest face elsewhere at the peak (someone else in front): that frame is not the subject's, and the turn is not seen.
		const moved = frames.map((f) => (f.t === 300 ? { ...f, face: { ...f.face!, box: { x: 420, y: 60, width: 210, height: 250 } } } : f));
		expect(judgeFaceEvidence(input({ analysis: analysis(moved), failedTries: 3 })).finish).toEqual({ outcome: 'deepfakeDetected', reason: 'challengeFailed' });
	});

	it('passes a face the passive model doubts but does not take for a re-captured picture, when the head turned', () => {
		// A labelled live webcam capture scores 0.15; issue #12 found 40 of 280 real faces under 0.3.
		for (const liveness of [0.15, 0.3, 0.5]) {
			const frames = turnLeftFrames().map((f) => ({ ...f, face: { ...f.face!, liveness } }));
			expect(judgeFaceEvidence(input({ analysis: analysis(frames), failedTries: 0 })).finish).toEqual({ outcome: 'livenessDetected' });
		}
	});

	it('ends at once on injection signals in live sessions, and only records them in sandbox ones', () => {
		const a = analysis(turnLeftFrames(), { motion: { frozen: true, looped: false, frozenShare: 1, meanChange: 0, mirrored: false } });
		const live = judgeFaceEvidence(input({ analysis: a, claim: { camera: { label: 'OBS Virtual Camera' } } }));
		expect(live.finish).toEqual({ outcome: 'deepfakeDetected', reason: 'injection' });
		expect(live.injection.signals).toEqual(['virtualCamera', 'frozenFrames']);
		const sandbox = judgeFaceEvidence(input({ analysis: a, enforceInjection: false, claim: { camera: { label: 'fake_device_0' } } }));
		expect(sandbox.finish).toEqual({ outcome: 'livenessDetected' });
		expect(sandbox.injection).toMatchObject({ enforced: false, virtualCamera: true });
	});

	it('fails a head turn made of a photo and its mirror image, whatever the page claims', () => {
		const a = analysis(turnLeftFrames(), { motion: { frozen: false, looped: false, frozenShare: 0, meanChange: 6, mirrored: true } });
		const live = judgeFaceEvidence(input({ analysis: a, claim: { motion: { frozen: false, looped: false } } as never }));
		expect(live.challenge).toMatchObject({ type: 'turnLeft', passed: true });
		expect(live.injection.signals).toEqual(['mirroredFrames']);
		// The turn itself measured fine: only the mirror gives it away. A retry, then the node fails.
		expect(live.retry).toEqual({ reason: 'challengeFailed' });
		const last = judgeFaceEvidence(input({ analysis: a, failedTries: 2, maxRetries: 2 }));
		expect(last.finish).toEqual({ outcome: 'deepfakeDetected', reason: 'challengeFailed' });
		// Sandbox sessions (Chromium's fake camera) record it and go on.
		expect(judgeFaceEvidence(input({ analysis: a, enforceInjection: false })).finish).toEqual({ outcome: 'livenessDetected' });
	});

	it('refuses frames of two different people', () => {
		const a = analysis(turnLeftFrames(), { identity: { minSimilarity: 0.1, consistent: false } });
		expect(judgeFaceEvidence(input({ analysis: a })).finish).toEqual({ outcome: 'deepfakeDetected', reason: 'identityChanged' });
	});

	it('compares with the reference on the server similarity and logs a page that claims otherwise', () => {
		const compare = (similarity: number, claim = {}) =>
			judgeFaceEvidence(input({ type: 'face_scan', mode: 'compare', requireLiveness: false, challenge: null, requireQuality: true, reference: { ok: true, source: 'providedData', kind: 'image', similarity }, claim }));
		expect(compare(0.8).finish).toEqual({ outcome: 'passed' });
		const lie = compare(0.1, { outcome: 'passed', similarity: 0.92 });
		expect(lie.finish).toEqual({ outcome: 'notPassed', reason: 'noMatch' });
		expect(lie.disagreements).toEqual(["outcome: page claimed 'passed', server found 'notPassed'", 'similarity: page claimed 0.92, server measured 0.10']);
		const unavailable = judgeFaceEvidence(input({ type: 'face_compare', requireLiveness: false, challenge: null, reference: { ok: false, source: 'url', error: 'fetch failed: timeout' } }));
		expect(unavailable.finish).toEqual({ outcome: 'imageUnavailable', reason: 'referenceUnavailable' });
	});

	it('calls a washed-out reference that does not match unusable, not the user someone else', () => {
		const compare = (type: 'face_scan' | 'face_compare', similarity: number, washedOut: boolean) =>
			judgeFaceEvidence(input({ type, mode: 'compare', requireLiveness: false, challenge: null, reference: { ok: true, source: 'providedData', kind: 'image', similarity, washedOut } }));
		expect(compare('face_compare', 0.42, true).finish).toEqual({ outcome: 'imageUnavailable', reason: 'referenceUnavailable' });
		expect(compare('face_scan', 0.42, true).finish).toEqual({ outcome: 'error', reason: 'referenceUnavailable' });
		// A match is still a match (no stranger matched a washed-out reference in the damage eval).
		expect(compare('face_compare', 0.63, true).finish).toEqual({ outcome: 'match' });
		expect(compare('face_compare', 0.42, false).finish).toEqual({ outcome: 'noMatch', reason: 'noMatch' });
	});

	it.each([
		["whose face the photo's edge cuts", 'cutByEdge'],
		['whose face is blurred', 'blurred'],
		['with text printed across its face', 'overprinted']
	] as const)('calls a reference %s unusable when it does not match, and a match a match', (_, doubt) => {
		const compare = (similarity: number, doubted: boolean) =>
			judgeFaceEvidence(input({ type: 'face_compare', requireLiveness: false, challenge: null, reference: { ok: true, source: 'url', kind: 'image', similarity, [doubt]: doubted } }));
		expect(compare(0.09, true).finish).toEqual({ outcome: 'imageUnavailable', reason: 'referenceUnavailable' });
		expect(compare(0.58, true).finish).toEqual({ outcome: 'match' });
		expect(compare(0.09, false).finish).toEqual({ outcome: 'noMatch', reason: 'noMatch' });
	});

	it('calls a reference with its eyes or mouth covered unusable when it does not match, and a match a match', () => {
		const compare = (similarity: number, hidden?: ('eyes' | 'mouth')[]) =>
			judgeFaceEvidence(input({ type: 'face_compare', requireLiveness: false, challenge: null, reference: { ok: true, source: 'url', kind: 'image', similarity, ...(hidden ? { hidden } : {}) } }));
		expect(compare(0.36, ['eyes']).finish).toEqual({ outcome: 'imageUnavailable', reason: 'referenceUnavailable' });
		expect(compare(0.36, ['mouth']).finish).toEqual({ outcome: 'imageUnavailable', reason: 'referenceUnavailable' });
		expect(compare(0.52, ['eyes', 'mouth']).finish).toEqual({ outcome: 'match' });
		expect(compare(0.36, []).finish).toEqual({ outcome: 'noMatch', reason: 'noMatch' });
		expect(compare(0.36).finish).toEqual({ outcome: 'noMatch', reason: 'noMatch' });
	});

	it('asks a user with dark glasses or a mask to take them off where the covered face would decide, and lets a match pass', () => {
		const covered = (hidden: ('eyes' | 'mouth')[]) => analysis(turnLeftFrames().map((f) => ({ ...f, face: f.face && { ...f.face, hidden } })));
		const scan = (mode: 'capture' | 'compare', similarity: number | null, hidden: ('eyes' | 'mouth')[]) =>
			judgeFaceEvidence(input({ type: 'face_scan', mode, requireLiveness: false, challenge: null, analysis: covered(hidden), ...(similarity === null ? {} : { reference: { ok: true, source: 'providedData', kind: 'image', similarity } }) }));
		// A capture would save the covered face: another try, whatever it looks like.
		expect(scan('capture', null, ['eyes']).retry).toEqual({ reason: 'faceCovered' });
		expect(scan('capture', null, []).finish).toEqual({ outcome: 'passed' });
		// Compared: a non-match with a covered face is no evidence of another person; a match is a match.
		expect(scan('compare', 0.31, ['mouth']).retry).toEqual({ reason: 'faceCovered' });
		expect(scan('compare', 0.58, ['eyes']).finish).toEqual({ outcome: 'passed' });
		expect(scan('compare', 0.31, []).finish).toEqual({ outcome: 'notPassed', reason: 'noMatch' });
		// Out of tries, the node ends as a failed check, not as someone else.
		const last = judgeFaceEvidence(input({ type: 'face_scan', mode: 'compare', requireLiveness: false, challenge: null, analysis: covered(['eyes']), reference: { ok: true, source: 'url', kind: 'image', similarity: 0.2 }, failedTries: 3, maxRetries: 3 }));
		expect(last.finish).toEqual({ outcome: 'notPassed', reason: 'faceCovered' });
		// Recognition: a covered face that matches no one is not a new user yet.
		const recognise = (score: number | null) => judgeFaceEvidence(input({ type: 'recognition', requireLiveness: false, challenge: null, analysis: covered(['eyes']), recognition: { match: score === null ? null : { templateId: 't', sessionId: 's', clientReferenceId: 'c', score } } }));
		expect(recognise(null).retry).toEqual({ reason: 'faceCovered' });
		expect(recognise(0.7).finish).toEqual({ outcome: 'recognized' });
		// Liveness does not compare a face: glasses do not stop it.
		expect(judgeFaceEvidence(input({ analysis: covered(['eyes']) })).finish).toEqual({ outcome: 'livenessDetected' });
	});

	it('applies the quality gate to captures only', () => {
		const blurry: QualityVerdict = { ...PASS, pass: false, reasons: ['blurry'] };
		const a = analysis([frame(0, { gate: blurry }), frame(100, { gate: blurry }), frame(200, { gate: blurry })]);
		expect(judgeFaceEvidence(input({ type: 'face_scan', mode: 'capture', requireLiveness: false, challenge: null, requireQuality: true, analysis: a })).retry).toEqual({ reason: 'poorQuality' });
		expect(judgeFaceEvidence(input({ type: 'recognition', requireLiveness: false, challenge: null, analysis: a, recognition: { match: null } })).finish).toEqual({ outcome: 'newUser' });
	});

	it('recognises only above the threshold, and never a face that fails passive liveness', () => {
		const rec = (score: number, liveness = 0.95, failedTries = 0) =>
			judgeFaceEvidence(
				input({
					type: 'recognition',
					requireLiveness: false,
					challenge: null,
					failedTries,
					analysis: analysis([frame(0, { liveness }), frame(100, { liveness }), frame(200, { liveness })]),
					recognition: { match: { templateId: 't', sessionId: 's', clientReferenceId: 'ref', score } }
				})
			);
		expect(rec(0.7).finish).toEqual({ outcome: 'recognized' });
		expect(rec(0.3).finish).toEqual({ outcome: 'newUser' });
		expect(rec(0.7, 0.05).retry).toEqual({ reason: 'notLive' });
		expect(rec(0.7, 0.05, 3).finish).toEqual({ outcome: 'newUser', reason: 'notLive' });
		// A real face the passive model doubts (a live webcam capture scores 0.15) is not a picture of a picture.
		expect(rec(0.7, 0.3).finish).toEqual({ outcome: 'recognized' });
	});

	it('logs a challenge the page says it passed when the frames show none', () => {
		const still = analysis([frame(0), frame(100), frame(200), frame(300)]);
		const j = judgeFaceEvidence(input({ analysis: still, failedTries: 3, claim: { outcome: 'livenessDetected', challenge: { type: 'turnLeft', passed: true }, liveness: 0.99 } }));
		expect(j.finish?.outcome).toBe('deepfakeDetected');
		expect(j.disagreements).toContain('challenge turnLeft: page claimed passed, server found failed');
	});

	describe('the turn as one continuous motion', () => {
		// The attack of issue 12, posted densely: the mirror image (−11°), then the photo (+12°).
		const mirrorPair = () => analysis([frame(0, { yaw: -11 }), frame(100, { yaw: -11 }), frame(200, { yaw: 12 }), frame(300, { yaw: 12 })]);

		it('fails a frontal frame and a turned one with nothing in between where continuity is enforced', () => {
			const j = judgeFaceEvidence(input({ analysis: mirrorPair(), enforceContinuity: true }));
			expect(j.retry).toEqual({ reason: 'challengeFailed' });
			expect(j.challenge).toMatchObject({ passed: false, reason: 'notContinuous', continuity: { continuous: false, reason: 'noIntermediatePose' } });
		});

		it('records it and goes on where it is not (sandbox sessions)', () => {
			const j = judgeFaceEvidence(input({ analysis: mirrorPair(), enforceInjection: false, enforceContinuity: false }));
			expect(j.finish).toEqual({ outcome: 'livenessDetected' });
			expect(j.challenge).toMatchObject({ passed: true, continuity: { continuous: false } });
		});

		it('passes a turn with the poses in between', () => {
			const j = judgeFaceEvidence(input({ enforceContinuity: true }));
			expect(j.finish).toEqual({ outcome: 'livenessDetected' });
			expect(j.challenge?.continuity).toMatchObject({ continuous: true, rampFrames: 3 });
		});
	});

	describe('the light challenge', () => {
		const sequence: LightSequence = {
			steps: [
				{ colour: '#4f7ff0', ms: 400 },
				{ colour: '#e0c040', ms: 450 },
				{ colour: '#3fbf7f', ms: 400 },
				{ colour: '#b070e0', ms: 500 }
			]
		};
		const lin = (v: number) => (v / 255) ** 2.2;
		/** What the server would measure on a face lit by `k` × the colour shown at t (sequence from 0). */
		const measure = (t: number, k: number, kBackground = 0.01): LightMeasure => {
			const step = lightStepAt(sequence, t);
			const s = step >= 0 && step < sequence.steps.length ? hexToRgb(sequence.steps[step].colour).map(lin) : [0.5, 0.5, 0.5];
			return { face: [0.3, 0.2, 0.15].map((a, c) => a * (1 + k * s[c])) as LightMeasure['face'], background: [0.2, 0.2, 0.2].map((a, c) => a * (1 + kBackground * s[c])) as LightMeasure['face'] };
		};
		/** The turn of turnLeftFrames, then frames across the sequence; every frame lit by `k`. */
		const lit = (k: number) => {
			const times = [0, 100, 200, 300, 400, 680, 810, 1130, 1210, 1530, 1710];
			const yaws = [0, 0, 10, 25, 5, 2, 0, 0, 1, 0, 0];
			return analysis(times.map((t, i) => ({ ...frame(t, { yaw: yaws[i] }), light: measure(t, k) })));
		};

		it('passes a face that reflected the colours, in time', () => {
			const j = judgeFaceEvidence(input({ analysis: lit(0.2), light: { sequence, startedAt: 0, enforce: true } }));
			expect(j.finish).toEqual({ outcome: 'livenessDetected' });
			expect(j.light).toMatchObject({ passed: true, enforced: true, lagMs: 0 });
			expect(j.light!.score).toBeGreaterThan(0.9);
		});

		it('fails a face that reflected nothing where it is enforced, and records it where it is not', () => {
			const j = judgeFaceEvidence(input({ analysis: lit(0), light: { sequence, startedAt: 0, enforce: true } }));
			// The turn was seen: the user is told the colours did not show, not that they did not move.
			expect(j.retry).toEqual({ reason: 'challengeFailed', hint: 'lightNotSeen' });
			expect(j.light).toMatchObject({ passed: false, reason: 'noResponse', enforced: true });
			const sandbox = judgeFaceEvidence(input({ analysis: lit(0), enforceInjection: false, light: { sequence, startedAt: 0, enforce: false } }));
			expect(sandbox.finish).toEqual({ outcome: 'livenessDetected' });
			expect(sandbox.light).toMatchObject({ passed: false, reason: 'noResponse', enforced: false });
		});

		it('fails an upload without the time the colours started (frames posted without the page)', () => {
			const j = judgeFaceEvidence(input({ analysis: lit(0.2), light: { sequence, startedAt: null, enforce: true } }));
			expect(j.light).toMatchObject({ passed: false, reason: 'missing' });
			// Nothing the user could do differently: no hint.
			expect(j.retry).toEqual({ reason: 'challengeFailed' });
		});

		it('passes a slow turn that was under way while the colours showed and peaked after them', () => {
			// Colours 0–1750 ms (+200 ms tail); the head leaves frontal at 1500, is half turned at 1710, peaks at 2400.
			const times = [0, 100, 200, 400, 680, 810, 1130, 1210, 1530, 1710, 1900, 2100, 2400];
			const slow = (yaws: number[]) => analysis(times.map((t, i) => ({ ...frame(t, { yaw: yaws[i] }), light: measure(t, 0.2) })));
			const j = judgeFaceEvidence(input({ analysis: slow([0, 0, 0, 1, 0, 0, 1, 0, 4, 10, 14, 19, 24]), light: { sequence, startedAt: 0, enforce: true } }));
			expect(j.light).toMatchObject({ passed: true });
			expect(j.finish).toEqual({ outcome: 'livenessDetected' });
			// A turn that only began after the colours were over is not the frames that answered them.
			const late = judgeFaceEvidence(input({ analysis: slow([0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 2, 8, 24]), light: { sequence, startedAt: 0, enforce: true } }));
			expect(late.light).toMatchObject({ passed: false, reason: 'turnOutside' });
			expect(late.retry).toEqual({ reason: 'challengeFailed', hint: 'turnLate' });
		});

		it('fails a turn made before the colours were shown', () => {
			const j = judgeFaceEvidence(input({ analysis: lit(0.2), light: { sequence, startedAt: 350, enforce: true } }));
			expect(j.light).toMatchObject({ passed: false });
			expect(j.retry).toMatchObject({ reason: 'challengeFailed' });
		});
	});
});

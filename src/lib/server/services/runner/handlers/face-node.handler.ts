import { randomInt } from 'node:crypto';
import type { HiddenFeature } from '#lib/face/occlusion.ts';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { faceSettingsOf, type FaceSettings } from '#lib/domain/nodes/face.contract.ts';
import type { FaceFailureReason } from '#lib/domain/page/face-evidence.schema.ts';
import { CHALLENGES, type Challenge } from '#lib/domain/face/challenge.ts';
import { issueLightSequence, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import { LIVENESS_THRESHOLD } from '#lib/face/face-thresholds.ts';
import { ESTIMATED_AGE_KEY, flowReadsEstimatedAge } from '#lib/domain/flow/modules-to-flow.ts';
import { decodeImage } from '../../../biometrics/image-decode.ts';
import { encodeTemplate } from '../../../biometrics/template-protection.ts';
import { ageSexFinding } from '../../faces/age-sex-report.ts';
import { newId } from '../../../crypto.ts';
import { analyseFaceUpload, MAX_FACE_UPLOAD_BYTES, parseFaceUpload, type FaceEvidence } from '../../faces/face-evidence.ts';
import { encodeSavedTemplate, referencePresent, referenceSourceOf, sessionReferenceKey, type SavedFace } from '../../faces/face-reference.ts';
import { failureOutcome, judgeFaceEvidence, type FaceNodeType, type Judgement, type ReferenceResult } from '../../faces/face-verdict.ts';
import { closestLiveFace, pendingFor, sameLivePerson, type EnrolmentState, type LiveMatch } from '../../faces/live-enrolment.ts';
import { evidenceIntake, type ActionResult, type NodeContext, type NodeFinish, type NodeHandler } from '../node-handler.ts';

type Ctx = NodeContext<FaceNodeType>;
type CompareNode = NodeOf<'face_scan'> | NodeOf<'face_compare'>;

/** Per-node state kept in session data: tries so far and the challenge of the current try. */
interface FaceNodeState {
	failedTries: number;
	challenge: Challenge | null;
	/** The light challenge's colours of the current try (renewed with the challenge). */
	light?: LightSequence | null;
	/** Why each earlier try failed (kept for the node report, which is written once the node ends). */
	history?: { reason: FaceFailureReason; at: number; liveness: number | null; challenge?: Challenge | null }[];
}

type StoredState = FaceNodeState & EnrolmentState;

const STATE_KEY = 'faceNodes';

const allStates = (ctx: Ctx) => (ctx.data[STATE_KEY] ?? {}) as Record<string, StoredState>;

function stateOf(ctx: Ctx): StoredState {
	return allStates(ctx)[ctx.node.id] ?? { failedTries: 0, challenge: null };
}

function setState(ctx: Ctx, state: StoredState, nodeId = ctx.node.id): void {
	ctx.data[STATE_KEY] = { ...allStates(ctx), [nodeId]: state };
}

/** Whether this node asks for an active challenge (liveness_detection always; face_scan with requireLiveness). */
const wantsChallenge = (settings: FaceSettings) => settings.requireLiveness;

/** A random challenge (the page cannot know it before the node opens); sandbox flows may pin one. */
function issueChallenge(ctx: Ctx, settings: FaceSettings): Challenge | null {
	if (!wantsChallenge(settings)) return null;
	if (settings.testChallenge && ctx.session.env === 'test') return settings.testChallenge;
	return CHALLENGES[randomInt(CHALLENGES.length)];
}

/** A random light sequence for each try of a node that asks for liveness (the page cannot know it before). */
function issueLight(settings: FaceSettings): LightSequence | null {
	return wantsChallenge(settings) ? issueLightSequence(randomInt) : null;
}

/** Live sessions always; sandbox flows when testMode opts in (Chromium's fake camera reflects no light). */
const enforcesLight = (ctx: Ctx, settings: FaceSettings) => ctx.session.env === 'live' || settings.testEnforce.light;
const enforcesContinuity = (ctx: Ctx, settings: FaceSettings) => ctx.session.env === 'live' || settings.testEnforce.continuousTurn;

/**
 * The consent given on the permissions page (null when the flow has no permissions node). Read from
 * the store: when this node is entered right after the permissions node, `ctx.session` predates it.
 */
async function consentOf(ctx: Ctx): Promise<{ biometric: boolean; enrolment: boolean } | null> {
	return (await ctx.repos.sessions.findById(ctx.session.id))?.consent ?? null;
}

/** Biometric processing needs the consent given on the permissions page, when the flow asked for it. */
async function consentRefused(ctx: Ctx): Promise<boolean> {
	return (await consentOf(ctx))?.biometric === false;
}

const round = (v: number | null | undefined, digits = 3) => (v === null || v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(digits)));

/** The compare node, when this one compares with a reference (face_compare, face_scan in compare mode). */
function compareNode(ctx: Ctx): CompareNode | null {
	const node = ctx.node;
	return node.type === 'face_compare' || (node.type === 'face_scan' && node.mode === 'compare') ? (node as CompareNode) : null;
}

/** What the node report keeps of a try: the server's measurements, the verdict, and where the claim disagreed. */
function reportDetails(ctx: Ctx, evidence: FaceEvidence, judgement: Judgement, settings: FaceSettings, tries: number): Record<string, unknown> {
	const a = evidence.analysis;
	const best = a.bestIndex >= 0 ? a.frames[a.bestIndex] : null;
	const q = best?.face?.quality;
	return {
		tries,
		frames: a.frames.length,
		framesWithFace: a.framesWithFace,
		...(a.framesWithSeveralFaces ? { framesWithSeveralFaces: a.framesWithSeveralFaces } : {}),
		...(a.detectionsNotConfirmed ? { detectionsNotConfirmed: a.detectionsNotConfirmed } : {}),
		...(best?.face && q
			? {
					bestFrame: {
						t: best.t,
						width: best.width,
						height: best.height,
						faceSize: round(q.faceSize, 1),
						yaw: round(q.yaw, 1),
						pitch: round(q.pitch, 1),
						roll: round(q.roll, 1),
						sharpness: round(q.sharpness, 1),
						luminance: round(q.luminance, 1),
						qualityScore: round(best.face.gate.score),
						qualityReasons: best.face.gate.reasons,
						...(best.face.hidden ? { hidden: best.face.hidden } : {})
					}
				}
			: {}),
		liveness: { median: round(a.liveness.median), scores: a.liveness.scores.map((s) => round(s)), threshold: LIVENESS_THRESHOLD, live: a.liveness.live },
		...(judgement.challenge
			? {
					challenge: {
						type: judgement.challenge.type,
						passed: judgement.challenge.passed,
						...(judgement.challenge.reason ? { reason: judgement.challenge.reason } : {}),
						baseline: round(judgement.challenge.baseline),
						peak: round(judgement.challenge.peak),
						...(judgement.challenge.continuity ? { continuity: judgement.challenge.continuity } : {})
					}
				}
			: {}),
		...(judgement.light ? { lightChallenge: judgement.light } : {}),
		identity: { minSimilarity: round(a.identity.minSimilarity), consistent: a.identity.consistent },
		// The report's livenessDetected reads this on nodes other than liveness_detection.
		...(ctx.node.type === 'face_scan' && settings.requireLiveness ? { livenessDetected: a.liveness.live && (judgement.challenge?.passed ?? true) } : {}),
		...(judgement.similarity !== null ? { similarity: round(judgement.similarity), threshold: settings.similarityThreshold } : {}),
		...(evidence.reference ? { reference: referenceDetails(evidence.reference, judgement) } : {}),
		injection: judgement.injection,
		...(Object.keys(evidence.claim).length ? { claim: evidence.claim } : {}),
		...(judgement.disagreements.length ? { disagreements: judgement.disagreements } : {}),
		serverMs: a.ms
	};
}

/**
 * The reference as the node report shows it; one the server doubts (washed out, blurred, cut by the
 * photo's edge, text across it, its eyes or mouth hidden) says so, and, when that doubt ended the try, why, as the integrator's to fix.
 */
function referenceDetails(reference: ReferenceResult, judgement: Judgement): Record<string, unknown> {
	if (!reference.ok) return { source: reference.source, error: reference.error };
	const flags = (Object.keys(DOUBTED_REFERENCE) as (keyof typeof DOUBTED_REFERENCE)[]).filter((doubt) => reference[doubt]);
	const doubts = { ...Object.fromEntries(flags.map((doubt) => [doubt, true])), ...(reference.hidden?.length ? { hidden: reference.hidden } : {}) };
	const decided = judgement.finish?.reason === 'referenceUnavailable';
	const error = [...flags.map((doubt) => DOUBTED_REFERENCE[doubt]), reference.hidden?.length ? hiddenReference(reference.hidden) : ''].filter(Boolean).join('; ');
	return { source: reference.source, kind: reference.kind, ...doubts, ...(decided && error ? { error } : {}) };
}

/** Why a doubted reference that did not match is unusable, as the integrator's to fix (in the report's order). */
const DOUBTED_REFERENCE = {
	washedOut: 'the face in the reference image is washed out (overexposed) and did not match: too little of it is left to tell another person from the same one; send a photo with the face evenly lit',
	blurred: 'the face in the reference image is blurred and did not match: too little detail is left to tell another person from the same one; send a sharp photo',
	cutByEdge: "the face in the reference image is cut by the image's edge (at the eyes or the mouth) and did not match: the missing part of the face cannot be compared; send a photo with the whole face",
	overprinted: 'the face in the reference image has text printed across it (a watermark or a stamp) and did not match: the text hides part of the face; send a photo without a watermark'
} as const;
const hiddenReference = (hidden: readonly HiddenFeature[]) =>
	`the face in the reference image has its ${hidden.map((f) => (f === 'eyes' ? 'eyes hidden (dark glasses)' : 'mouth and chin covered (a mask)')).join(' and ')} and did not match: what is covered cannot be compared; send a photo with the whole face uncovered`;

/** Side effects of a finished try: photos, the saved face, enrolment. Returns extra report details. */
async function persist(ctx: Ctx, evidence: FaceEvidence, judgement: Judgement): Promise<Record<string, unknown>> {
	const out: Record<string, unknown> = {};
	const { sink } = ctx.deps.faces;
	const a = evidence.analysis;
	const base = { sessionId: ctx.session.id, nodeId: ctx.node.id };
	if (a.bestFrame) out.screenshotId = (await sink.saveScreenshot(ctx.repos, { ...base, jpeg: a.bestFrame })).id;
	const outcome = judgement.finish!.outcome;
	if (ctx.node.type === 'face_scan' && (ctx.node as NodeOf<'face_scan'>).mode === 'capture' && outcome === 'passed' && a.faceJpeg && evidence.protectedTemplate) {
		const photo = await sink.saveUserPhoto(ctx.repos, { ...base, jpeg: a.faceJpeg });
		out.photoId = photo.id;
		const field = (ctx.node as NodeOf<'face_scan'>).saveToField;
		if (field) {
			const saved: SavedFace = { type: 'face', template: encodeSavedTemplate(evidence.protectedTemplate), photoId: photo.id, liveness: round(a.liveness.median), capturedAt: ctx.now, nodeId: ctx.node.id };
			ctx.data[field] = saved;
			out.savedTo = field;
		}
	}
	if (ctx.node.type === 'face_scan' && outcome === 'passed' && flowReadsEstimatedAge(ctx.session.flow)) Object.assign(out, await estimateAge(ctx, evidence));
	if (ctx.node.type === 'recognition') {
		const match = evidence.recognition?.match;
		if (outcome === 'recognized' && match) {
			const earlier = await ctx.repos.sessions.findById(match.sessionId);
			const data = (earlier?.data ?? {}) as { verifiedContacts?: { email?: string; sms?: string }; email?: string; phone?: string };
			const contact = { email: data.verifiedContacts?.email ?? data.email, phone: data.verifiedContacts?.sms ?? data.phone };
			ctx.data.recognition = {
				clientReferenceId: match.clientReferenceId,
				sessionId: match.sessionId,
				score: round(match.score),
				...(contact.email || contact.phone ? { contact: Object.fromEntries(Object.entries(contact).filter(([, v]) => typeof v === 'string')) } : {})
			};
			Object.assign(out, { recognizedClientReferenceId: match.clientReferenceId, recognizedSessionId: match.sessionId });
		} else if (outcome === 'newUser') {
			Object.assign(out, await enrolNewUser(ctx, evidence));
		}
	}
	// A face proven live: kept for a later recognition node, and it enrols an earlier one's new user.
	if (evidence.protectedTemplate && provedLive(ctx, outcome)) {
		setState(ctx, { ...stateOf(ctx), liveTemplate: encodeSavedTemplate(evidence.protectedTemplate) });
		const enrolled: LiveMatch[] = [];
		for (const pending of pendingFor(allStates(ctx), evidence.protectedTemplate)) {
			await insertTemplate(ctx, pending.template);
			const { pendingEnrolment: _, ...rest } = allStates(ctx)[pending.nodeId];
			setState(ctx, rest, pending.nodeId);
			enrolled.push({ nodeId: pending.nodeId, similarity: round(pending.similarity)! });
		}
		if (enrolled.length) out.enrolledFor = enrolled;
	}
	return out;
}

/** Whether this node's success proved the face live with the active checks (not passive liveness alone). */
function provedLive(ctx: Ctx, outcome: string): boolean {
	if (ctx.node.type === 'liveness_detection') return outcome === 'livenessDetected';
	return ctx.node.type === 'face_scan' && outcome === 'passed' && faceSettingsOf(ctx.node).requireLiveness;
}

async function insertTemplate(ctx: Ctx, template: Float32Array): Promise<void> {
	await ctx.repos.faceTemplates.insert({
		id: newId('ftp'),
		accountId: ctx.session.accountId,
		env: ctx.session.env,
		sessionId: ctx.session.id,
		clientReferenceId: ctx.session.clientReferenceId,
		template: encodeTemplate(template),
		createdAt: ctx.now
	});
}

/**
 * A recognition node's new user: enrolled with consent, a live passive score and a face this session
 * proved live with its active checks (live-enrolment.ts); pending until such a face comes, when the
 * flow checks liveness later.
 */
async function enrolNewUser(ctx: Ctx, evidence: FaceEvidence): Promise<Record<string, unknown>> {
	const consent = await consentOf(ctx);
	const template = evidence.protectedTemplate;
	if (consent?.enrolment !== true) return { enrolled: false, notEnrolledBecause: 'noEnrolmentConsent' };
	if (!evidence.analysis.liveness.live) return { enrolled: false, notEnrolledBecause: 'notLive' };
	if (!template) return { enrolled: false, notEnrolledBecause: 'noFace' };
	const live = closestLiveFace(allStates(ctx), template);
	if (sameLivePerson(live)) {
		await insertTemplate(ctx, template);
		return { enrolled: true, enrolledWithLiveness: { nodeId: live.nodeId, similarity: round(live.similarity) } };
	}
	setState(ctx, { ...stateOf(ctx), pendingEnrolment: encodeSavedTemplate(template) });
	// Another face proved live than this one is no enrolment; with none yet, a later liveness node may enrol it.
	return { enrolled: false, notEnrolledBecause: live ? 'notTheLiveFace' : 'awaitingLiveness' };
}

/**
 * The server's age estimate of the face a face_scan passed, for a later data_validation (the legacy
 * ageEstimation check): saved as `face.estimatedAgeMin`/`estimatedAgeMax` and kept in the node report,
 * where the report's aiAnalysis reuses it. Without the estimator nothing is saved (the check fails).
 */
async function estimateAge(ctx: Ctx, evidence: FaceEvidence): Promise<Record<string, unknown>> {
	const a = evidence.analysis;
	const frame = a.bestIndex >= 0 ? a.frames[a.bestIndex] : undefined;
	const estimator = await ctx.deps.faces.ageSex?.();
	if (!estimator) return { ageEstimate: { unavailable: 'the age model is not installed' } };
	if (!a.bestFrame || !frame?.face) return { ageEstimate: { unavailable: 'no face to estimate' } };
	// Decoded again as the analysis did (at most 1280 px a side); the box is scaled should they differ.
	const image = await decodeImage(a.bestFrame, 1280);
	const k = frame.width ? image.width / frame.width : 1;
	const { x, y, width, height } = frame.face.box;
	const finding = ageSexFinding(await estimator.estimate(image, { x: x * k, y: y * k, width: width * k, height: height * k }));
	ctx.data[ESTIMATED_AGE_KEY] = { estimatedAgeMin: finding.ageMin, estimatedAgeMax: finding.ageMax };
	return { ageEstimate: finding };
}

/** The face nodes' server side. `cancelOutcome`: what the user's cancel ends the node with. */
export function faceNodeHandler(cancelOutcome: string): NodeHandler<FaceNodeType> {
	const finishWith = (ctx: Ctx, reason: FaceFailureReason, details: Record<string, unknown> = {}): NodeFinish => ({
		outcome: failureOutcome(ctx.node.type, reason),
		details: { reason, ...details }
	});
	return {
		async enter(ctx) {
			if (await consentRefused(ctx)) return finishWith(ctx, 'noConsent');
			const compare = compareNode(ctx);
			if (compare && !referencePresent(compare, ctx.session, ctx.data)) {
				return finishWith(ctx, 'referenceUnavailable', { reference: { source: referenceSourceOf(compare), error: 'missing' } });
			}
			const settings = faceSettingsOf(ctx.node);
			setState(ctx, { failedTries: 0, challenge: issueChallenge(ctx, settings), light: issueLight(settings) });
		},
		view(ctx) {
			const s = faceSettingsOf(ctx.node);
			const state = stateOf(ctx);
			const node = ctx.node as Partial<NodeOf<'face_scan'>>;
			const compare = compareNode(ctx);
			return {
				available: true,
				mode: s.mode,
				challenge: state.challenge,
				light: state.light ?? null,
				// Tries the user still has, this one included: maxRetries counts the tries after the first.
				triesLeft: Math.max(1, s.maxRetries + 1 - state.failedTries),
				settings: {
					captureInstructions: s.captureInstructions,
					captureDelay: s.captureDelay,
					detectionInterval: s.detectionInterval,
					...s.quality,
					enableSound: s.enableSound,
					enableHaptics: s.enableHaptics,
					useWebGL: s.useWebGL,
					maxRetries: s.maxRetries,
					requireLiveness: s.requireLiveness,
					timeoutSeconds: s.timeoutSeconds
				},
				// A compare against a face captured earlier on this page can be previewed in the browser.
				...(compare && referenceSourceOf(compare) === 'session' && sessionReferenceKey(compare, ctx.data) ? { referenceField: sessionReferenceKey(compare, ctx.data)! } : {}),
				...(ctx.node.type === 'face_scan' && node.saveToField ? { saveToField: node.saveToField } : {}),
				cancellable: true
			};
		},
		evidence: evidenceIntake({
			maxBodyBytes: MAX_FACE_UPLOAD_BYTES,
			parse: parseFaceUpload,
			analyse: ({ deps, session, node }, upload) => analyseFaceUpload(deps.faces, session, node, upload),
			async decide(ctx, evidence): Promise<ActionResult> {
				// The session is the one locked for this decision: consent given since entry is in it.
				if (ctx.session.consent?.biometric === false) return { finish: finishWith(ctx, 'noConsent') };
				const settings = faceSettingsOf(ctx.node);
				const state = stateOf(ctx);
				// Looked up before this upload's frames are recorded, in the decision's transaction.
				const prints = ctx.repos.faceFramePrints;
				const replayedFrames = await prints.countSeenElsewhere(ctx.session.accountId, ctx.session.id, evidence.frameDigests);
				await prints.record(ctx.session.accountId, ctx.session.id, evidence.frameDigests, ctx.now);
				const judgement = judgeFaceEvidence({
					type: ctx.node.type,
					mode: settings.mode ?? undefined,
					requireLiveness: settings.requireLiveness,
					challenge: state.challenge,
					requireQuality: ctx.node.type === 'face_scan',
					analysis: evidence.analysis,
					reference: evidence.reference,
					recognition: evidence.recognition,
					threshold: settings.similarityThreshold,
					// Live sessions always; a sandbox one only when its flow asks to be judged as live.
					enforceInjection: ctx.session.env === 'live' || settings.testEnforce.injection,
					replayedFrames,
					light: state.light ? { sequence: state.light, startedAt: evidence.lightStartedAt, changedAt: evidence.lightChangedAt, enforce: enforcesLight(ctx, settings) } : null,
					enforceContinuity: enforcesContinuity(ctx, settings),
					claim: evidence.claim,
					failedTries: state.failedTries,
					maxRetries: settings.maxRetries
				});
				const tries = state.failedTries + 1;
				const details = reportDetails(ctx, evidence, judgement, settings, tries);
				const history = [...(state.history ?? [])];
				if (judgement.retry) {
					history.push({ reason: judgement.retry.reason, at: ctx.now, liveness: round(evidence.analysis.liveness.median), challenge: state.challenge });
					setState(ctx, { failedTries: tries, challenge: issueChallenge(ctx, settings), light: issueLight(settings), history });
					return { notice: { code: 'face.retry', params: { reason: judgement.retry.reason, ...(judgement.retry.hint ? { hint: judgement.retry.hint } : {}), triesLeft: settings.maxRetries + 1 - tries } } };
				}
				const finish = judgement.finish!;
				const persisted = await persist(ctx, evidence, judgement);
				return { finish: { outcome: finish.outcome, details: { ...(finish.reason ? { reason: finish.reason } : {}), ...details, ...persisted, ...(history.length ? { previousTries: history } : {}) } } };
			}
		}),
		actions: {
			async cancel(ctx): Promise<ActionResult> {
				return { finish: { outcome: cancelOutcome, details: { reason: 'cancelled', tries: stateOf(ctx).failedTries } } };
			}
		}
	};
}

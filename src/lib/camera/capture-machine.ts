// One face node's capture in the browser, as a state machine (STYLE.md habit 8): each phase one async
// step, timers for the hold, the challenge and the node's time limit, an abort on leave. It knows the
// browser only through ports (detector check, frame grab, worker, upload, cues), so the tests drive it
// with a fake detector and fake timers.
import { MAX_EVIDENCE_FRAMES, type FaceClaim, type FaceFailureReason, type FaceRetryHint } from '#lib/domain/page/face-evidence.schema.ts';
import type { Challenge } from '#lib/domain/face/challenge.ts';
import { LIGHT_TAIL_MS, lightStepsRequired, lightStepStarts, shownLightSequence, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import { AFTER_CHANGE_MS, BEFORE_END_MS, chooseChallengeFrames } from './challenge-frames.ts';
import { verifyChallenge, type ChallengeSample } from '#lib/face/challenge.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import { CHALLENGE_ONSET_SHARE, LIVENESS_THRESHOLD } from '#lib/face/face-thresholds.ts';
import type { Box } from '#lib/face/image.ts';
import { motionSignals, timingSignals } from '#lib/face/injection.ts';
import type { FaceAnalyser } from './face-worker-client.ts';
import type { FrameResult } from './face-worker-protocol.ts';
import type { LiveCheck } from './frame-gate.ts';
import { challengeKey, failureKey, guidanceFor } from './guidance.ts';

export type CapturePhase = 'loading' | 'positioning' | 'holding' | 'challenge' | 'analysing' | 'uploading' | 'retry' | 'done' | 'failed' | 'cancelled';

export type Cue = 'ready' | 'capture' | 'success' | 'fail';

export interface CaptureConfig {
	challenge: Challenge | null;
	/** The light challenge's colours, shown while the challenge runs (null: none). */
	light?: LightSequence | null;
	/** Milliseconds the gate must keep passing before the capture (captureDelay). */
	captureDelay: number;
	/** Milliseconds between detections (detectionInterval). */
	detectionInterval: number;
	/** The node's time limit; when it runs out the page uploads what it has (default 45 s). */
	timeoutMs?: number | null;
	/** Frames scored for passive liveness (default 3). */
	passiveFrames?: number;
	/** Time allowed for the challenge (default 10 s). */
	challengeMs?: number;
	/** A try with no face in view for this long ends as noFace (default 8 s; see NO_FACE_MS). */
	noFaceMs?: number;
	/** Frames grabbed before this node (recognition: while the avatar spoke in the node before). */
	buffered?: { bitmap: ImageBitmap; box: Box | null }[];
	/** An embedding of a face captured earlier on this page (compare against the session's capture). */
	localReference?: Float32Array | null;
	/** Called with the best frame's embedding (the page keeps it for a later compare on the same page). */
	onEmbedding?: (embedding: Float32Array) => void;
	/** Outcome keys for the page's claim (success / failure), e.g. livenessDetected / deepfakeDetected. */
	claimOutcomes?: { success: string; failure: string };
}

export interface EvidencePayload {
	frames: { image: ArrayBuffer; t: number; kind: 'best' | 'challenge' | 'passive' | 'scene' }[];
	alignedFace: ArrayBuffer | null;
	claim: FaceClaim;
	/** When the light challenge's colours began (frames' clock). */
	lightStartedAt?: number;
	/** When each later colour, then none, went on screen (frames' clock). */
	lightChangedAt?: number[];
}

export type UploadAnswer =
	| { kind: 'moved' }
	| { kind: 'retry'; reason: FaceFailureReason; hint?: FaceRetryHint; challenge: Challenge | null; light?: LightSequence | null; triesLeft: number }
	| { kind: 'failed'; error: string };

export interface CapturePorts {
	now(): number;
	setTimeout(fn: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
	/** Detection and gate on the current frame; null while no frame is available. */
	check(): LiveCheck | null;
	/** The current frame as a bitmap for the worker, or null. */
	grab(): Promise<ImageBitmap | null>;
	analyser: FaceAnalyser;
	upload(evidence: EvidencePayload): Promise<UploadAnswer>;
	cue(cue: Cue): void;
	/** Camera facts for the claim (label, size, virtual). */
	camera(): FaceClaim['camera'];
}

export interface CaptureView {
	phase: CapturePhase;
	/** i18n key under `face.` */
	message: string | null;
	/** 0–1: the hold countdown or the challenge's progress. */
	progress: number;
	challenge: Challenge | null;
	reason: FaceFailureReason | null;
	triesLeft: number | null;
	/** Face box of the last check (detector pixels), for the overlay. */
	box: Box | null;
	/** The light challenge's colour on screen now (#rrggbb), or null. */
	light: string | null;
}

const CHALLENGE_STEP_MS = { turnLeft: 120, turnRight: 120, blink: 60 } as const;
/** A passing gate may fail this long (a blink, a twitch) before the hold starts over. */
const HOLD_GRACE_MS = 400;
const RETRY_PAUSE_MS = 2500;
/**
 * With no face in view for this long, the try ends and the server looks at what the camera sees. A
 * person in front of the camera is found within a frame or two; one who is not (a cup held up, an
 * empty room) used to wait out the node's whole time limit, try after try.
 */
const NO_FACE_MS = 8000;
const MAX_FRAMES = MAX_EVIDENCE_FRAMES;

interface Grabbed {
	id: number;
	t: number;
	/** The worker's analysis (null: a light frame, kept for upload only). */
	result: FrameResult | null;
	kind: 'passive' | 'challenge' | 'scene' | 'light';
	/** Light frames: whether the live detector saw a face when it was taken. */
	face?: boolean;
}

export class CaptureMachine {
	view: CaptureView = { phase: 'loading', message: null, progress: 0, challenge: null, reason: null, triesLeft: null, box: null, light: null };

	readonly #ports: CapturePorts;
	readonly #config: CaptureConfig;
	readonly #listeners = new Set<(v: CaptureView) => void>();
	#challenge: Challenge | null;
	#light: LightSequence | null;
	/** When this try's colours began (frames' clock), and whether the last one has gone off. */
	#lightWindow: { startedAt: number; over: boolean } | null = null;
	#timers = new Set<unknown>();
	#startedAt = 0;
	#holdStart = 0;
	#failingSince = 0;
	#frames: Grabbed[] = [];
	#samples: ChallengeSample[] = [];
	#nextFrameId = 1;
	#busy = false;
	#models: Promise<boolean> = Promise.resolve(true);
	#modelsReady = true;
	/** Which hold this is: a frame analysed after its hold was broken off is not this hold's. */
	#hold = 0;
	/** Passive frames taken before the worker's models were in, waiting in the worker for them. */
	#deferred = new Set<Promise<void>>();
	#deferredPassive = 0;
	#inflight: Promise<unknown> = Promise.resolve();
	#sending = false;
	#attempt = 0;
	/** Light frames on their way into the worker (the upload waits for them). */
	#keeping = new Set<Promise<void>>();
	#lightChanged: number[] = [];
	#framesSeen = 0;
	/** When the detector last stopped seeing any face (0: it sees one, or has not looked yet). */
	#noFaceSince = 0;
	#buffered: CaptureConfig['buffered'];

	constructor(ports: CapturePorts, config: CaptureConfig) {
		this.#ports = ports;
		this.#config = config;
		this.#challenge = config.challenge;
		this.#light = config.light ?? null;
		this.#buffered = config.buffered;
	}

	subscribe(fn: (v: CaptureView) => void): () => void {
		this.#listeners.add(fn);
		fn(this.view);
		return () => this.#listeners.delete(fn);
	}

	/**
	 * Starts looking for a face at once (the detector is ready; guidance needs nothing else) while the
	 * worker's models finish loading; the first frame it needs waits for them. Frames grabbed before
	 * the node (recognition) skip the positioning.
	 */
	async start(): Promise<void> {
		this.#startedAt = this.#ports.now();
		this.#set({ phase: 'loading', message: 'guidance.loading' });
		this.#modelsReady = false;
		this.#models = this.#ports.analyser.ready().then(
			() => (this.#modelsReady = true),
			() => false
		);
		if (this.#buffered && this.#buffered.length >= 2 && !(await this.#models)) return this.#fail('error');
		if (this.#isOver()) return;
		this.#armTimeout();
		if (this.#buffered && this.#buffered.length >= 2) {
			const frames = this.#buffered;
			this.#buffered = undefined;
			return this.#useBuffered(frames);
		}
		this.#position();
	}

	/** The user gave up (the component reports the node's cancel outcome). */
	cancel(): void {
		this.#stop('cancelled');
	}

	/** The component unmounted (node over, tab closed). */
	destroy(): void {
		if (!this.#isOver()) this.#stop('cancelled');
	}

	/** After a failed upload (network): start over. */
	restart(): void {
		if (this.view.phase !== 'failed') return;
		void this.#reset().then(() => this.#position());
	}

	#position(): void {
		this.#holdStart = 0;
		this.#noFaceSince = 0;
		// The words stay "Getting the camera ready…" until the detector has looked at a frame: the
		// first guidance is what it saw, never a "we can't see your face" it did not say.
		this.#set({ phase: 'positioning', progress: 0, reason: null, challenge: null, message: 'guidance.loading' });
		this.#after(0, () => this.#tick());
	}

	#tick(): void {
		const phase = this.view.phase;
		if (phase !== 'positioning' && phase !== 'holding') return;
		const check = this.#ports.check();
		this.#after(this.#config.detectionInterval, () => this.#tick());
		if (!check) return;
		this.#framesSeen++;
		const now = this.#ports.now();
		if (this.#noFaceFor(check, now)) return;
		if (check.verdict.pass) {
			this.#failingSince = 0;
			if (phase === 'positioning') {
				this.#holdStart = now;
				this.#set({ phase: 'holding', message: 'guidance.good', box: check.box, progress: 0 });
				this.#ports.cue('ready');
			}
			const held = now - this.#holdStart;
			const delay = this.#config.captureDelay;
			const passive = this.#config.passiveFrames ?? 3;
			const due = this.#frames.filter((f) => f.kind === 'passive').length + this.#deferredPassive;
			// The ring fills as the hold does, but never ahead of the frames actually analysed: on a slow
			// device (or while the models load) a full ring with "hold it there" went on for seconds.
			// The hold ends the moment the ring is full: no "hold it there" with a full ring.
			if (held >= delay && due >= passive && !this.#busy) return void this.#captured();
			const timeShare = delay > 0 ? Math.min(1, held / delay) : 1;
			this.#set({ box: check.box, progress: Math.min(timeShare, passive > 0 ? due / passive : 1, 0.99), message: this.#coveredHint() });
			// Passive frames spread over the hold: frame k once the hold is k/passive through.
			if (!this.#busy && due < passive && held >= (delay * due) / passive) void this.#grab('passive', check.box);
			return;
		}
		this.#set({ box: check.box, message: guidanceFor(check.verdict.reasons, check.lightBehind) });
		if (phase === 'holding') {
			this.#failingSince ||= now;
			if (now - this.#failingSince > HOLD_GRACE_MS) {
				this.#holdStart = 0;
				this.#newHold();
				// Frames of an interrupted hold are not this hold's: start collecting again.
				const stale = this.#frames.filter((f) => f.kind === 'passive').map((f) => f.id);
				this.#frames = this.#frames.filter((f) => f.kind !== 'passive');
				if (stale.length) void this.#ports.analyser.drop(stale).catch(() => undefined);
				this.#set({ phase: 'positioning', progress: 0 });
			}
		}
	}

	/**
	 * "Remove anything covering your face" while the hold's latest analysed frame shows dark glasses or
	 * a mask (the worker measures them as the server does); else "hold it there". Only a hint: the hold
	 * goes on and the server decides (faceCovered), so a face the page misjudges is never kept from
	 * being captured.
	 */
	#coveredHint(): string {
		const last = this.#frames.findLast((f) => f.kind === 'passive' && f.result);
		return last?.result?.face?.hidden?.length ? 'guidance.faceCovered' : 'guidance.good';
	}

	/** Counts how long no face has been in view; past noFaceMs, ends the try (true when it did). */
	#noFaceFor(check: LiveCheck, now: number): boolean {
		if (check.quality.faceCount > 0) {
			this.#noFaceSince = 0;
			return false;
		}
		this.#noFaceSince ||= now;
		if (this.view.phase !== 'positioning' || now - this.#noFaceSince < (this.#config.noFaceMs ?? NO_FACE_MS)) return false;
		void this.#endTry('noFace');
		return true;
	}

	/** Ends the try without a capture: the server is shown what the camera sees, and decides. */
	async #endTry(reason: FaceFailureReason): Promise<void> {
		this.#set({ phase: 'analysing', message: 'guidance.checking', progress: 0, box: null });
		for (let i = 0; i < 3; i++) {
			await this.#inflight.catch(() => undefined);
			await this.#grab('scene', this.#ports.check()?.box ?? null);
		}
		await this.#analyse(reason);
	}

	#captured(): void {
		this.#ports.cue('capture');
		if (this.#challenge && !this.#modelsReady) {
			// The hold is over but the challenge needs each of its frames analysed as it comes: the user
			// may stop holding still while the models arrive, then gets the challenge.
			const attempt = this.#attempt;
			this.#set({ phase: 'analysing', message: 'guidance.checking', progress: 1 });
			void this.#models.then((ok) => {
				if (this.#isOver() || attempt !== this.#attempt || this.view.phase !== 'analysing') return;
				if (!ok) return this.#fail('error');
				this.#runChallenge();
			});
			return;
		}
		if (this.#challenge) return this.#runChallenge();
		void this.#analyse();
	}

	/** The challenge (and the light with it), its frames analysed as they come; then the upload. */
	#runChallenge(): void {
		const challenge = this.#challenge;
		if (!challenge) return void this.#analyse();
		this.#samples = [];
		const challengeStart = this.#ports.now();
		this.#set({ phase: 'challenge', challenge, message: challengeKey(challenge), progress: 0 });
		this.#startLight();
		const step = async () => {
			if (this.view.phase !== 'challenge') return;
			const stepStart = this.#ports.now();
			const check = this.#ports.check();
			const grabbed = await this.#grab('challenge', check?.box ?? null);
			if (this.view.phase !== 'challenge') return;
			if (grabbed?.result?.face) this.#samples.push({ t: grabbed.t, yaw: grabbed.result.face.yaw, ear: grabbed.result.face.ear });
			const verdict = verifyChallenge(challenge, this.#samples);
			this.#set({ progress: verdict.progress, box: check?.box ?? null });
			const timedOut = this.#ports.now() - challengeStart > (this.#config.challengeMs ?? 10_000);
			// The movement and the light are judged on the same frames: keep grabbing till the colours are over.
			// One grab every CHALLENGE_STEP_MS from the last one's start, not after its analysis: on a busy
			// machine the analysis took ~200 ms and frames came 320+ ms apart, wider than the server's
			// continuity check allows between frames of the turn.
			const next = Math.max(0, CHALLENGE_STEP_MS[challenge] - (this.#ports.now() - stepStart));
			if (verdict.passed && this.#lightRunning() && !timedOut) return this.#after(next, () => void step());
			if (verdict.passed) {
				// A few frames more: the eyes reopening, the head coming back.
				this.#after(150, async () => {
					await this.#grab('challenge', this.#ports.check()?.box ?? null);
					this.#after(150, () => void this.#analyse());
				});
				return;
			}
			if (timedOut) return void this.#analyse();
			this.#after(next, () => void step());
		};
		this.#after(0, () => void step());
	}

	async #useBuffered(frames: NonNullable<CaptureConfig['buffered']>): Promise<void> {
		this.#set({ phase: 'analysing', message: 'guidance.checking' });
		for (const f of frames) {
			const id = this.#nextFrameId++;
			try {
				const result = await this.#ports.analyser.analyse(id, f.bitmap, f.box, { liveness: true }, true);
				this.#frames.push({ id, t: this.#ports.now() - this.#startedAt, result, kind: 'passive' });
			} catch {
				// a frame the worker could not read: the others may do
			}
		}
		await this.#analyse();
	}

	/** Grabs the current frame and has the worker analyse it (kept for upload). */
	#grab(kind: Grabbed['kind'], box: Box | null): Promise<Grabbed | null> {
		if (this.#busy) return Promise.resolve(null);
		this.#busy = true;
		const run = this.#grabNow(kind, box);
		this.#inflight = run;
		return run;
	}

	async #grabNow(kind: Grabbed['kind'], box: Box | null): Promise<Grabbed | null> {
		try {
			if (kind === 'passive' && !this.#modelsReady) {
				await this.#grabDeferred(box);
				return null;
			}
			if (!(await this.#models)) {
				this.#fail('error');
				return null;
			}
			// The frame is the one on screen when asked for (createImageBitmap snapshots it); its time is
			// that moment, not when a busy machine got round to resolving the promise (up to 330 ms later).
			const t = this.#ports.now() - this.#startedAt;
			const bitmap = await this.#ports.grab();
			if (!bitmap || this.#isOver()) {
				bitmap?.close?.();
				return null;
			}
			const id = this.#nextFrameId++;
			// Passive frames get liveness; the embedding waits until the best frame is known (one, not three).
			const result = await this.#ports.analyser.analyse(id, bitmap, box, kind === 'passive' ? { liveness: true } : {}, true);
			const grabbed = { id, t, result, kind };
			this.#frames.push(grabbed);
			return grabbed;
		} catch {
			return null;
		} finally {
			this.#busy = false;
		}
	}

	/**
	 * A passive frame taken while the worker's models are still on their way (a first visit on a slow
	 * link: 5.7 MB after the detector's 2.4): snapshotted now, when the user holds still for it, and
	 * analysed in the worker once the models are in. The ring counts it, so the hold ends when its
	 * time is up and the wait shows as "Checking…"; before, the ring waited for the models while the
	 * page said "hold it there" (at 10 Mbit/s a 3 s hold lasted 6 s). A challenge that follows waits
	 * for the models (see #captured): it needs each of its frames analysed as it comes.
	 */
	async #grabDeferred(box: Box | null): Promise<void> {
		const t = this.#ports.now() - this.#startedAt;
		const bitmap = await this.#ports.grab();
		if (!bitmap || this.#isOver()) return void bitmap?.close?.();
		const id = this.#nextFrameId++;
		const hold = this.#hold;
		const current = () => hold === this.#hold && !this.#isOver();
		this.#deferredPassive++;
		const done = this.#models
			.then(async (ok) => {
				if (!ok) {
					bitmap.close?.();
					if (current()) this.#fail('error');
					return;
				}
				const result = await this.#ports.analyser.analyse(id, bitmap, box, { liveness: true }, true).catch(() => null);
				if (!current()) return void (await this.#ports.analyser.drop([id]).catch(() => undefined));
				if (result) this.#frames.push({ id, t, result, kind: 'passive' });
			})
			.finally(() => {
				if (hold === this.#hold) this.#deferredPassive--;
				this.#deferred.delete(done);
			});
		this.#deferred.add(done);
	}

	/** A hold broken off or a new try: frames still waiting for the models belong to the old one. */
	#newHold(): void {
		this.#hold++;
		this.#deferredPassive = 0;
	}

	/** Chooses the frames to upload, encodes them, builds the claim and uploads. */
	async #analyse(reason: FaceFailureReason | null = null): Promise<void> {
		if (this.#isOver() || this.#sending) return;
		this.#sending = true;
		try {
			await this.#send(reason);
		} finally {
			this.#sending = false;
		}
	}

	async #send(reason: FaceFailureReason | null): Promise<void> {
		// The ring is full and the frames are taken: the user may stop holding still. What follows
		// (embedding, encoding, upload, the server's verdict) is "Checking…", never "hold it there".
		this.#set({ phase: 'analysing', message: 'guidance.checking', progress: reason ? this.view.progress : 1 });
		await Promise.all(this.#keeping);
		await Promise.all(this.#deferred);
		if (this.#isOver() || this.view.phase === 'failed') return;
		const chosen = this.#choose();
		const passive = chosen.filter((f) => f.kind === 'passive' && f.result?.face);
		const best = [...passive].sort((a, b) => (b.result?.liveness ?? 0) - (a.result?.liveness ?? 0))[0] ?? null;
		let encoded;
		let embedding: Float32Array | null = null;
		try {
			if (best) embedding = await this.#ports.analyser.embed(best.id);
			encoded = await this.#ports.analyser.encode(chosen.map((f) => f.id), best?.id ?? null);
		} catch {
			return this.#fail('error');
		}
		if (this.#isOver()) return;
		const scores = passive.flatMap((f) => (f.result?.liveness != null ? [f.result.liveness] : []));
		const liveness = scores.length ? [...scores].sort((a, b) => a - b)[(scores.length - 1) >> 1] : undefined;
		const challenge = this.#challenge ? verifyChallenge(this.#challenge, this.#samples) : null;
		// In time order: a light frame is taken while an analysed one is still in the worker.
		const inOrder = [...this.#frames].sort((a, b) => a.t - b.t);
		const motion = motionSignals(inOrder.flatMap((f) => (f.result ? [f.result.signature] : [])));
		const timing = timingSignals(inOrder.map((f) => f.t));
		if (embedding) this.#config.onEmbedding?.(embedding);
		const similarity = embedding && this.#config.localReference ? cosineSimilarity(embedding, this.#config.localReference) : undefined;
		const ok = !reason && passive.length > 0 && (liveness ?? 0) >= LIVENESS_THRESHOLD && (!challenge || challenge.passed);
		const claim: FaceClaim = {
			...(this.#config.claimOutcomes ? { outcome: ok ? this.#config.claimOutcomes.success : this.#config.claimOutcomes.failure } : {}),
			...(reason ? { reason } : {}),
			...(liveness !== undefined ? { liveness } : {}),
			...(similarity !== undefined ? { similarity } : {}),
			...(challenge && this.#challenge ? { challenge: { type: this.#challenge, passed: challenge.passed } } : {}),
			camera: this.#ports.camera(),
			motion: { frozen: motion.frozen, looped: motion.looped, frozenShare: motion.frozenShare },
			timing: { fps: timing.fps, jitter: timing.jitter, nonMonotonic: timing.nonMonotonic },
			framesSeen: this.#framesSeen,
			durationMs: Math.round(this.#ports.now() - this.#startedAt)
		};
		const byId = new Map(chosen.map((f) => [f.id, f]));
		const payload: EvidencePayload = {
			...(this.#lightWindow ? { lightStartedAt: Math.round(this.#lightWindow.startedAt), lightChangedAt: this.#lightChanged.map(Math.round) } : {}),
			frames: encoded.frames.map((e) => {
				const f = byId.get(e.frameId)!;
				return { image: e.jpeg, t: Math.round(f.t), kind: f === best ? 'best' : f.kind === 'light' ? 'challenge' : f.kind };
			}),
			alignedFace: encoded.aligned,
			claim
		};
		this.#set({ phase: 'uploading', message: 'guidance.checking' });
		let answer: UploadAnswer;
		try {
			answer = await this.#ports.upload(payload);
		} catch (err) {
			answer = { kind: 'failed', error: err instanceof Error ? err.message : String(err) };
		}
		if (this.#isOver()) return;
		if (answer.kind === 'moved') {
			this.#ports.cue('success');
			this.#stop('done');
		} else if (answer.kind === 'retry') {
			this.#ports.cue('fail');
			this.#attempt++;
			this.#set({ phase: 'retry', reason: answer.reason, message: failureKey(answer.hint ?? answer.reason), triesLeft: answer.triesLeft, challenge: null });
			this.#after(RETRY_PAUSE_MS, async () => {
				await this.#reset();
				this.#challenge = answer.challenge;
				this.#light = answer.light ?? null;
				this.#position();
			});
		} else {
			this.#fail('error');
		}
	}

	/** At most MAX_FRAMES: every passive frame, and the challenge frames that matter (challenge-frames.ts). */
	#choose(): Grabbed[] {
		const passive = this.#frames.filter((f) => f.kind !== 'challenge' && f.kind !== 'light');
		const challenge = this.#frames.filter((f) => f.kind === 'challenge' || f.kind === 'light').sort((a, b) => a.t - b.t);
		const room = MAX_FRAMES - passive.length;
		const peak = this.#challenge ? verifyChallenge(this.#challenge, this.#samples).peakIndex : -1;
		// The verdict's peak indexes the frames with a face (the samples), as do these.
		const peakT = peak >= 0 ? this.#samples[peak]?.t : undefined;
		const frames = challenge.map((f) => ({ t: f.t, yaw: f.result?.face ? f.result.face.yaw : null, face: f.result ? f.result.face !== null : f.face === true }));
		const light = this.#light && this.#lightWindow ? { sequence: shownLightSequence(this.#light, this.#lightChanged), startedAt: this.#lightWindow.startedAt, changedAt: this.#lightChanged } : null;
		const chosen = chooseChallengeFrames(frames, room, peakT === undefined ? -1 : challenge.findIndex((f) => f.kind === 'challenge' && f.t === peakT), light).map((i) => challenge[i]);
		return [...passive, ...chosen].sort((a, b) => a.t - b.t);
	}

	/**
	 * Shows the light challenge's colours, one step after another (the component draws `view.light`
	 * full-screen). The frames' clock is the machine's: the server gets the start in it. After the
	 * steps every sequence must show (light-challenge.ts), each further step is shown only while the
	 * challenge's movement is not yet under way: a user slow to turn still turns under the colours,
	 * and one who turned at once is not kept waiting.
	 */
	#startLight(): void {
		const sequence = this.#light;
		if (!sequence) return;
		const startedAt = this.#ports.now() - this.#startedAt;
		this.#lightWindow = { startedAt, over: false };
		this.#lightChanged = [];
		const starts = lightStepStarts(sequence);
		const required = lightStepsRequired(sequence);
		// Timers are set against the planned times from the start, so a busy device's late timers do not add up.
		const after = (plannedMs: number, fn: () => void) => this.#after(Math.max(0, startedAt + plannedMs - (this.#ports.now() - this.#startedAt)), fn);
		const show = (i: number) => {
			const step = sequence.steps[i];
			this.#set({ light: step.colour });
			// The frames the server judges the light on, taken when they are due whatever the worker is
			// doing: on a slow device the challenge's analysed frames came 400–1900 ms apart, too few to
			// see every colour, and a genuine user failed the light as tooFewFrames or stepsMissed.
			after(starts[i] + AFTER_CHANGE_MS, () => void this.#grabLight());
			after(starts[i] + step.ms - BEFORE_END_MS, () => void this.#grabLight());
			after(starts[i] + step.ms, () => {
				// When it really changed: a busy device's timer fires late, and the server reads the frames against this.
				this.#lightChanged.push(this.#ports.now() - this.#startedAt);
				const more = i + 1 < sequence.steps.length && (i + 1 < required || !this.#movementUnderWay());
				if (more) return show(i + 1);
				this.#lightWindow = { startedAt, over: true };
				this.#set({ light: null });
			});
		};
		show(0);
	}

	/** Whether the challenge's movement is under way in the frames analysed so far (the server's onset: challenge.ts). */
	#movementUnderWay(): boolean {
		if (!this.#challenge) return true;
		const verdict = verifyChallenge(this.#challenge, this.#samples);
		if (verdict.passed) return true;
		return this.#challenge === 'blink' ? verdict.reason === 'eyesNotReopened' : verdict.progress >= CHALLENGE_ONSET_SHARE;
	}

	/** A frame for the light challenge: kept in the worker for upload, not analysed (the server measures it). */
	async #grabLight(): Promise<void> {
		if (this.view.phase !== 'challenge' && this.view.phase !== 'analysing') return;
		const attempt = this.#attempt;
		const t = this.#ports.now() - this.#startedAt;
		const face = this.#ports.check()?.box != null;
		const run = (async () => {
			const bitmap = await this.#ports.grab().catch(() => null);
			if (!bitmap) return;
			if (this.#isOver() || attempt !== this.#attempt) return void bitmap.close?.();
			const id = this.#nextFrameId++;
			await this.#ports.analyser.keep(id, bitmap);
			if (attempt !== this.#attempt) return void (await this.#ports.analyser.drop([id]));
			this.#frames.push({ id, t, result: null, kind: 'light', face });
		})().catch(() => undefined);
		this.#keeping.add(run);
		await run;
		this.#keeping.delete(run);
	}

	/** Whether the colours (and the camera's latency after them) are still running. */
	#lightRunning(): boolean {
		if (!this.#lightWindow || !this.#light) return false;
		// Till the last colour is off (late on a busy device) and the camera's latency after it.
		if (!this.#lightWindow.over) return true;
		return this.#ports.now() - this.#startedAt < this.#lightChanged.at(-1)! + LIGHT_TAIL_MS;
	}

	#armTimeout(): void {
		const limit = this.#config.timeoutMs ?? 45_000;
		this.#after(limit, async () => {
			if (this.view.phase !== 'positioning' && this.view.phase !== 'holding' && this.view.phase !== 'challenge') return;
			// Out of time: show the server what the camera sees, and let it decide (no face, usually).
			await this.#endTry('timeout');
		});
	}

	async #reset(): Promise<void> {
		for (const t of this.#timers) this.#ports.clearTimeout(t);
		this.#timers.clear();
		this.#frames = [];
		this.#newHold();
		this.#samples = [];
		this.#lightWindow = null;
		this.#set({ light: null });
		this.#busy = false;
		this.#startedAt = this.#ports.now();
		await this.#ports.analyser.drop('all').catch(() => undefined);
		this.#armTimeout();
	}

	#fail(reason: FaceFailureReason): void {
		this.#ports.cue('fail');
		this.#set({ phase: 'failed', reason, message: failureKey(reason), light: null });
	}

	#stop(phase: 'done' | 'cancelled'): void {
		for (const t of this.#timers) this.#ports.clearTimeout(t);
		this.#timers.clear();
		this.#set({ phase, progress: phase === 'done' ? 1 : 0, message: phase === 'done' ? 'success' : null, light: null });
		void this.#ports.analyser.drop('all').catch(() => undefined);
	}

	#isOver(): boolean {
		return this.view.phase === 'done' || this.view.phase === 'cancelled';
	}

	#after(ms: number, fn: () => void | Promise<void>): void {
		const handle = this.#ports.setTimeout(() => {
			this.#timers.delete(handle);
			if (!this.#isOver()) void fn();
		}, ms);
		this.#timers.add(handle);
	}

	#set(patch: Partial<CaptureView>): void {
		this.view = { ...this.view, ...patch };
		for (const fn of this.#listeners) fn(this.view);
	}
}

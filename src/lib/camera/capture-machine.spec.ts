import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FaceQualityMetrics } from '#lib/face/quality.ts';
import { verifyTurnContinuity } from '#lib/face/turn-continuity.ts';
import { qualityGate } from '#lib/face/quality-gate.ts';
import { CaptureMachine, type CaptureConfig, type CapturePorts, type Cue, type EvidencePayload, type UploadAnswer } from './capture-machine.ts';
import type { FaceAnalyser } from './face-worker-client.ts';
import type { FrameResult } from './face-worker-protocol.ts';
import type { LiveCheck } from './frame-gate.ts';
import { MAX_EVIDENCE_FRAMES } from '#lib/domain/page/face-evidence.schema.ts';
import { issueLightSequence, LIGHT_ISSUED_STEPS, LIGHT_SHOWN_AT_LEAST, LIGHT_TAIL_MS } from '#lib/domain/face/light-challenge.ts';
import { CHALLENGE_ONSET_SHARE, CHALLENGE_TURN_DELTA } from '#lib/face/face-thresholds.ts';

/** 'off': no frame yet (the camera is starting, the detector is loading). */
type Scene = 'none' | 'good' | 'small' | 'off';

/** A fake camera + detector + worker: what the "user" does is a function of time since the test began. */
function harness(script: { scene: (t: number) => Scene; yaw?: (t: number) => number; ear?: (t: number) => number; covered?: (t: number) => boolean; liveness?: number; analyseMs?: number; uploadMs?: number }, answers: UploadAnswer[] = [{ kind: 'moved' }]) {
	const t0 = Date.now();
	const at = () => Date.now() - t0;
	const uploads: EvidencePayload[] = [];
	const cues: Cue[] = [];
	const dropped: (number[] | 'all')[] = [];
	const face = (size: number): FaceQualityMetrics => ({ faceSize: size, centreOffset: 0.02, yaw: 0, pitch: 0, roll: 0, sharpness: 200, luminance: 120, eyeAspectRatio: NaN });
	const check = (): LiveCheck | null => {
		const scene = script.scene(at());
		if (scene === 'off') return null;
		const quality = scene === 'none' ? { faceCount: 0, face: null } : { faceCount: 1, face: face(scene === 'good' ? 200 : 60) };
		const box = scene === 'none' ? null : { x: 200, y: 120, width: 200, height: 200 };
		return { quality, verdict: qualityGate(quality), box, frBox: box };
	};
	const analyser: FaceAnalyser = {
		ready: async () => ({ ms: 1, backend: 'fake' }),
		async analyse(frameId, _bitmap, _box, want) {
			const t = at();
			// A slow phone's worker: the answer comes this long after the frame was taken.
			if (script.analyseMs) await new Promise((r) => setTimeout(r, script.analyseMs));
			const present = script.scene(t) === 'good' || script.scene(t) === 'small';
			const signature = new Float32Array(256).fill(frameId % 7);
			const result: FrameResult = {
				frameId,
				width: 640,
				height: 480,
				face: present ? { box: { x: 0, y: 0, width: 1, height: 1 }, yaw: script.yaw?.(t) ?? 0, pitch: 0, roll: 0, ear: script.ear?.(t) ?? 0.3, landmarks5: [] as never, ...(script.covered?.(t) ? { hidden: ['eyes' as const] } : {}) } : null,
				embedding: present && want.embed ? new Float32Array([1, 0, 0]) : null,
				liveness: present && want.liveness ? (script.liveness ?? 0.9) : null,
				signature,
				ms: 5
			};
			return result;
		},
		keep: async () => {
			// Storing a transferred bitmap: quick whatever the worker's models are doing.
			if (script.analyseMs) await new Promise((r) => setTimeout(r, 5));
		},
		embed: async () => new Float32Array([1, 0, 0]),
		encode: async (ids, aligned) => ({ frames: ids.map((frameId) => ({ frameId, jpeg: new ArrayBuffer(10) })), aligned: aligned === null ? null : new ArrayBuffer(5) }),
		drop: async (ids) => void dropped.push(ids)
	};
	const ports: CapturePorts = {
		now: () => Date.now(),
		setTimeout: (fn, ms) => setTimeout(fn, ms),
		clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
		check,
		grab: async () => ({ close() {} }) as unknown as ImageBitmap,
		analyser,
		upload: async (e) => {
			uploads.push(e);
			// The server's verdict takes its time (analysis of every frame).
			if (script.uploadMs) await new Promise((r) => setTimeout(r, script.uploadMs));
			return answers.shift() ?? { kind: 'moved' };
		},
		cue: (c) => void cues.push(c),
		camera: () => ({ label: 'Test Camera', virtual: false, width: 640, height: 480 })
	};
	return { ports, uploads, cues, dropped, at };
}

const config = (over: Partial<CaptureConfig> = {}): CaptureConfig => ({ challenge: null, captureDelay: 900, detectionInterval: 100, claimOutcomes: { success: 'livenessDetected', failure: 'deepfakeDetected' }, ...over });

describe('CaptureMachine (fake detector, fake timers)', () => {
	beforeEach(() => vi.useFakeTimers({ now: 1_800_000_000_000 }));
	afterEach(() => vi.useRealTimers());

	it('on a slow worker the ring never runs ahead of the frames analysed: full only as the capture happens', async () => {
		const h = harness({ scene: () => 'good', analyseMs: 1500 });
		const m = new CaptureMachine(h.ports, config({ captureDelay: 900 }));
		const seen: { phase: string; progress: number }[] = [];
		m.subscribe((v) => seen.push({ phase: v.phase, progress: v.progress }));
		await m.start();
		// Past captureDelay, but only the first of three frames is back: the ring shows a third.
		await vi.advanceTimersByTimeAsync(2000);
		expect(m.view.phase).toBe('holding');
		expect(m.view.progress).toBeCloseTo(1 / 3, 5);
		await vi.advanceTimersByTimeAsync(6000);
		expect(h.uploads).toHaveLength(1);
		// While holding, a full ring was never shown before the capture began.
		const holding = seen.filter((v) => v.phase === 'holding');
		expect(holding.length).toBeGreaterThan(5);
		expect(holding.filter((v) => v.progress >= 1).length).toBeLessThanOrEqual(1);
		expect(Math.max(...holding.map((v) => v.progress))).toBeGreaterThan(0.6);
	});

	it('guides the user into place, holds for captureDelay, then checks the challenge and uploads', async () => {
		const h = harness({ scene: (t) => (t < 500 ? 'none' : t < 1000 ? 'small' : 'good'), yaw: (t) => (t < 2600 ? 0 : 28) });
		const m = new CaptureMachine(h.ports, config({ challenge: 'turnLeft' }));
		const messages: string[] = [];
		m.subscribe((v) => {
			if (v.message && messages.at(-1) !== v.message) messages.push(v.message);
		});
		await m.start();
		await vi.advanceTimersByTimeAsync(300);
		expect(m.view).toMatchObject({ phase: 'positioning', message: 'guidance.noFace' });
		await vi.advanceTimersByTimeAsync(500);
		expect(m.view.message).toBe('guidance.moveCloser');
		await vi.advanceTimersByTimeAsync(500);
		expect(m.view).toMatchObject({ phase: 'holding', message: 'guidance.good' });
		expect(m.view.progress).toBeLessThan(1);
		await vi.advanceTimersByTimeAsync(1000);
		expect(m.view).toMatchObject({ phase: 'challenge', challenge: 'turnLeft', message: 'guidance.turnLeft' });
		await vi.advanceTimersByTimeAsync(3000);
		expect(m.view.phase).toBe('done');
		expect(h.cues).toEqual(['ready', 'capture', 'success']);
		expect(messages.slice(0, 4)).toEqual(['guidance.loading', 'guidance.noFace', 'guidance.moveCloser', 'guidance.good']);

		const [upload] = h.uploads;
		expect(upload.claim).toMatchObject({ outcome: 'livenessDetected', liveness: 0.9, challenge: { type: 'turnLeft', passed: true }, camera: { label: 'Test Camera' } });
		expect(upload.frames.length).toBeLessThanOrEqual(MAX_EVIDENCE_FRAMES);
		expect(upload.frames.filter((f) => f.kind === 'best')).toHaveLength(1);
		expect(upload.frames.filter((f) => f.kind === 'challenge').length).toBeGreaterThanOrEqual(3);
		// In time order, as the server will read them.
		expect(upload.frames.map((f) => f.t)).toEqual([...upload.frames.map((f) => f.t)].sort((a, b) => a - b));
		expect(upload.alignedFace).not.toBeNull();
	});

	it('shows the light challenge while the head turns, keeps capturing till the colours are over, and uploads the turn and the colours', async () => {
		const light = {
			steps: [
				{ colour: '#4f7ff0', ms: 400 },
				{ colour: '#e0c040', ms: 550 },
				{ colour: '#3fbf7f', ms: 350 },
				{ colour: '#b070e0', ms: 500 },
				{ colour: '#40c0d0', ms: 450 }
			]
		};
		// A cooperative user: turns left at ~90°/s half a second after being asked (the challenge begins near 1.9 s).
		const yaw = (t: number) => Math.max(0, Math.min(30, (t - 2400) * 0.09));
		const run = async (withLight: boolean) => {
			const h = harness({ scene: () => 'good', yaw });
			const m = new CaptureMachine(h.ports, config({ challenge: 'turnLeft', light: withLight ? light : null }));
			const colours: (string | null)[] = [];
			m.subscribe((v) => {
				if (colours.at(-1) !== v.light) colours.push(v.light);
			});
			await m.start();
			let doneAt = -1;
			for (let t = 0; t < 10_000 && doneAt < 0; t += 50) {
				await vi.advanceTimersByTimeAsync(50);
				if (m.view.phase === 'done') doneAt = h.at();
			}
			return { h, colours, doneAt, m };
		};
		const plain = await run(false);
		const lit = await run(true);
		expect(lit.m.view.phase).toBe('done');
		// Every colour, in order, then none.
		expect(lit.colours.filter((c) => c !== null)).toEqual(light.steps.map((s) => s.colour));
		expect(lit.colours.at(-1)).toBeNull();
		expect(plain.colours.filter((c) => c !== null)).toEqual([]);
		const [upload] = lit.h.uploads;
		expect(upload.lightStartedAt).toBeGreaterThan(0);
		expect(upload.frames.length).toBeLessThanOrEqual(MAX_EVIDENCE_FRAMES);
		const start = upload.lightStartedAt!;
		const duration = light.steps.reduce((a, s) => a + s.ms, 0);
		const inWindow = upload.frames.filter((f) => f.t >= start && f.t <= start + duration + 300);
		expect(inWindow.length).toBeGreaterThanOrEqual(8);
		// The turn's frames go up in small steps: frontal, on the way, turned.
		const yaws = upload.frames.map((f) => yaw(f.t));
		expect(yaws.some((y) => y > 5 && y < 25)).toBe(true);
		// …which the server's continuity check accepts on the uploaded frames alone.
		const box = { x: 200, y: 120, width: 200, height: 200 };
		expect(verifyTurnContinuity(1, upload.frames.map((f) => ({ t: f.t, yaw: yaw(f.t), box })))).toMatchObject({ continuous: true });
		// Each step has a frame after its change (the late-response check reads it).
		let at = start;
		for (const step of light.steps) {
			expect(upload.frames.some((f) => f.t > at + 100 && f.t < at + step.ms + 150), `step at ${at}`).toBe(true);
			at += step.ms;
		}
		// The time the light adds to the node on this script: the colours outlast the turn.
		const added = lit.doneAt - plain.doneAt;
		expect(added).toBeGreaterThan(0);
		expect(added).toBeLessThan(duration + 300);
		console.info(`light challenge adds ${added} ms (sequence ${duration} ms; node ${plain.doneAt} → ${lit.doneAt} ms)`);
	});

	it('on a slow device the light is still seen at every step: its frames are taken when due, not after the worker', async () => {
		const light = {
			steps: [
				{ colour: '#4f7ff0', ms: 350 },
				{ colour: '#e0c040', ms: 400 },
				{ colour: '#3fbf7f', ms: 350 },
				{ colour: '#b070e0', ms: 450 },
				{ colour: '#40c0d0', ms: 350 },
				{ colour: '#e09050', ms: 400 }
			]
		};
		// Each analysed frame takes 700 ms in the worker (a busy low-end phone: 400–1900 ms were measured).
		const h = harness({ scene: () => 'good', yaw: (t) => Math.max(0, Math.min(30, (t - 3000) * 0.09)), analyseMs: 700 });
		const m = new CaptureMachine(h.ports, config({ challenge: 'turnLeft', light }));
		await m.start();
		for (let t = 0; t < 20_000 && m.view.phase !== 'done'; t += 50) await vi.advanceTimersByTimeAsync(50);
		expect(m.view.phase).toBe('done');
		const [upload] = h.uploads;
		const start = upload.lightStartedAt!;
		const duration = light.steps.reduce((a, s) => a + s.ms, 0);
		const inWindow = upload.frames.filter((f) => f.t >= start && f.t <= start + duration + 300);
		// The server's light check wants 8 frames in the window and every step but one seen.
		expect(inWindow.length).toBeGreaterThanOrEqual(8);
		let at = start;
		for (const step of light.steps) {
			expect(upload.frames.some((f) => f.t >= at + 200 && f.t < at + step.ms), `step at ${at}`).toBe(true);
			at += step.ms;
		}
		expect(upload.frames.length).toBeLessThanOrEqual(MAX_EVIDENCE_FRAMES);
		// In time order, as the server reads them, and the claim does not call them out of order.
		expect(upload.frames.map((f) => f.t)).toEqual([...upload.frames.map((f) => f.t)].sort((a, b) => a - b));
		expect(upload.claim.timing?.nonMonotonic).toBe(false);
	});

	it('shows the six colours every try needs, and more only while the turn is not under way (a slow reactor)', async () => {
		const light = issueLightSequence((n) => 1 % n);
		expect(light.steps).toHaveLength(LIGHT_ISSUED_STEPS);
		const onsetYaw = CHALLENGE_ONSET_SHARE * CHALLENGE_TURN_DELTA;
		// The challenge begins near 1.9 s; a user turning at 60°/s `reactMs` after it, on a worker taking `analyseMs` a frame.
		const run = async (reactMs: number, analyseMs: number) => {
			const yaw = (t: number) => Math.max(0, Math.min(30, (t - 1900 - reactMs) * 0.06));
			const h = harness({ scene: () => 'good', yaw, analyseMs });
			const m = new CaptureMachine(h.ports, config({ challenge: 'turnLeft', light }));
			const colours: (string | null)[] = [];
			m.subscribe((v) => {
				if (colours.at(-1) !== v.light) colours.push(v.light);
			});
			await m.start();
			for (let t = 0; t < 20_000 && m.view.phase !== 'done'; t += 50) await vi.advanceTimersByTimeAsync(50);
			expect(m.view.phase).toBe('done');
			const [upload] = h.uploads;
			const changedAt = upload.lightChangedAt!;
			const shown = colours.filter((c) => c !== null);
			expect(shown).toEqual(light.steps.slice(0, changedAt.length).map((s) => s.colour));
			// What the server reads: the turn under way while the colours showed (or in the camera's latency after)…
			const onset = upload.frames.find((f) => yaw(f.t) >= onsetYaw);
			expect(onset, 'a frame of the turn under way').toBeDefined();
			expect(onset!.t).toBeLessThanOrEqual(changedAt.at(-1)! + LIGHT_TAIL_MS);
			// …and the light on 8 frames or more in its window, every colour shown but one seen.
			const start = upload.lightStartedAt!;
			const ons = [start, ...changedAt.slice(0, -1)];
			const inWindow = upload.frames.filter((f) => f.t >= start && f.t <= changedAt.at(-1)! + LIGHT_TAIL_MS);
			expect(inWindow.length).toBeGreaterThanOrEqual(8);
			const seen = ons.filter((on, k) => upload.frames.some((f) => f.t >= on && f.t < changedAt[k]!)).length;
			expect(seen).toBeGreaterThanOrEqual(changedAt.length - 1);
			expect(upload.frames.length).toBeLessThanOrEqual(MAX_EVIDENCE_FRAMES);
			return changedAt.length;
		};
		// Turning at once: the six colours and no more (no one is kept waiting).
		expect(await run(300, 50)).toBe(LIGHT_SHOWN_AT_LEAST);
		// Turning 2.5 s after the prompt on a slow worker: the colours go on until the page has seen the turn.
		const slow = await run(2500, 400);
		expect(slow).toBeGreaterThan(LIGHT_SHOWN_AT_LEAST);
		expect(slow).toBeLessThanOrEqual(LIGHT_ISSUED_STEPS);
	});

	it('asks a face in dark glasses to uncover while it holds, and captures anyway (the server decides)', async () => {
		const h = harness({ scene: () => 'good', covered: (t) => t < 1500, analyseMs: 50 });
		const m = new CaptureMachine(h.ports, config({ captureDelay: 2400 }));
		const messages: string[] = [];
		m.subscribe((v) => {
			if (v.message && messages.at(-1) !== v.message) messages.push(v.message);
		});
		await m.start();
		await vi.advanceTimersByTimeAsync(1400);
		expect(m.view).toMatchObject({ phase: 'holding', message: 'guidance.faceCovered' });
		// The glasses come off: the next frame analysed says so, and the hold was never broken.
		await vi.advanceTimersByTimeAsync(4000);
		expect(messages.slice(0, 5)).toEqual(['guidance.loading', 'guidance.good', 'guidance.faceCovered', 'guidance.good', 'guidance.checking']);
		expect(h.uploads).toHaveLength(1);
	});

	it('starts the hold over when the face leaves, and drops the frames of the broken hold', async () => {
		const h = harness({ scene: (t) => (t < 600 || t > 1200 ? 'good' : 'none') });
		const m = new CaptureMachine(h.ports, config({ captureDelay: 1500 }));
		await m.start();
		await vi.advanceTimersByTimeAsync(1100);
		expect(m.view.phase).toBe('positioning');
		expect(h.dropped.some((d) => Array.isArray(d) && d.length > 0)).toBe(true);
		await vi.advanceTimersByTimeAsync(2500);
		expect(m.view.phase).toBe('done');
		expect(h.uploads[0].frames.filter((f) => f.kind === 'passive' || f.kind === 'best').every((f) => f.t > 1200)).toBe(true);
	});

	it('says what to do differently when the server names the part that failed (the colours not seen on the face)', async () => {
		const h = harness({ scene: () => 'good', ear: (t) => (t > 6000 && t < 6300 ? 0.05 : 0.3) }, [{ kind: 'retry', reason: 'challengeFailed', hint: 'lightNotSeen', challenge: 'blink', triesLeft: 2 }, { kind: 'moved' }]);
		const m = new CaptureMachine(h.ports, config({ captureDelay: 300 }));
		await m.start();
		await vi.advanceTimersByTimeAsync(1200);
		expect(m.view).toMatchObject({ phase: 'retry', reason: 'challengeFailed', message: 'failure.lightNotSeen', triesLeft: 2 });
	});

	it('says why a try failed, then starts again with the new challenge from the server', async () => {
		const h = harness({ scene: () => 'good', ear: (t) => (t > 6000 && t < 6300 ? 0.05 : 0.3) }, [{ kind: 'retry', reason: 'notLive', challenge: 'blink', triesLeft: 2 }, { kind: 'moved' }]);
		const m = new CaptureMachine(h.ports, config({ captureDelay: 300 }));
		await m.start();
		await vi.advanceTimersByTimeAsync(1200);
		expect(m.view).toMatchObject({ phase: 'retry', reason: 'notLive', message: 'failure.notLive', triesLeft: 2 });
		expect(h.cues).toContain('fail');
		await vi.advanceTimersByTimeAsync(2600);
		expect(['holding', 'challenge']).toContain(m.view.phase);
		await vi.advanceTimersByTimeAsync(4000);
		expect(m.view.phase).toBe('done');
		expect(h.uploads).toHaveLength(2);
		expect(h.uploads[1].claim.challenge).toEqual({ type: 'blink', passed: true });
	});

	it('uploads what the camera sees when the node runs out of time (the server decides noFace)', async () => {
		const h = harness({ scene: () => 'none' });
		const m = new CaptureMachine(h.ports, config({ timeoutMs: 5000 }));
		await m.start();
		await vi.advanceTimersByTimeAsync(5500);
		expect(h.uploads).toHaveLength(1);
		expect(h.uploads[0].claim).toMatchObject({ reason: 'timeout', outcome: 'deepfakeDetected' });
		expect(h.uploads[0].frames.map((f) => f.kind)).toEqual(['scene', 'scene', 'scene']);
	});

	it('uses frames grabbed before the node (recognition) without asking the user to pose', async () => {
		const h = harness({ scene: () => 'good' });
		const bitmap = { close() {} } as unknown as ImageBitmap;
		const m = new CaptureMachine(h.ports, config({ buffered: [{ bitmap, box: null }, { bitmap, box: null }], claimOutcomes: undefined }));
		await m.start();
		await vi.advanceTimersByTimeAsync(10);
		expect(m.view.phase).toBe('done');
		expect(h.uploads[0].frames).toHaveLength(2);
		expect(h.cues).toEqual(['success']);
	});

	it('stops everything on cancel: no upload afterwards', async () => {
		const h = harness({ scene: () => 'good' });
		const m = new CaptureMachine(h.ports, config({ captureDelay: 2000 }));
		await m.start();
		await vi.advanceTimersByTimeAsync(500);
		m.cancel();
		await vi.advanceTimersByTimeAsync(10_000);
		expect(m.view.phase).toBe('cancelled');
		expect(h.uploads).toHaveLength(0);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('says nothing about the face until the detector has looked: "Getting the camera ready…", then what it saw', async () => {
		const h = harness({ scene: (t) => (t < 700 ? 'off' : 'good') });
		const m = new CaptureMachine(h.ports, config({ captureDelay: 900 }));
		const messages: [number, string | null][] = [];
		m.subscribe((v) => {
			if (v.message && messages.at(-1)?.[1] !== v.message) messages.push([h.at(), v.message]);
		});
		await m.start();
		await vi.advanceTimersByTimeAsync(600);
		expect(m.view).toMatchObject({ phase: 'positioning', message: 'guidance.loading' });
		await vi.advanceTimersByTimeAsync(200);
		// The first words after "Getting the camera ready…" are the detector's: the face is there.
		expect(messages.map(([, k]) => k)).toEqual(['guidance.loading', 'guidance.good']);
		expect(messages[1][0]).toBeLessThanOrEqual(700 + 100);
	});

	it('the hold ends when the ring does: after a full ring the user reads "Checking…", never "hold it there"', async () => {
		const h = harness({ scene: () => 'good', uploadMs: 3000 });
		const m = new CaptureMachine(h.ports, config({ captureDelay: 900 }));
		const seen: { phase: string; message: string | null; progress: number; t: number }[] = [];
		m.subscribe((v) => seen.push({ phase: v.phase, message: v.message, progress: v.progress, t: h.at() }));
		await m.start();
		await vi.advanceTimersByTimeAsync(6000);
		expect(m.view.phase).toBe('done');
		const full = seen.findIndex((v) => v.progress >= 1);
		expect(full).toBeGreaterThan(0);
		const after = seen.slice(full).filter((v) => v.phase !== 'done');
		expect(after.length).toBeGreaterThan(0);
		for (const v of after) expect(v.message).toBe('guidance.checking');
		// "Checking…" from the moment the ring is full until the server answered, 3 s later.
		expect(seen.filter((v) => v.message === 'guidance.good').every((v) => v.t <= seen[full].t)).toBe(true);
	});

	/** The worker's models arrive `ms` after the node starts (a first visit on a slow link). */
	const modelsAfter = (h: ReturnType<typeof harness>, ms: number) => {
		h.ports.analyser.ready = () => new Promise((resolve) => setTimeout(() => resolve({ ms, backend: 'fake' }), ms));
	};

	it('while the worker’s models are still loading, the hold ends with its ring: frames taken on time, analysed once the models are in, under "Checking…"', async () => {
		const h = harness({ scene: () => 'good' });
		modelsAfter(h, 5000);
		const m = new CaptureMachine(h.ports, config({ captureDelay: 900, challenge: null }));
		const seen: { phase: string; message: string | null; progress: number; t: number }[] = [];
		m.subscribe((v) => seen.push({ phase: v.phase, message: v.message, progress: v.progress, t: h.at() }));
		await m.start();
		await vi.advanceTimersByTimeAsync(1500);
		// The user's part is over long before the models are: the ring is full and the page checks.
		expect(m.view).toMatchObject({ phase: 'analysing', message: 'guidance.checking', progress: 1 });
		expect(h.uploads).toHaveLength(0);
		const holding = seen.filter((v) => v.phase === 'holding');
		expect(Math.max(...holding.map((v) => v.progress))).toBeGreaterThan(0.6);
		expect(holding.every((v) => v.t < 1500)).toBe(true);
		await vi.advanceTimersByTimeAsync(4000);
		expect(m.view.phase).toBe('done');
		// The frames are the hold's, analysed after it: three passive ones, the best among them, taken in the first 1.2 s.
		const passive = h.uploads[0].frames.filter((f) => f.kind === 'passive' || f.kind === 'best');
		expect(passive).toHaveLength(3);
		expect(passive.filter((f) => f.kind === 'best')).toHaveLength(1);
		expect(passive.every((f) => f.t < 1200)).toBe(true);
		expect(h.uploads[0].claim).toMatchObject({ outcome: 'livenessDetected', liveness: 0.9 });
	});

	it('with a challenge to follow, the hold still ends with its ring; the challenge comes once the models are in (it needs each frame analysed as it comes)', async () => {
		const h = harness({ scene: () => 'good', yaw: (t) => (t < 5600 ? 0 : 28) });
		modelsAfter(h, 5000);
		const m = new CaptureMachine(h.ports, config({ captureDelay: 900, challenge: 'turnLeft' }));
		const phases: { phase: string; t: number }[] = [];
		m.subscribe((v) => {
			if (phases.at(-1)?.phase !== v.phase) phases.push({ phase: v.phase, t: h.at() });
		});
		await m.start();
		await vi.advanceTimersByTimeAsync(1500);
		expect(m.view).toMatchObject({ phase: 'analysing', message: 'guidance.checking', challenge: null });
		await vi.advanceTimersByTimeAsync(2500);
		expect(m.view.phase).toBe('analysing');
		await vi.advanceTimersByTimeAsync(5000);
		expect(m.view.phase).toBe('done');
		// Hold, a pause while the models come, then the challenge (not before they were in).
		expect(phases.map((p) => p.phase)).toEqual(['loading', 'positioning', 'holding', 'analysing', 'challenge', 'analysing', 'uploading', 'done']);
		expect(phases.find((p) => p.phase === 'challenge')!.t).toBeGreaterThanOrEqual(5000);
		expect(h.uploads[0].claim.challenge).toEqual({ type: 'turnLeft', passed: true });
		const passive = h.uploads[0].frames.filter((f) => f.kind === 'passive' || f.kind === 'best');
		expect(passive).toHaveLength(3);
		expect(passive.every((f) => f.t < 1200)).toBe(true);
	});

	it('frames of a hold broken off while the models load are dropped when they are analysed, not uploaded', async () => {
		const h = harness({ scene: (t) => (t < 600 || t > 1400 ? 'good' : 'none') });
		modelsAfter(h, 3000);
		const m = new CaptureMachine(h.ports, config({ captureDelay: 1500, challenge: null }));
		await m.start();
		await vi.advanceTimersByTimeAsync(1300);
		expect(m.view.phase).toBe('positioning');
		await vi.advanceTimersByTimeAsync(5000);
		expect(m.view.phase).toBe('done');
		expect(h.dropped.some((d) => Array.isArray(d) && d.length === 1)).toBe(true);
		const passive = h.uploads[0].frames.filter((f) => f.kind === 'passive' || f.kind === 'best');
		expect(passive).toHaveLength(3);
		expect(passive.every((f) => f.t > 1400)).toBe(true);
	});

	it('models that fail to load while frames wait for them end the try in an error, with nothing uploaded', async () => {
		const h = harness({ scene: () => 'good' });
		h.ports.analyser.ready = () => new Promise((_, reject) => setTimeout(() => reject(new Error('no models')), 3000));
		const m = new CaptureMachine(h.ports, config({ captureDelay: 900, challenge: null }));
		await m.start();
		await vi.advanceTimersByTimeAsync(1500);
		expect(m.view.phase).toBe('analysing');
		await vi.advanceTimersByTimeAsync(3000);
		expect(m.view).toMatchObject({ phase: 'failed', reason: 'error' });
		expect(h.uploads).toHaveLength(0);
	});

	it('a try with no face in view ends as noFace after a few seconds, not at the node time limit', async () => {
		const h = harness({ scene: () => 'none' }, [{ kind: 'retry', reason: 'noFace', challenge: null, triesLeft: 2 }, { kind: 'moved' }]);
		const m = new CaptureMachine(h.ports, config({ timeoutMs: 45_000 }));
		await m.start();
		await vi.advanceTimersByTimeAsync(7500);
		expect(h.uploads).toHaveLength(0);
		expect(m.view.message).toBe('guidance.noFace');
		await vi.advanceTimersByTimeAsync(1500);
		expect(h.uploads).toHaveLength(1);
		expect(h.uploads[0].claim).toMatchObject({ reason: 'noFace', outcome: 'deepfakeDetected' });
		expect(h.uploads[0].frames.map((f) => f.kind)).toEqual(['scene', 'scene', 'scene']);
		expect(m.view).toMatchObject({ phase: 'retry', triesLeft: 2, message: 'failure.noFace' });
		// The next try counts its own seconds: another 8 s after the pause, then the server's answer.
		await vi.advanceTimersByTimeAsync(2500 + 8000 + 500);
		expect(h.uploads).toHaveLength(2);
		expect(m.view.phase).toBe('done');
	});

	it('a face in view, even one the gate refuses, keeps the try going (the user is there, being guided)', async () => {
		const h = harness({ scene: (t) => (t < 5000 ? 'none' : 'small') });
		const m = new CaptureMachine(h.ports, config({ timeoutMs: 45_000 }));
		await m.start();
		await vi.advanceTimersByTimeAsync(20_000);
		expect(h.uploads).toHaveLength(0);
		expect(m.view).toMatchObject({ phase: 'positioning', message: 'guidance.moveCloser' });
	});
});

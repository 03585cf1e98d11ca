import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FaceQualityMetrics } from '#lib/face/quality.ts';
import { qualityGate } from '#lib/face/quality-gate.ts';
import { CaptureMachine, type CaptureConfig, type CapturePorts, type Cue, type EvidencePayload, type UploadAnswer } from './capture-machine.ts';
import type { FaceAnalyser } from './face-worker-client.ts';
import type { FrameResult } from './face-worker-protocol.ts';
import type { LiveCheck } from './frame-gate.ts';

type Scene = 'none' | 'good' | 'small';

/** A fake camera + detector + worker: what the "user" does is a function of time since the test began. */
function harness(script: { scene: (t: number) => Scene; yaw?: (t: number) => number; ear?: (t: number) => number; liveness?: number; analyseMs?: number }, answers: UploadAnswer[] = [{ kind: 'moved' }]) {
	const t0 = Date.now();
	const at = () => Date.now() - t0;
	const uploads: EvidencePayload[] = [];
	const cues: Cue[] = [];
	const dropped: (number[] | 'all')[] = [];
	const face = (size: number): FaceQualityMetrics => ({ faceSize: size, centreOffset: 0.02, yaw: 0, pitch: 0, roll: 0, sharpness: 200, luminance: 120, eyeAspectRatio: NaN });
	const check = (): LiveCheck => {
		const scene = script.scene(at());
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
			const present = script.scene(t) !== 'none';
			const signature = new Float32Array(256).fill(frameId % 7);
			const result: FrameResult = {
				frameId,
				width: 640,
				height: 480,
				face: present ? { box: { x: 0, y: 0, width: 1, height: 1 }, yaw: script.yaw?.(t) ?? 0, pitch: 0, roll: 0, ear: script.ear?.(t) ?? 0.3, landmarks5: [] as never } : null,
				embedding: present && want.embed ? new Float32Array([1, 0, 0]) : null,
				liveness: present && want.liveness ? (script.liveness ?? 0.9) : null,
				signature,
				ms: 5
			};
			return result;
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
		expect(upload.frames.length).toBeLessThanOrEqual(12);
		expect(upload.frames.filter((f) => f.kind === 'best')).toHaveLength(1);
		expect(upload.frames.filter((f) => f.kind === 'challenge').length).toBeGreaterThanOrEqual(3);
		// In time order, as the server will read them.
		expect(upload.frames.map((f) => f.t)).toEqual([...upload.frames.map((f) => f.t)].sort((a, b) => a - b));
		expect(upload.alignedFace).not.toBeNull();
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
});

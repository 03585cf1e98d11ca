import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasFfmpeg, makeClip } from '../../../../tests/helpers/video.ts';
import { FACE_CRITERIA, VideoAnalyzer } from './video-analyzer.ts';

const TOOLS = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
const opener = (bytes: Uint8Array) => async () => new Blob([bytes as Uint8Array<ArrayBuffer>]).stream() as ReadableStream<Uint8Array>;
const byId = (a: Awaited<ReturnType<VideoAnalyzer['analyse']>>) => Object.fromEntries(a.criteria.map((c) => [c.id, c]));

describe('VideoAnalyzer', () => {
	let dir: string;
	const clips: Record<string, Buffer> = {};
	const analyzer = new VideoAnalyzer(TOOLS, () => 1_800_000_000_000);

	beforeAll(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'vf-clips-'));
		if (!hasFfmpeg()) throw new Error('These tests need ffmpeg and ffprobe on PATH (Debian: apt-get install ffmpeg)');
		for (const kind of ['moving', 'frozen', 'looped', 'stalled'] as const) clips[kind] = makeClip(dir, kind);
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('measures a live-looking clip: frames, duration, rate, and no criterion detected', async () => {
		const a = await analyzer.analyse(opener(clips.moving));
		expect(a).toMatchObject({ status: 'completed', createdAt: 1_800_000_000_000, frameCount: 60, sampledFps: 10 });
		expect(a.durationMs).toBeGreaterThanOrEqual(3900);
		expect(a.durationMs).toBeLessThanOrEqual(4100);
		expect(a.averageFps).toBeCloseTo(15, 0);
		expect(a.framesAnalysed).toBeGreaterThanOrEqual(38);
		const c = byId(a);
		expect(Object.keys(c)).toEqual(['frozen_video', 'repeated_footage', 'recording_gaps']);
		expect(Object.values(c).map((x) => x.detected)).toEqual([false, false, false]);
		for (const x of Object.values(c)) expect(x.confidence).toBeGreaterThanOrEqual(0.5);
		// The face criteria are listed as not evaluated, not guessed.
		expect(a.notEvaluated.map((n) => n.id)).toEqual(FACE_CRITERIA.map((f) => f.id));
	});

	it('detects a frozen picture', async () => {
		const c = byId(await analyzer.analyse(opener(clips.frozen)));
		expect(c.frozen_video.detected).toBe(true);
		expect(c.frozen_video.confidence).toBe(1);
		expect(c.repeated_footage.detected).toBe(false);
	});

	it('detects one second of footage played again and again', async () => {
		const c = byId(await analyzer.analyse(opener(clips.looped)));
		expect(c.repeated_footage).toMatchObject({ detected: true });
		expect(c.repeated_footage.details).toMatch(/appears again 1 s later/);
		expect(c.frozen_video.detected).toBe(false);
	});

	it('detects a stall in the frame timestamps', async () => {
		const a = await analyzer.analyse(opener(clips.stalled));
		const c = byId(a);
		expect(c.recording_gaps.detected).toBe(true);
		expect(c.recording_gaps.details).toMatch(/1 gap\(s\).*longest 2\.1 s/);
	});

	it('says so, instead of guessing, when there is no video, no decoder, or garbage', async () => {
		expect(await analyzer.analyse(null)).toMatchObject({ status: 'no_video', framesAnalysed: 0, criteria: [] });
		const missing = new VideoAnalyzer({ ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' }, Date.now);
		const unavailable = await missing.analyse(opener(clips.moving));
		expect(unavailable).toMatchObject({ status: 'unavailable', framesAnalysed: 0, criteria: [] });
		expect(unavailable.message).toMatch(/not installed/);
		const garbage = await analyzer.analyse(opener(new Uint8Array(5000).fill(7)));
		expect(garbage).toMatchObject({ status: 'undecodable', criteria: [] });
	});

	it('hands the recording to registered analyzers and drops their criteria from notEvaluated', async () => {
		const withFace = new VideoAnalyzer(TOOLS, Date.now);
		let seen = 0;
		withFace.register({
			criteria: ['face_presence'],
			async analyse({ open, durationMs }) {
				const reader = (await open()).getReader();
				for (;;) {
					const { done, value } = await reader.read();
					if (done) break;
					seen += value.length;
				}
				return [{ id: 'face_presence', title: 'Face presence ratio', detected: false, confidence: 0.9, details: `${durationMs} ms` }];
			}
		});
		const a = await withFace.analyse(opener(clips.moving));
		expect(seen).toBe(clips.moving.length);
		expect(a.criteria.map((c) => c.id)).toContain('face_presence');
		expect(a.notEvaluated.map((n) => n.id)).not.toContain('face_presence');
		expect(a.notEvaluated).toHaveLength(FACE_CRITERIA.length - 1);
	});
});

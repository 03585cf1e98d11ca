import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '#lib/domain/errors.ts';
import { STORE_KINDS, createTestApp } from '../../../../tests/helpers/test-store.ts';
import { createBody } from '../../../../tests/helpers/flows.ts';
import { hasFfmpeg, makeClip } from '../../../../tests/helpers/video.ts';
import type { ApiPrincipal } from '../repositories/account.repository.ts';
import type { PagePrincipal } from './page.service.ts';
import { PostSessionService } from './post-session.service.ts';
import { VIDEO_GRACE_MS } from './video.service.ts';
import { VideoAnalyzer } from '../video/video-analyzer.ts';

const T0 = 1_800_000_000_000;
const DAY = 86_400_000;
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f6e3f60000000049454e44ae426082', 'hex');

async function expectApiError(p: Promise<unknown>, code: string | undefined, status: number) {
	const err = await p.then(
		() => null,
		(e: unknown) => e
	);
	expect(err, `expected ${code}`).toBeInstanceOf(ApiError);
	expect({ code: (err as ApiError).code, status: (err as ApiError).status }).toEqual({ code, status });
}

describe.each(STORE_KINDS)('session video, post-session work, report and retention on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let dataDir: string;
	let t = T0;
	let integrator: ApiPrincipal;
	let live: ApiPrincipal;
	let clip: Buffer;
	let chunks: Buffer[];

	beforeAll(async () => {
		dataDir = mkdtempSync(path.join(tmpdir(), 'vf-post-'));
		if (!hasFfmpeg()) throw new Error('These tests need ffmpeg on PATH (Debian: apt-get install ffmpeg)');
		clip = makeClip(dataDir, 'moving', 3);
		const size = Math.ceil(clip.length / 5);
		chunks = Array.from({ length: 5 }, (_, i) => clip.subarray(i * size, (i + 1) * size));
		app = await createTestApp(kind, { DATA_DIR: dataDir }, () => t);
		const account = await app.accounts.createAccount('Int');
		integrator = (await app.accounts.authenticate((await app.accounts.createApiKey(account, 'test')).key))!;
		live = (await app.accounts.authenticate((await app.accounts.createApiKey(account, 'live')).key))!;
	});
	afterAll(async () => {
		await app?.dispose();
		rmSync(dataDir, { recursive: true, force: true });
	});

	async function started(settings: Record<string, unknown> = {}, principal = integrator): Promise<{ id: string; page: PagePrincipal }> {
		const { result } = await app.sessions.create(principal, createBody(settings));
		await app.uow.transaction((repos) => app.sessions.transition(repos, result.session.id, 'inProgress', { lang: 'en' }));
		return { id: result.session.id, page: { sessionId: result.session.id, role: 'primary', tokenHash: 'x' } };
	}
	const finish = (id: string, to: 'complete' | 'incomplete' = 'complete') => app.uow.transaction((repos) => app.sessions.transition(repos, id, to));
	const events = async (id: string) => (await app.uow.repos.outbox.listForSession(id)).map((e) => e.type);
	const sessionFiles = (id: string) => {
		const dir = path.join(dataDir, 'media', 'sessions', id);
		return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).filter((f) => !path.basename(f).startsWith('.')) : [];
	};

	it('stores chunks idempotently per seq, reports gaps, and refuses what does not fit', async () => {
		const { id, page } = await started({ retainSessionMedia: true });
		await expectApiError(app.video.putChunk(page, 0, JPEG), 'unsupported_media_type', 415);
		const two = await app.video.putChunk(page, 2, chunks[2]);
		expect(two).toMatchObject({ seq: 2, duplicate: false, enabled: true, state: 'recording', chunks: 1, nextSeq: 3, missing: [0, 1] });
		await app.video.putChunk(page, 0, chunks[0]);
		const again = await app.video.putChunk(page, 0, chunks[0]);
		expect(again).toMatchObject({ duplicate: true, chunks: 2, missing: [1], bytes: chunks[0].length + chunks[2].length });
		await expectApiError(app.video.putChunk(page, 0, Buffer.concat([chunks[0], Buffer.from('x')])), 'chunk_conflict', 409);
		expect(await app.video.status(page)).toMatchObject({ chunks: 2, nextSeq: 3, missing: [1], finalSeq: null });
		await expectApiError(app.video.putChunk({ ...page, role: 'observer' }, 1, chunks[1]), 'node_not_current', 409);
		await expectApiError(app.video.putChunk(page, -1, chunks[1]), undefined, 400);
		// Two objects in the store: the conflicting upload left nothing behind.
		expect(sessionFiles(id).filter((f) => f.includes('video-chunks/'))).toHaveLength(2);

		const off = await started({});
		expect((await app.video.status(off.page)).enabled).toBe(false);
		await expectApiError(app.video.putChunk(off.page, 0, chunks[0]), 'video_not_enabled', 409);
	});

	it('assembles the video after the grace period, fires media.user_video and analysis.video, and keeps it with retainSessionMedia', async () => {
		const { id, page } = await started({ retainSessionMedia: true, videoAIAnalysisEnabled: true });
		for (const seq of [0, 1, 3, 2, 4]) await app.video.putChunk(page, seq, chunks[seq]);
		t += 1000;
		const finishedAt = t;
		await finish(id);
		await app.relay.drain();
		t = finishedAt + VIDEO_GRACE_MS - 1;
		expect(await app.postSession.runDue()).toBe(0);
		t = finishedAt + VIDEO_GRACE_MS;
		expect(await app.postSession.runDue()).toBe(1);

		expect(await events(id)).toEqual(['session.status', 'session.status', 'session.status', 'media.user_video', 'analysis.video']);
		const [video] = await app.media.list(id, ['user_video']);
		expect(video).toMatchObject({ contentType: 'video/webm', size: clip.length });
		const body = await app.media.read(video.storeKey);
		expect(Buffer.from(await new Response(body).arrayBuffer()).equals(clip)).toBe(true);
		// The chunks are gone once the file exists.
		expect(sessionFiles(id)).toEqual(['user-video']);
		await expectApiError(app.video.putChunk(page, 5, chunks[4]), 'video_closed', 409);

		const { session } = await app.sessions.get(integrator, id);
		expect(session.report!.videos!.userVideoUrl).toMatch(new RegExp(`^http://veriflow.test/media/${video.id}\\?exp=${t + 15 * 60_000}&sig=[0-9a-f]{64}$`));
		expect(session.report!.videoAIAnalysis).toMatchObject({ status: 'completed', frameCount: 45, criteria: [{ id: 'frozen_video', detected: false }, { id: 'repeated_footage', detected: false }, { id: 'recording_gaps', detected: false }] });
		const [mediaEvent] = (await app.uow.repos.outbox.listForSession(id)).filter((e) => e.type === 'media.user_video');
		expect(mediaEvent.payload.media).toMatchObject({ id: video.id, contentType: 'video/webm', createdAt: t });
		expect((await app.uow.repos.postSession.find(id))!.state).toBe('done');
	});

	it('without retainSessionMedia analyses the video, then deletes it and the document photos, keeping face photos', async () => {
		const { id, page } = await started({ videoAIAnalysisEnabled: true });
		const doc = await app.media.ingest({ sessionId: id, kind: 'document_photo', bytes: PNG, nodeId: 'doc' });
		const face = await app.media.ingest({ sessionId: id, kind: 'user_photo', bytes: JPEG, nodeId: 'face' });
		for (let seq = 0; seq < 5; seq++) await app.video.putChunk(page, seq, chunks[seq], seq === 4);
		t += 1000;
		await finish(id, 'incomplete');
		await app.relay.drain();
		// The page said chunk 4 was the last one: no grace period to wait out.
		expect(await app.postSession.runDue()).toBe(1);
		expect(await events(id)).toEqual(['session.status', 'session.status', 'media.document_photo', 'media.user_photo', 'session.status', 'analysis.video']);
		const { session } = await app.sessions.get(integrator, id);
		expect(session.report!.videoAIAnalysis!.status).toBe('completed');
		expect(session.report!.videos).toEqual({});
		const kept = await app.media.list(id);
		expect(kept.map((m) => m.id)).toEqual([face.id]);
		expect((await app.uow.repos.media.find(doc.id))!.deletedAt).toBe(t);
		expect(sessionFiles(id)).toEqual([face.id]);
		expect((await app.uow.repos.media.findRecording(id))!.state).toBe('discarded');
	});

	it('records that no video came, fires analysis.video, and runs no screenshot analysis without a model', async () => {
		const { id } = await started({ videoAIAnalysisEnabled: true });
		await app.media.ingest({ sessionId: id, kind: 'screenshot', bytes: JPEG });
		await finish(id);
		await app.relay.drain();
		await app.postSession.runDue();
		expect(await events(id)).toEqual(['session.status', 'session.status', 'session.status', 'analysis.video']);
		const { session } = await app.sessions.get(integrator, id);
		expect(session.report!.videoAIAnalysis).toMatchObject({ status: 'no_video', framesAnalysed: 0, criteria: [] });
		expect(session.report).not.toHaveProperty('aiAnalysis');
		expect(session.report!.screenshots).toEqual([expect.stringMatching(/^http:\/\/veriflow\.test\/media\/med_/)]);

		// A session without videoAIAnalysisEnabled gets no video analysis at all.
		const plain = await started({});
		await finish(plain.id);
		await app.relay.drain();
		await app.postSession.runDue();
		expect(await events(plain.id)).toEqual(['session.status', 'session.status', 'session.status']);
		expect((await app.sessions.get(integrator, plain.id)).session.report).not.toHaveProperty('videoAIAnalysis');
	});

	it('stores aiAnalysis and fires analysis.screenshot once a screenshot analyzer is registered', async () => {
		const { id } = await started({});
		await app.media.ingest({ sessionId: id, kind: 'screenshot', bytes: JPEG });
		let given = 0;
		// The analyser is given at construction: this service runs the app's due work with a fake one.
		const withFakeModel = new PostSessionService({
			uow: app.uow,
			now: () => t,
			media: app.media,
			video: app.video,
			videoAnalyzer: new VideoAnalyzer({ ffmpeg: app.config.FFMPEG_PATH, ffprobe: app.config.FFPROBE_PATH }, () => t),
			screenshotAnalyzer: {
				async analyse({ screenshots }) {
					given = screenshots.length;
					return { realPersonOrVirtual: 'real', overallSummary: 'from a fake model' };
				}
			}
		});
		await finish(id);
		await app.relay.drain();
		await withFakeModel.runDue();
		expect(given).toBe(1);
		expect(await events(id)).toContain('analysis.screenshot');
		expect((await app.sessions.get(integrator, id)).session.report!.aiAnalysis).toEqual({ realPersonOrVirtual: 'real', overallSummary: 'from a fake model' });
	});

	it('builds the report from what was stored: transcript, node reports, verdicts, extracted data, location, device', async () => {
		const { id } = await started({});
		await app.uow.transaction(async (repos) => {
			await repos.transcript.insert({ id: 'phr_1', sessionId: id, nodeId: 'hello', createdAt: t, text: 'Hello!', isAvatar: true });
			await repos.nodeReports.insert({ sessionId: id, nodeId: 'live', type: 'liveness_detection', outcome: 'livenessDetected', targetNodeId: 'otp', createdAt: t + 1, details: { score: 0.97 } });
			await repos.nodeReports.insert({ sessionId: id, nodeId: 'otp', type: 'two_factor_email', outcome: 'verified', targetNodeId: 'end', createdAt: t + 2 });
			await repos.sessions.update(id, {
				data: { email: 'a@b.co', extractedData: { firstName: 'Ada', age: 36, nested: { no: 1 } } },
				location: { ip: '81.2.69.160', city: 'London', countryCode: 'GB', asOrganization: 'Example ISP' },
				device: { browserName: 'Chrome', deviceType: 'mobile', inAppBrowser: 'Instagram' }
			});
		});
		const during = (await app.sessions.get(integrator, id)).session.report!;
		expect(during).toMatchObject({ lang: 'en', livenessDetected: true, nodeReports: [{ nodeId: 'live' }, { nodeId: 'otp' }] });
		expect(during).not.toHaveProperty('isVerified');
		await finish(id);
		const report = (await app.sessions.get(integrator, id)).session.report!;
		expect(report).toEqual({
			transcript: [{ id: 'phr_1', createdAt: expect.any(Number), text: 'Hello!', isAvatar: true }],
			nodeReports: [
				{ nodeId: 'live', type: 'liveness_detection', outcome: 'livenessDetected', targetNodeId: 'otp', createdAt: expect.any(Number), details: { score: 0.97 } },
				{ nodeId: 'otp', type: 'two_factor_email', outcome: 'verified', targetNodeId: 'end', createdAt: expect.any(Number) }
			],
			lang: 'en',
			extractedData: { firstName: 'Ada', age: '36' },
			livenessDetected: true,
			isVerified: true,
			location: { ip: '81.2.69.160', city: 'London', countryCode: 'GB', asOrganization: 'Example ISP' },
			device: { browserName: 'Chrome', deviceType: 'mobile', inAppBrowser: 'Instagram' },
			screenshots: [],
			videos: {}
		});
		// No face model ran: aiAnalysis stays absent rather than invented.
		expect(report).not.toHaveProperty('aiAnalysis');
	});

	it('purges sandbox sessions after RETENTION_TEST_DAYS and live ones after RETENTION_LIVE_DAYS, with everything kept about them', async () => {
		t = T0 + 400 * DAY;
		const created = t;
		const sandbox = await started({ retainSessionMedia: true });
		const production = await started({}, live);
		for (const s of [sandbox, production]) {
			await app.media.ingest({ sessionId: s.id, kind: 'user_photo', bytes: JPEG });
			await app.uow.repos.nodeReports.insert({ sessionId: s.id, nodeId: 'n', type: 'enter_email', outcome: 'emailEntered', createdAt: t });
			await finish(s.id);
		}
		await app.video.putChunk(sandbox.page, 0, chunks[0]).catch(() => {});
		await app.accounts.addWebhookEndpoint(integrator.accountId, 'https://hooks.example.com/retention');
		await app.relay.drain();
		const deliveriesBefore = (await app.webhooks.deliveries({ sessionId: sandbox.id })).length;
		expect(deliveriesBefore).toBeGreaterThan(0);

		t = created + 7 * DAY - 1;
		await app.retention.purge();
		expect(await app.uow.repos.sessions.findById(sandbox.id)).not.toBeNull();

		t = created + 7 * DAY + 1000;
		const first = await app.retention.purge();
		expect(first.sessions).toBeGreaterThanOrEqual(1);
		expect(await app.uow.repos.sessions.findById(sandbox.id)).toBeNull();
		expect(await app.uow.repos.sessions.findById(production.id)).not.toBeNull();
		expect(sessionFiles(sandbox.id)).toEqual([]);
		expect(await app.uow.repos.outbox.listForSession(sandbox.id)).toEqual([]);
		expect(await app.webhooks.deliveries({ sessionId: sandbox.id })).toEqual([]);
		expect(await app.uow.repos.nodeReports.list(sandbox.id)).toEqual([]);
		expect(await app.uow.repos.media.listLive(sandbox.id)).toEqual([]);
		// Idempotent: a second run finds nothing more to do.
		expect(await app.retention.purge()).toEqual({ sessions: 0, events: 0 });

		t = created + 90 * DAY + 1000;
		await app.retention.purge();
		expect(await app.uow.repos.sessions.findById(production.id)).toBeNull();
		expect(sessionFiles(production.id)).toEqual([]);
	});
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerKeys } from '#lib/server/crypto.ts';
import { signMediaUrl } from '#lib/server/media/signed-url.ts';
import { verifyServiceSignature } from '#lib/server/webhooks/webhook-signature.ts';
import { apiClient, startServer, type RunningServer } from '../helpers/server.ts';
import { SIMPLE_FLOW } from '../helpers/flows.ts';
import { hasFfmpeg, makeClip } from '../helpers/video.ts';
import { startReceiver, waitFor } from '../helpers/webhook-receiver.ts';

const KEY = 'sk_test_MediaMediaMediaMediaMedia0001';
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const SERVER_SECRET = 'test-secret-key-0123456789abcdef0123'; // what startServer sets as SECRET_KEY

/**
 * The hosted page's session video end to end on the production build: chunks uploaded out of order
 * and resumed, the session finished through the page API, the file assembled and analysed after the
 * end, the webhooks, the report of GET /sessions/{id}, and the signed download link.
 */
describe('session video, webhooks and report over HTTP (production build)', () => {
	let server: RunningServer;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	let dir: string;
	let clip: Buffer;
	const api = () => apiClient(server.url, KEY);

	beforeAll(async () => {
		if (!hasFfmpeg()) throw new Error('This suite needs ffmpeg on PATH (Debian: apt-get install ffmpeg)');
		dir = mkdtempSync(path.join(tmpdir(), 'vf-http-media-'));
		clip = makeClip(dir, 'moving', 3);
		receiver = await startReceiver();
		server = await startServer({ SEED_API_KEYS: KEY, SEED_WEBHOOK_URL: `${receiver.url}/hook`, SEED_WEBHOOK_SECRET: SECRET, RATE_LIMIT: '100000' });
	});
	afterAll(async () => {
		await server?.stop();
		await receiver?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	async function openSession(settings: Record<string, unknown>) {
		const created = await api()('POST', '/sessions', { clientReferenceId: 'video-user', flow: SIMPLE_FLOW, ...settings });
		expect(created.status).toBe(201);
		const opened = await fetch(`${server.url}/api/client/open`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 321.0.2.0' },
			body: JSON.stringify({ clientSecret: created.json.clientSecret.secret, languages: ['en'] })
		});
		expect(opened.status).toBe(200);
		const { pageToken, state } = await opened.json();
		return { id: created.json.session.id as string, pageToken: pageToken as string, step: state.session.step as number };
	}
	const chunk = (token: string | null, seq: number | string, body: Uint8Array, final = false) =>
		fetch(`${server.url}/api/client/video/chunks?seq=${seq}${final ? '&final=1' : ''}`, {
			method: 'POST',
			headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'video/webm' },
			body: body as Uint8Array<ArrayBuffer>
		});
	const status = async (token: string) => (await fetch(`${server.url}/api/client/video/chunks`, { headers: { authorization: `Bearer ${token}` } })).json();

	it('uploads, resumes, assembles, analyses, notifies and serves the session video', { timeout: 60_000 }, async () => {
		const s = await openSession({ retainSessionMedia: true, videoAIAnalysisEnabled: true });
		const size = Math.ceil(clip.length / 4);
		const parts = Array.from({ length: 4 }, (_, i) => clip.subarray(i * size, (i + 1) * size));

		expect((await chunk(null, 0, parts[0])).status).toBe(401);
		expect((await chunk(s.pageToken, 'x', parts[0])).status).toBe(400);
		expect((await chunk(s.pageToken, 0, new TextEncoder().encode('not a video at all'))).status).toBe(415);
		expect((await chunk(s.pageToken, 0, parts[0])).status).toBe(201);
		expect((await chunk(s.pageToken, 2, parts[2])).status).toBe(201);
		// The connection dropped here; the page asks what the server has and fills the gap.
		expect(await status(s.pageToken)).toMatchObject({ enabled: true, state: 'recording', chunks: 2, nextSeq: 3, missing: [1] });
		expect((await chunk(s.pageToken, 1, parts[1])).status).toBe(201);
		expect((await chunk(s.pageToken, 2, parts[2])).status).toBe(200); // a retried upload is a duplicate, not an error
		const conflict = await chunk(s.pageToken, 2, parts[3]);
		expect(conflict.status).toBe(409);
		expect((await conflict.json()).error.code).toBe('chunk_conflict');
		expect((await chunk(s.pageToken, 3, parts[3], true)).status).toBe(201);

		const done = await fetch(`${server.url}/api/client/nodes/email`, {
			method: 'POST',
			headers: { authorization: `Bearer ${s.pageToken}`, 'content-type': 'application/json' },
			body: JSON.stringify({ step: s.step, requestId: 'request-0001', action: 'submit', payload: { email: 'ada@example.com' } })
		});
		expect(done.status).toBe(200);
		expect((await done.json()).state.session.status).toBe('complete');
		const endedAt = Date.now();

		await waitFor(() => receiver.received.some((r) => r.json.sessionId === s.id && r.json.type === 'analysis.video'), 20_000, 'analysis.video');
		expect(Date.now() - endedAt).toBeLessThan(20_000);
		const mine = receiver.received.filter((r) => r.json.sessionId === s.id);
		expect(mine.map((r) => r.json.type).sort()).toEqual(['analysis.video', 'media.user_video', 'session.status', 'session.status', 'session.status']);
		for (const hit of mine) expect(verifyServiceSignature(hit.headers['x-service-signature'] as string, hit.body, SECRET).ok).toBe(true);
		const videoEvent = mine.find((r) => r.json.type === 'media.user_video')!;
		const media = videoEvent.json.media as { id: string; url: string; expires: number; contentType: string; createdAt: number };
		expect(media).toMatchObject({ id: expect.stringMatching(/^med_/), contentType: 'video/webm', url: expect.stringContaining(`${server.url}/media/${media.id}?exp=`) });
		expect(media.expires - Date.now()).toBeGreaterThan(14 * 60_000);

		// The link in the event downloads exactly what was recorded; ranges work for seeking.
		const file = await fetch(media.url);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toBe('video/webm');
		expect(Buffer.from(await file.arrayBuffer()).equals(clip)).toBe(true);
		const range = await fetch(media.url, { headers: { range: 'bytes=10-19' } });
		expect(range.status).toBe(206);
		expect(Buffer.from(await range.arrayBuffer()).equals(clip.subarray(10, 20))).toBe(true);
		expect((await fetch(media.url.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')))).status).toBe(403);
		const expired = signMediaUrl({ id: media.id, secret: new ServerKeys(SERVER_SECRET).mediaKey, now: Date.now() - 16 * 60_000, baseUrl: server.url });
		expect((await fetch(expired.url)).status).toBe(403);

		const { json } = await api()('GET', `/sessions/${s.id}`);
		const report = json.session.report;
		expect(Object.keys(report).sort()).toEqual(['device', 'isVerified', 'lang', 'location', 'nodeReports', 'screenshots', 'transcript', 'videoAIAnalysis', 'videos']);
		expect(report.nodeReports).toEqual([{ nodeId: 'email', type: 'enter_email', outcome: 'emailEntered', targetNodeId: 'end', createdAt: expect.any(Number) }]);
		expect(report).toMatchObject({ lang: 'en', isVerified: false, screenshots: [], location: { ip: '127.0.0.1' } });
		expect(report.device).toMatchObject({ deviceType: 'mobile', inAppBrowser: 'Instagram' });
		expect(report.videos.userVideoUrl).toContain(`/media/${media.id}?exp=`);
		expect((await fetch(report.videos.userVideoUrl, { method: 'HEAD' })).headers.get('content-length')).toBe(String(clip.length));
		expect(report.videoAIAnalysis).toMatchObject({ status: 'completed', frameCount: 45, criteria: [{ id: 'frozen_video', detected: false }, { id: 'repeated_footage', detected: false }, { id: 'recording_gaps', detected: false }] });
		expect(report.videoAIAnalysis.notEvaluated.map((n: { id: string }) => n.id)).toEqual(['face_presence', 'multiple_faces', 'identity_change', 'screen_replay', 'virtual_camera']);

		// After assembly the recording is closed.
		const late = await chunk(s.pageToken, 4, parts[3]);
		expect(late.status).toBe(409);
		expect((await late.json()).error.code).toBe('video_closed');
	});

	it('does not record a session that neither retains media nor asks for video analysis', async () => {
		const s = await openSession({});
		expect(await status(s.pageToken)).toMatchObject({ enabled: false, state: 'none' });
		const res = await chunk(s.pageToken, 0, clip.subarray(0, 1000));
		expect(res.status).toBe(409);
		expect((await res.json()).error.code).toBe('video_not_enabled');
	});

	it('documents the report and the webhook payload in the OpenAPI document', async () => {
		const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
		const report = doc.components.schemas.SessionReport.properties;
		for (const key of ['transcript', 'nodeReports', 'aiAnalysis', 'videoAIAnalysis', 'location', 'device', 'livenessDetected', 'lang', 'extractedData', 'screenshots', 'videos', 'isVerified']) expect(report, key).toHaveProperty(key);
		expect(doc.components.schemas.Location.properties).toHaveProperty('asOrganization');
		expect(doc.components.schemas.Device.properties).toHaveProperty('inAppBrowser');
		expect(Object.keys(doc.webhooks).sort()).toEqual(['analysis.screenshot', 'analysis.video', 'media.document_photo', 'media.user_photo', 'media.user_video', 'session.status', 'settings.avatars', 'settings.langs']);
		expect(doc.components.schemas.WebhookEvent.required).toEqual(['id', 'type', 'createdAt', 'sessionId']);
	});
});

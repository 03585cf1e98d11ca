import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '#lib/domain/errors.ts';
import { createTestApp } from '../../../../tests/helpers/test-store.ts';
import { createBody } from '../../../../tests/helpers/flows.ts';
import type { PagePrincipal } from '../services/page.service.ts';
import { readUpload } from './upload.ts';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);
const post = (body: BodyInit, headers: Record<string, string> = {}) => ({ request: new Request('http://x/api/client/upload', { method: 'POST', body, headers, duplex: 'half' } as RequestInit) });

async function apiError(p: Promise<unknown>): Promise<ApiError> {
	const err = await p.then(
		() => null,
		(e: unknown) => e
	);
	expect(err).toBeInstanceOf(ApiError);
	return err as ApiError;
}

describe('uploads: the body cap and the media type by its bytes', () => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let dataDir: string;
	let page: PagePrincipal;

	beforeAll(async () => {
		dataDir = mkdtempSync(path.join(tmpdir(), 'vf-upload-'));
		app = await createTestApp('pglite', { DATA_DIR: dataDir });
		const principal = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('U'), 'test')).key))!;
		const { result } = await app.sessions.create(principal, createBody());
		await app.uow.transaction((repos) => app.sessions.transition(repos, result.session.id, 'inProgress'));
		page = { sessionId: result.session.id, role: 'primary', tokenHash: 'x' };
	});
	afterAll(async () => {
		await app?.dispose();
		rmSync(dataDir, { recursive: true, force: true });
	});

	it('decides the type from the bytes, ignoring the Content-Type header, and fires media.user_photo with the row', async () => {
		const info = await app.media.ingest({ sessionId: page.sessionId, kind: 'user_photo', nodeId: 'face', bytes: await readUpload(post(JPEG, { 'content-type': 'text/html' }).request, 1024) });
		expect(info).toMatchObject({ kind: 'user_photo', contentType: 'image/jpeg', size: JPEG.length, nodeId: 'face', sessionId: page.sessionId });
		const [event] = (await app.uow.repos.outbox.listForSession(page.sessionId)).filter((e) => e.type === 'media.user_photo');
		expect(event.payload.media).toMatchObject({ id: info.id, contentType: 'image/jpeg', url: expect.stringContaining(`/media/${info.id}?exp=`) });
	});

	it('refuses content that is not an allowed image whatever the header says (415)', async () => {
		const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
		const err = await apiError(app.media.ingest({ sessionId: page.sessionId, kind: 'document_photo', bytes: await readUpload(post(html, { 'content-type': 'image/jpeg' }).request, 1024) }));
		expect({ status: err.status, code: err.code }).toEqual({ status: 415, code: 'unsupported_media_type' });
		const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00');
		expect((await apiError(app.media.ingest({ sessionId: page.sessionId, kind: 'user_photo', bytes: gif }))).status).toBe(415);
		expect((await apiError(app.media.ingest({ sessionId: page.sessionId, kind: 'user_photo', bytes: new Uint8Array() }))).status).toBe(415);
	});

	it('caps the size while streaming, whatever Content-Length says (413)', async () => {
		expect((await apiError(readUpload(post(JPEG, { 'content-length': String(10 * 1024 * 1024) }).request, 1024))).status).toBe(413);
		const stream = new ReadableStream<Uint8Array>({
			pull(c) {
				c.enqueue(new Uint8Array(64 * 1024));
			}
		});
		const err = await apiError(readUpload(post(stream).request, 256 * 1024));
		expect({ status: err.status, code: err.code }).toEqual({ status: 413, code: 'body_too_large' });
		// The Node adapter's BODY_SIZE_LIMIT error surfaces as the same 413.
		const limited = new ReadableStream<Uint8Array>({
			start(c) {
				c.error(Object.assign(new Error('request body size exceeded BODY_SIZE_LIMIT'), { status: 413 }));
			}
		});
		expect((await apiError(readUpload(post(limited).request, 1024 * 1024))).message).toMatch(/BODY_SIZE_LIMIT/);
	});
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../../tests/helpers/test-store.ts';
import { createBody } from '../../../../tests/helpers/flows.ts';
import { mediaResponse, parseRange } from './media-response.ts';

describe('parseRange', () => {
	it('reads one bytes range: start-end, start-, -suffix; ignores what it does not understand', () => {
		expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
		expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
		expect(parseRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
		expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
		expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
		expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
		expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
		for (const ignored of [null, '', 'bytes=0-1,5-9', 'items=0-1', 'bytes=9-3', 'bytes=-', 'garbage']) expect(parseRange(ignored, 1000), String(ignored)).toBeNull();
	});
});

describe('GET /media/<id>', () => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let dataDir: string;
	let t = 1_800_000_000_000;
	const bytes = new Uint8Array(5000);
	bytes.set([0xff, 0xd8, 0xff, 0xe0]);
	for (let i = 4; i < bytes.length; i++) bytes[i] = i % 251;
	let id: string;
	let sessionId: string;

	beforeAll(async () => {
		dataDir = mkdtempSync(path.join(tmpdir(), 'vf-media-'));
		app = await createTestApp('pglite', { DATA_DIR: dataDir }, () => t);
		const principal = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('M'), 'test')).key))!;
		sessionId = (await app.sessions.create(principal, createBody())).result.session.id;
		id = (await app.media.ingest({ sessionId, kind: 'screenshot', bytes })).id;
	});
	afterAll(async () => {
		await app?.dispose();
		rmSync(dataDir, { recursive: true, force: true });
	});

	const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => mediaResponse(app.media, new URL(url).pathname.split('/').pop()!, new URL(url), new Request(url, { method, headers }));

	it('streams the whole object with its sniffed type, or one range', async () => {
		const { url } = app.media.signedUrl(id);
		const full = await get(url);
		expect(full.status).toBe(200);
		expect(Object.fromEntries(full.headers)).toMatchObject({ 'content-type': 'image/jpeg', 'content-length': '5000', 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff' });
		expect(new Uint8Array(await full.arrayBuffer())).toEqual(bytes);
		const part = await get(url, { range: 'bytes=100-199' });
		expect(part.status).toBe(206);
		expect(part.headers.get('content-range')).toBe('bytes 100-199/5000');
		expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
		const tail = await get(url, { range: 'bytes=-10' });
		expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.subarray(4990));
		const bad = await get(url, { range: 'bytes=6000-' });
		expect(bad.status).toBe(416);
		expect(bad.headers.get('content-range')).toBe('bytes */5000');
		const head = await get(url, {}, 'HEAD');
		expect(head.status).toBe(200);
		expect(head.headers.get('content-length')).toBe('5000');
		expect(await head.text()).toBe('');
	});

	it('answers 403 to a tampered or expired link and 404 once the bytes are deleted', async () => {
		const { url, expires } = app.media.signedUrl(id);
		const tampered = url.replace(/sig=([0-9a-f])/, (_, c) => `sig=${c === '0' ? '1' : '0'}`);
		const res = await get(tampered);
		expect(res.status).toBe(403);
		expect(await res.json()).toEqual({ error: { type: 'authentication_error', message: expect.stringContaining('invalid or has expired'), code: 'media_link_invalid' } });
		expect((await get(url.replace(`exp=${expires}`, `exp=${expires + 1}`))).status).toBe(403);
		t = expires - 1;
		expect((await get(url)).status).toBe(200);
		t = expires;
		expect((await get(url)).status).toBe(403);
		const fresh = app.media.signedUrl(id).url;
		await app.media.deleteForSession(sessionId, ['screenshot']);
		const gone = await get(fresh);
		expect(gone.status).toBe(404);
		expect((await gone.json()).error.code).toBe('media_not_found');
		// An unknown id with a valid signature is a 404 too; a bad signature is a 403 whatever the id.
		expect((await get(app.media.signedUrl('med_unknown').url)).status).toBe(404);
	});
});

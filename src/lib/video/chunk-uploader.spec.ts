import { describe, expect, it } from 'vitest';
import { VideoChunkUploader } from './chunk-uploader.ts';

/** A stand-in for /api/client/video/chunks with the server's rules, and a network that fails on cue. */
function fakeServer(opts: { enabled?: boolean; failures?: ('before' | 'after')[]; closeAfter?: number } = {}) {
	const stored = new Map<number, string>();
	let finalSeq: number | null = null;
	let posts = 0;
	const failures = [...(opts.failures ?? [])];
	const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
		const url = new URL(String(input), 'http://page.test');
		const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
		if ((init?.method ?? 'GET') === 'GET') {
			const nextSeq = stored.size ? Math.max(...stored.keys()) + 1 : 0;
			const missing = Array.from({ length: nextSeq }, (_, i) => i).filter((i) => !stored.has(i));
			return json(200, { enabled: opts.enabled ?? true, state: 'recording', chunks: stored.size, nextSeq, missing, finalSeq, maxChunkBytes: 1000 });
		}
		posts++;
		const failure = failures.shift();
		if (failure === 'before') throw new TypeError('Failed to fetch');
		if (opts.closeAfter !== undefined && stored.size >= opts.closeAfter) return json(409, { error: { type: 'validation_error', message: 'closed', code: 'video_closed' } });
		const seq = Number(url.searchParams.get('seq'));
		const text = await (init!.body as Blob).text();
		if (text.length > 1000) return json(413, { error: { type: 'validation_error', message: 'too large', code: 'body_too_large' } });
		if (stored.has(seq) && stored.get(seq) !== text) return json(409, { error: { type: 'validation_error', message: 'conflict', code: 'chunk_conflict' } });
		const duplicate = stored.has(seq);
		stored.set(seq, text);
		if (url.searchParams.get('final') === '1') finalSeq = seq;
		if (failure === 'after') throw new TypeError('Failed to fetch'); // stored, but the answer is lost
		return json(duplicate ? 200 : 201, { seq, duplicate });
	}) as typeof globalThis.fetch;
	return { fetch, stored, final: () => finalSeq, posts: () => posts };
}

const blob = (s: string) => new Blob([s], { type: 'video/webm' });
const noSleep = async () => {};

describe('VideoChunkUploader', () => {
	it('uploads chunks in order and marks the last one final', async () => {
		const server = fakeServer();
		const up = new VideoChunkUploader({ token: () => 'pt_x', fetch: server.fetch, sleep: noSleep });
		expect(await up.start()).toBe(true);
		for (const part of ['a', 'b', 'c']) up.add(blob(part));
		up.add(blob('d'), true);
		expect(await up.flush()).toBe(true);
		expect([...server.stored.entries()].sort((x, y) => x[0] - y[0])).toEqual([[0, 'a'], [1, 'b'], [2, 'c'], [3, 'd']]);
		expect(server.final()).toBe(3);
		expect(up.snapshot).toMatchObject({ pending: 0, uploaded: 4, dropped: 0, stopped: null });
	});

	it('loses nothing across dropped connections, whether the upload or only its answer was lost', async () => {
		const server = fakeServer({ failures: ['before', 'before', 'after', 'before', 'after'] });
		const waits: number[] = [];
		const up = new VideoChunkUploader({ token: () => 'pt_x', fetch: server.fetch, sleep: async (ms) => void waits.push(ms), backoffMs: [10, 20, 40] });
		await up.start();
		for (let i = 0; i < 6; i++) up.add(blob(`chunk-${i}`), i === 5);
		expect(await up.flush()).toBe(true);
		expect(server.stored.size).toBe(6);
		for (let i = 0; i < 6; i++) expect(server.stored.get(i)).toBe(`chunk-${i}`);
		expect(server.final()).toBe(5);
		// One back-off wait per failure, growing while failures follow each other.
		expect(waits.filter((w) => w !== 100)).toEqual([10, 20, 40, 10, 20]);
	});

	it('continues after what the server has when the page starts again', async () => {
		const server = fakeServer();
		const first = new VideoChunkUploader({ token: () => 'pt_x', fetch: server.fetch, sleep: noSleep });
		await first.start();
		first.add(blob('a'));
		first.add(blob('b'));
		await first.flush();
		const reloaded = new VideoChunkUploader({ token: () => 'pt_x', fetch: server.fetch, sleep: noSleep });
		await reloaded.start();
		reloaded.add(blob('c'), true);
		await reloaded.flush();
		expect([...server.stored.keys()].sort()).toEqual([0, 1, 2]);
		expect(server.stored.get(2)).toBe('c');
	});

	it('does not record when the session does not, stops when the recording is closed, and drops what cannot fit', async () => {
		const off = new VideoChunkUploader({ token: () => 'pt_x', fetch: fakeServer({ enabled: false }).fetch, sleep: noSleep });
		expect(await off.start()).toBe(false);
		expect(off.snapshot.stopped).toBe('video_not_enabled');

		const server = fakeServer({ closeAfter: 2 });
		const up = new VideoChunkUploader({ token: () => 'pt_x', fetch: server.fetch, sleep: noSleep });
		await up.start();
		up.add(blob('x'.repeat(2000)));
		for (const part of ['a', 'b', 'c', 'd']) up.add(blob(part));
		await up.flush();
		expect(up.snapshot).toMatchObject({ dropped: 1, uploaded: 2, stopped: 'video_closed', pending: 0 });
		up.add(blob('e'));
		expect(up.snapshot.pending).toBe(0);
	});
});

import { describe, expect, it, vi } from 'vitest';
import type { PageState } from '#lib/domain/page/page.schema.ts';
import { uploadDocument } from './document-upload.ts';

const state = (nodeId: string | null) => ({ session: { step: 4 }, node: nodeId ? { id: nodeId, type: 'document_scan', props: {} } : null }) as unknown as PageState;

function runner() {
	return { state: state('doc'), client: { token: 'pt_abc' }, act: vi.fn(), refresh: vi.fn(async () => {}) };
}

const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], { type: 'image/jpeg' });
const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('uploadDocument', () => {
	it('posts the sides as binary parts of a multipart body, the JSON (step, request id, claim) referring to them, with the page token', async () => {
		const fetchFn = vi.fn(async (_url: string, _init: RequestInit) => reply(200, { state: state(null) }));
		const r = runner();
		const answer = await uploadDocument(r, 'doc', [{ side: 'front', jpeg, t: 812.4 }], { sharpness: 900 }, fetchFn as unknown as typeof fetch);
		expect(answer).toEqual({ kind: 'moved' });
		const [url, init] = fetchFn.mock.calls[0];
		expect(url).toBe('/api/client/nodes/doc/evidence');
		expect((init.headers as Record<string, string>).authorization).toBe('Bearer pt_abc');
		const form = init.body as FormData;
		expect(form).toBeInstanceOf(FormData);
		// No Content-Type of ours: fetch writes the multipart one with its boundary.
		expect(Object.keys(init.headers as Record<string, string>).map((k) => k.toLowerCase())).not.toContain('content-type');
		const body = JSON.parse(form.get('body') as string);
		expect(body).toMatchObject({ step: 4, images: [{ side: 'front', image: 'part:p0', t: 812 }], claim: { sharpness: 900 } });
		expect(new Uint8Array(await (form.get('p0') as Blob).arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
		expect([...form.keys()]).toEqual(['body', 'p0']);
		expect(body.requestId).toMatch(/^dev_[0-9a-f]{32}$/);
		expect(r.refresh).toHaveBeenCalled();
	});

	it('applies the state the answer carries when the runner can, instead of asking for it again', async () => {
		const next = state(null);
		const fetchFn = vi.fn(async () => reply(200, { state: next }));
		const r = { ...runner(), applyState: vi.fn() };
		expect(await uploadDocument(r, 'doc', [{ side: 'front', jpeg, t: 0 }], {}, fetchFn as unknown as typeof fetch)).toEqual({ kind: 'moved' });
		expect(r.applyState).toHaveBeenCalledWith(next);
		expect(r.refresh).not.toHaveBeenCalled();
	});

	it('turns the server’s document.retry notice into a retry with its reason and the types to show', async () => {
		const fetchFn = vi.fn(async () => reply(200, { state: state('doc'), notice: { code: 'document.retry', params: { reason: 'typeNotAllowed', triesLeft: 3, documentType: 'MRTD_TYPE_PASSPORT', allowed: 'MRTD_TYPE_DL,MRTD_TYPE_IDENITY_CARD' } } }));
		expect(await uploadDocument(runner(), 'doc', [{ side: 'front', jpeg, t: 0 }], {}, fetchFn as unknown as typeof fetch)).toEqual({
			kind: 'retry',
			reason: 'typeNotAllowed',
			triesLeft: 3,
			documentType: 'MRTD_TYPE_PASSPORT',
			allowed: ['MRTD_TYPE_DL', 'MRTD_TYPE_IDENITY_CARD']
		});
		// A reading in doubt comes back as such (its own words: the document was read, a few characters were not clear).
		const unsure = vi.fn(async () => reply(200, { state: state('doc'), notice: { code: 'document.retry', params: { reason: 'uncertain', triesLeft: 2 } } }));
		expect(await uploadDocument(runner(), 'doc', [{ side: 'front', jpeg, t: 0 }], {}, unsure as unknown as typeof fetch)).toMatchObject({ kind: 'retry', reason: 'uncertain', triesLeft: 2 });
		// An unknown reason from a newer server is shown as "unreadable", never as nothing.
		const odd = vi.fn(async () => reply(200, { state: state('doc'), notice: { code: 'document.retry', params: { reason: 'somethingNew', triesLeft: 1 } } }));
		expect(await uploadDocument(runner(), 'doc', [{ side: 'front', jpeg, t: 0 }], {}, odd as unknown as typeof fetch)).toMatchObject({ kind: 'retry', reason: 'unreadable', documentType: null, allowed: [] });
	});

	it('gives up at once on a 4xx with the server’s message, and retries a 5xx with the same request id', async () => {
		const refused = vi.fn(async () => reply(400, { error: { type: 'validation_error', message: 'images[0] (front) is not a JPEG, PNG or WebP image', code: 'unsupported_media_type' } }));
		expect(await uploadDocument(runner(), 'doc', [{ side: 'front', jpeg, t: 0 }], {}, refused as unknown as typeof fetch)).toEqual({ kind: 'failed', error: 'images[0] (front) is not a JPEG, PNG or WebP image' });
		expect(refused).toHaveBeenCalledTimes(1);

		vi.useFakeTimers();
		try {
			let calls = 0;
			const flaky = vi.fn(async (_url: string, _init: RequestInit) => (++calls < 2 ? reply(503, {}) : reply(200, { state: state(null) })));
			const pending = uploadDocument(runner(), 'doc', [{ side: 'front', jpeg, t: 0 }], {}, flaky as unknown as typeof fetch);
			await vi.runAllTimersAsync();
			expect(await pending).toEqual({ kind: 'moved' });
			const ids = flaky.mock.calls.map(([, init]) => JSON.parse((init.body as FormData).get('body') as string).requestId);
			expect(ids).toHaveLength(2);
			expect(new Set(ids).size).toBe(1);
		} finally {
			vi.useRealTimers();
		}
	});
});

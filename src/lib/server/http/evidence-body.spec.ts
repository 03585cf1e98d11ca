import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/domain/errors.ts';
import { readEvidenceBody } from './evidence-body.ts';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1, 2, 3, 0xff, 0xd9]);
const b64 = Buffer.from(JPEG).toString('base64');

function multipart(entries: [string, string | Blob][]): Request {
	const form = new FormData();
	for (const [name, value] of entries) form.append(name, value);
	return new Request('http://x/api/client/nodes/face/evidence', { method: 'POST', body: form });
}
const jpeg = () => new Blob([JPEG], { type: 'image/jpeg' });

async function refusal(request: Request, max = 1024 * 1024): Promise<ApiError> {
	const err = await readEvidenceBody(request, max).then(() => null, (e: unknown) => e);
	expect(err).toBeInstanceOf(ApiError);
	return err as ApiError;
}

describe('readEvidenceBody', () => {
	it('gives the JSON of a multipart body with each part reference replaced by the part’s bytes in base64', async () => {
		const body = { step: 3, requestId: 'fev_1', frames: [{ image: 'part:p0', t: 0 }, { image: 'part:p1', t: 100 }], alignedFace: 'part:p2', claim: { note: 'part:' } };
		const value = await readEvidenceBody(multipart([['body', JSON.stringify(body)], ['p0', jpeg()], ['p1', new Blob([JPEG.subarray(0, 4)])], ['p2', jpeg()]]), 1024 * 1024);
		expect(value).toEqual({ ...body, frames: [{ image: b64, t: 0 }, { image: Buffer.from(JPEG.subarray(0, 4)).toString('base64'), t: 100 }], alignedFace: b64 });
	});

	it('reads a JSON body as before, base64 images and all', async () => {
		const body = { step: 1, images: [{ side: 'front', image: b64 }] };
		const request = new Request('http://x/e', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		expect(await readEvidenceBody(request, 1024)).toEqual(body);
	});

	it('refuses a body that says less or more than it carries, naming what is wrong', async () => {
		const ok = JSON.stringify({ frames: [{ image: 'part:p0' }] });
		expect((await refusal(multipart([['body', ok]]))).message).toMatch(/frames\[0\]\.image refers to the part 'p0', which the request does not carry/);
		expect((await refusal(multipart([['body', ok], ['p0', jpeg()], ['p1', jpeg()]]))).message).toMatch(/part 'p1' is not referred to/);
		expect((await refusal(multipart([['body', JSON.stringify({ a: 'part:p0', b: 'part:p0' })], ['p0', jpeg()]]))).message).toMatch(/b refers to the part 'p0' a second time/);
		expect((await refusal(multipart([['p0', jpeg()]]))).message).toMatch(/needs a 'body' part/);
		expect((await refusal(multipart([['body', ok], ['body', ok], ['p0', jpeg()]]))).message).toMatch(/more than one 'body' part/);
		expect((await refusal(multipart([['body', ok], ['p0', 'not a file']]))).message).toMatch(/'p0' must be a file/);
		expect((await refusal(multipart([['body', ok], ['p0', jpeg()], ['../etc', jpeg()]]))).message).toMatch(/part name '\.\.\/etc' is not allowed/);
		expect((await refusal(multipart([['body', '{"frames": ['], ['p0', jpeg()]]))).message).toMatch(/'body' part is not valid JSON/);
		expect((await refusal(multipart([['body', '{"__proto__": {"x": "part:p0"}}'], ['p0', jpeg()]]))).message).toMatch(/__proto__/);
		const many = multipart([['body', JSON.stringify({ f: Array.from({ length: 33 }, (_, i) => `part:p${i}`) })], ...Array.from({ length: 33 }, (_, i): [string, Blob] => [`p${i}`, jpeg()])]);
		expect((await refusal(many)).message).toMatch(/more than 32 image parts/);
		for (const err of [await refusal(multipart([['body', ok]])), await refusal(multipart([['p0', jpeg()]]))]) {
			expect(err).toMatchObject({ type: 'validation_error', code: 'invalid_multipart', status: 400 });
		}
	});

	it('refuses a multipart body that is not one (a wrong boundary, a part cut short) with a 400, not a crash', async () => {
		const good = multipart([['body', '{}']]);
		const type = good.headers.get('content-type')!;
		const text = await good.text();
		const wrongBoundary = new Request('http://x/e', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=nothere' }, body: text });
		expect(await refusal(wrongBoundary)).toMatchObject({ code: 'invalid_multipart', status: 400 });
		const cut = new Request('http://x/e', { method: 'POST', headers: { 'content-type': type }, body: text.slice(0, text.length - 20) });
		expect((await refusal(cut)).message).toMatch(/could not be read/);
		const empty = new Request('http://x/e', { method: 'POST', headers: { 'content-type': type } });
		expect(await refusal(empty)).toMatchObject({ code: 'invalid_multipart', status: 400, message: expect.stringMatching(/multipart body is empty/) });
		const blank = new Request('http://x/e', { method: 'POST', headers: { 'content-type': type }, body: '' });
		expect(await refusal(blank)).toMatchObject({ code: 'invalid_multipart', status: 400 });
	});

	it('counts the cap on the raw body as it streams in, before parsing anything', async () => {
		const big = multipart([['body', JSON.stringify({ a: 'part:p0' })], ['p0', new Blob([new Uint8Array(64 * 1024)])]]);
		expect(await refusal(big, 32 * 1024)).toMatchObject({ code: 'body_too_large', status: 413 });
	});
});

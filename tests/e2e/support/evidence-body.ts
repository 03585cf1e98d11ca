// The page posts evidence as multipart (src/lib/domain/page/evidence-parts.ts). Tests that read or
// rewrite what it posted go through these, so they see the JSON the server sees.
import { EVIDENCE_BODY_PART, PART_REFERENCE } from '../../../src/lib/domain/page/evidence-parts.ts';

interface Posted {
	json: any;
	parts: Map<string, Blob>;
}

/** The page's evidence request split into its JSON and its binary parts. */
export async function readPosted(body: Buffer, contentType: string): Promise<Posted> {
	if (!/^multipart\/form-data/i.test(contentType)) return { json: JSON.parse(body.toString('utf8') || '{}'), parts: new Map() };
	const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } })
		.formData()
		.catch((err: Error) => {
			throw new Error(`the page's evidence request is not the multipart it says (${contentType}; ${body.length} bytes: ${JSON.stringify(body.subarray(0, 80).toString('latin1'))}): ${err.message}`);
		});
	const parts = new Map<string, Blob>();
	for (const [name, value] of form.entries()) if (name !== EVIDENCE_BODY_PART && typeof value !== 'string') parts.set(name, value);
	return { json: JSON.parse(String(form.get(EVIDENCE_BODY_PART))), parts };
}

/** The same request as JSON with base64 images (what a script without a page would post). */
export async function asJson(posted: Posted): Promise<any> {
	const copy = structuredClone(posted.json);
	const walk = async (v: any): Promise<any> => {
		if (typeof v === 'string') {
			const m = PART_REFERENCE.exec(v);
			return m && posted.parts.has(m[1]) ? Buffer.from(await posted.parts.get(m[1])!.arrayBuffer()).toString('base64') : v;
		}
		if (Array.isArray(v)) return Promise.all(v.map(walk));
		if (v && typeof v === 'object') for (const k of Object.keys(v)) v[k] = await walk(v[k]);
		return v;
	};
	return walk(copy);
}

/** A multipart body again, with the JSON as given and the same parts (a fresh boundary). */
export async function encodePosted(posted: Posted): Promise<{ body: Buffer; contentType: string }> {
	const form = new FormData();
	form.append(EVIDENCE_BODY_PART, JSON.stringify(posted.json));
	for (const [name, blob] of posted.parts) form.append(name, blob, `${name}.jpg`);
	const request = new Request('http://localhost/', { method: 'POST', body: form });
	return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

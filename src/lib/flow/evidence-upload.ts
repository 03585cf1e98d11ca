// `POST /api/client/nodes/{nodeId}/evidence`, shared by the camera nodes (face and document): the
// JSON and its images go as multipart (evidence-parts.ts: the images as bytes, not base64), a lost
// connection or a 5xx is retried with backoff (the same body, so the same request id: the server
// answers a retry with its first answer), and a 4xx is final.
import { EVIDENCE_BODY_PART, partReference } from '#lib/domain/page/evidence-parts.ts';
import type { SubmitResponse } from '#lib/domain/page/page.schema.ts';

export interface EvidenceClient {
	client: { token: string | null };
	refresh(): Promise<void>;
}

export type EvidencePost = { ok: true; response: SubmitResponse } | { ok: false; error: string };

const ATTEMPTS = 4;

/** A request id for the evidence endpoint's idempotency (`prefix_` + 32 hex digits). */
export function evidenceRequestId(prefix: string): string {
	return `${prefix}_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** Collects a request's images as binary parts, handing out the references its JSON holds instead. */
export class EvidenceParts {
	readonly blobs = new Map<string, Blob>();
	add(image: Blob | ArrayBuffer): string {
		const name = `p${this.blobs.size}`;
		this.blobs.set(name, image instanceof Blob ? image : new Blob([image], { type: 'image/jpeg' }));
		return partReference(name);
	}
}

/** The request body: the JSON alone, or (with images) multipart with the JSON as its first part. */
function encode(body: unknown, parts?: EvidenceParts): { body: BodyInit; type?: string } {
	const text = JSON.stringify(body);
	if (!parts?.blobs.size) return { body: text, type: 'application/json' };
	const form = new FormData();
	form.append(EVIDENCE_BODY_PART, text);
	for (const [name, blob] of parts.blobs) form.append(name, blob, `${name}.jpg`);
	// fetch sets the multipart Content-Type with its boundary itself.
	return { body: form };
}

export async function postEvidence(runner: EvidenceClient, nodeId: string, body: unknown, parts?: EvidenceParts, fetchFn: typeof fetch = fetch): Promise<EvidencePost> {
	const encoded = encode(body, parts);
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		if (attempt) await new Promise((r) => setTimeout(r, 800 * 2 ** attempt));
		try {
			const res = await fetchFn(`/api/client/nodes/${encodeURIComponent(nodeId)}/evidence`, {
				method: 'POST',
				headers: { ...(encoded.type ? { 'content-type': encoded.type } : {}), accept: 'application/json', ...(runner.client.token ? { authorization: `Bearer ${runner.client.token}` } : {}) },
				body: encoded.body,
				cache: 'no-store'
			});
			const json = await res.json().catch(() => null);
			if (res.ok) return { ok: true, response: json as SubmitResponse };
			if (res.status < 500) {
				// The server said no for good (a stale step, a bad body): the page catches up with it.
				await runner.refresh().catch(() => undefined);
				return { ok: false, error: json?.error?.message ?? `HTTP ${res.status}` };
			}
		} catch {
			// connection lost: try again
		}
	}
	return { ok: false, error: 'network' };
}

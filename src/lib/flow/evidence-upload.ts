// `POST /api/client/nodes/{nodeId}/evidence`, shared by the camera nodes (face and document): the
// body is sent as it is, a lost connection or a 5xx is retried with backoff (the same body, so the
// same request id: the server answers a retry with its first answer), and a 4xx is final.
import type { SubmitResponse } from '#lib/domain/page/page.schema.ts';

export interface EvidenceClient {
	client: { token: string | null };
	refresh(): Promise<void>;
}

export type EvidencePost = { ok: true; response: SubmitResponse } | { ok: false; error: string };

const ATTEMPTS = 4;

/** Bytes as base64, in chunks (a spread of a whole photo would overflow the call stack). */
export function bytesToBase64(bytes: Uint8Array): string {
	let binary = '';
	for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(binary);
}

/** A request id for the evidence endpoint's idempotency (`prefix_` + 32 hex digits). */
export function evidenceRequestId(prefix: string): string {
	return `${prefix}_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

export async function postEvidence(runner: EvidenceClient, nodeId: string, body: unknown, fetchFn: typeof fetch = fetch): Promise<EvidencePost> {
	const text = JSON.stringify(body);
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		if (attempt) await new Promise((r) => setTimeout(r, 800 * 2 ** attempt));
		try {
			const res = await fetchFn(`/api/client/nodes/${encodeURIComponent(nodeId)}/evidence`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json', ...(runner.client.token ? { authorization: `Bearer ${runner.client.token}` } : {}) },
				body: text,
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

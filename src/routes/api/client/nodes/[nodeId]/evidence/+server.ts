import { MAX_DOCUMENT_EVIDENCE_BODY_BYTES } from '#lib/domain/page/document-evidence.schema.ts';
import { MAX_EVIDENCE_BODY_BYTES } from '#lib/domain/page/face-evidence.schema.ts';
import { getApp } from '#lib/server/app.ts';
import { readJson } from '#lib/server/http/body.ts';
import { json } from '#lib/server/http/error-response.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';
import type { RequestEvent } from './$types';

/**
 * A camera node's try. Face nodes: frames (JPEG), the aligned crop and the page's claim. document_scan:
 * the captured side(s) and the page's measurements. The server reads the evidence and decides.
 */
export const POST = pageRoute<RequestEvent>(async (event, principal) => {
	const app = getApp();
	const nodeId = event.params.nodeId!;
	if (await app.documents.handles(principal, nodeId)) {
		return json(await app.documents.submit(principal, nodeId, await readJson(event.request, MAX_DOCUMENT_EVIDENCE_BODY_BYTES)));
	}
	return json(await app.faces.submit(principal, nodeId, await readJson(event.request, MAX_EVIDENCE_BODY_BYTES)));
});

export const fallback = methodNotAllowed(['POST']);

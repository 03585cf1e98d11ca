import { getApp } from '#lib/server/app.ts';
import { readEvidenceBody } from '#lib/server/http/evidence-body.ts';
import { json } from '#lib/server/http/error-response.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';
import type { RequestEvent } from './$types';

/**
 * A camera node's try. Face nodes: frames (JPEG), the aligned crop and the page's claim. document_scan:
 * the captured side(s) and the page's measurements. JSON with base64 images, or multipart with the
 * images as binary parts (evidence-body.ts). The server reads the evidence and decides; the body is
 * read once the node's type says how large it may be.
 */
export const POST = pageRoute<RequestEvent>(async (event, principal) =>
	json(await getApp().pages.submitEvidence(principal, event.params.nodeId!, (maxBytes) => readEvidenceBody(event.request, maxBytes)))
);

export const fallback = methodNotAllowed(['POST']);

import { MAX_EVIDENCE_BODY_BYTES } from '#lib/domain/page/face-evidence.schema.ts';
import { getApp } from '#lib/server/app.ts';
import { readJson } from '#lib/server/http/body.ts';
import { json } from '#lib/server/http/error-response.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';
import type { RequestEvent } from './$types';

/** A face node's try: frames (JPEG), the aligned crop and the page's claim; the server decides. */
export const POST = pageRoute<RequestEvent>(async (event, principal) =>
	json(await getApp().faces.submit(principal, event.params.nodeId!, await readJson(event.request, MAX_EVIDENCE_BODY_BYTES)))
);

export const fallback = methodNotAllowed(['POST']);

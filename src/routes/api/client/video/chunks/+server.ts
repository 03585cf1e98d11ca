import { ApiError } from '#lib/domain/errors.ts';
import { getApp } from '#lib/server/app.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';
import { readUpload } from '#lib/server/http/upload.ts';
import { VIDEO_CHUNK_MAX_BYTES } from '#lib/server/services/video.service.ts';

/**
 * `POST /api/client/video/chunks?seq=N[&final=1]`: one MediaRecorder chunk as the raw body (its
 * Content-Type is ignored; chunk 0 is checked by its bytes). Idempotent per seq.
 */
export const POST = pageRoute(async (event, principal) => {
	const seqText = event.url.searchParams.get('seq');
	if (seqText === null || !/^\d{1,6}$/.test(seqText)) throw new ApiError('validation_error', "'seq' must be the chunk number (0, 1, 2…)");
	const final = ['1', 'true'].includes(event.url.searchParams.get('final') ?? '');
	const bytes = await readUpload(event.request, VIDEO_CHUNK_MAX_BYTES);
	const result = await getApp().video.putChunk(principal, Number(seqText), bytes, final);
	return json(result, result.duplicate ? 200 : 201);
});

/** What the server has: the page re-sends `missing` and continues at `nextSeq` after a reconnect. */
export const GET = pageRoute(async (_event, principal) => json(await getApp().video.status(principal)));

export const fallback = methodNotAllowed(['GET', 'POST']);

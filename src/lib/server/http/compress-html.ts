import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a compressed body saves less than its headers and the CPU cost. */
const MIN_BYTES = 1024;

export type HtmlEncoding = 'br' | 'gzip';

/**
 * The encoding to send an HTML page in, from the request's Accept-Encoding (RFC 9110 §12.5.3):
 * brotli when it is acceptable, else gzip, else none. `q=0` refuses an encoding; `*` stands for any
 * encoding the header does not name.
 */
export function pickHtmlEncoding(acceptEncoding: string | null): HtmlEncoding | null {
	if (!acceptEncoding) return null;
	const weights = new Map<string, number>();
	for (const part of acceptEncoding.split(',')) {
		const [name, ...params] = part.trim().toLowerCase().split(';');
		if (!name) continue;
		let q = 1;
		for (const param of params) {
			const [key, value] = param.trim().split('=');
			if (key === 'q') q = Number.isFinite(Number(value)) ? Number(value) : 0;
		}
		weights.set(name, q);
	}
	const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
	const br = weightOf('br');
	const gz = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
	if (br > 0 && br >= gz) return 'br';
	if (gz > 0) return 'gzip';
	return null;
}

/**
 * Compresses a server-rendered HTML response for the browser that asked for it. The page's own
 * files are precompressed at build time (scripts/precompress-adapter.js), but the page itself was
 * sent as it was rendered: 25 KB for the permissions page, where brotli at quality 5 sends 7.5 KB
 * for half a millisecond of CPU (on slow 4G, ~90 ms sooner to the first paint). Quality 5, not 11:
 * 11 saves another 0.9 KB for 25 ms of CPU per page view. The pages hold no secret an attacker could
 * guess at by reflecting text into them (BREACH): a link's page is only rendered for its client secret.
 *
 * The whole body is read first: the hosted pages do not stream (their loads return no promises).
 */
export async function compressHtml(request: Request, response: Response): Promise<Response> {
	if (!response.body || request.method === 'HEAD' || response.headers.has('content-encoding')) return response;
	if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
	const encoding = pickHtmlEncoding(request.headers.get('accept-encoding'));
	const headers = new Headers(response.headers);
	headers.append('vary', 'Accept-Encoding');
	const raw = new Uint8Array(await response.arrayBuffer());
	const init = { status: response.status, statusText: response.statusText, headers };
	if (!encoding || raw.byteLength < MIN_BYTES) return new Response(raw, init);
	const body =
		encoding === 'br'
			? await brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
			: await gzipAsync(raw, { level: 6 });
	headers.set('content-encoding', encoding);
	headers.set('content-length', String(body.byteLength));
	const etag = headers.get('etag');
	if (etag) headers.set('etag', etag.replace(/"$/, `-${encoding}"`));
	return new Response(new Uint8Array(body), init);
}

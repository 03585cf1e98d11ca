import { writeSync } from 'node:fs';
import type { Handle, HandleServerError, ServerInit } from '@sveltejs/kit/hooks';
import { ApiError } from '#lib/domain/errors.ts';
import { getApp, startApp } from '#lib/server/app.ts';
import { ConfigError, config } from '#lib/server/config.ts';
import { StoreInUseError } from '#lib/server/db/store.ts';
import { randomBase62 } from '#lib/server/crypto.ts';
import { errorResponse } from '#lib/server/http/error-response.ts';
import { rateLimitHeaders } from '#lib/server/http/rate-limit.ts';
import { logger } from '#lib/server/logger.ts';
import { announceStart, warmModels } from '#lib/server/start-up.ts';
import { listenAdminSocket } from '#lib/server/cli/admin-socket.ts';
import { pageHeaders } from '#lib/server/http/page-headers.ts';
import { fillPageShell } from '#lib/server/http/page-shell-html.ts';
import { compressHtml } from '#lib/server/http/compress-html.ts';
import { frameRefusalResponse, refusedEmbedder } from '#lib/server/http/frame-refusal.ts';

export const init: ServerInit = async () => {
	let app;
	try {
		app = await startApp(config());
	} catch (err) {
		// An operator's mistake deserves a sentence, not a stack trace.
		if (err instanceof ConfigError || err instanceof StoreInUseError) {
			// Synchronous: a piped stderr would lose an async write at process.exit.
			writeSync(2, `${err.message}\n`);
			process.exit(1);
		}
		throw err;
	}
	// The embedded store belongs to this process, so the CLI asks it over a socket (admin-socket.ts).
	const socket = app.health.storeKind === 'pglite' ? listenAdminSocket(app) : null;
	// adapter-node emits this after SIGTERM/SIGINT once requests have drained: flush the store.
	process.once('sveltekit:shutdown' as 'exit', async () => {
		socket?.close();
		await app.close();
	});
	await announceStart(app);
	if (app.config.WARM_MODELS) void warmModels();
};

/** API routes that need no key (`/api/client/*` authenticate with the page's token instead). */
const PUBLIC_API = new Set(['/api/openapi.json']);

export const handle: Handle = async ({ event, resolve }) => {
	const incoming = event.request.headers.get('x-request-id');
	event.locals.requestId = incoming && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomBase62(12);
	const path = event.url.pathname;

	if (isCrossSiteForm(event.request, event.url)) {
		return new Response('Cross-site form submissions are forbidden', { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
	}

	let response: Response;
	// A frame the page may not be shown in: say so there instead of the browser's silent refusal.
	const framed = path === '/verify' && event.request.headers.get('sec-fetch-dest') === 'iframe';
	const embedder = framed ? refusedEmbedder(event.request, event.url, await getApp().pages.frameAncestors({ cs: event.url.searchParams.get('cs'), handoff: event.url.searchParams.get('handoff') })) : null;
	if (embedder) {
		response = frameRefusalResponse(event.request, event.url, embedder);
	} else if (path.startsWith('/api/') && !PUBLIC_API.has(path) && !path.startsWith('/api/client/')) {
		response = await handleApi(event, resolve);
	} else {
		response = await resolve(event, { transformPageChunk: ({ html }) => fillPageShell(html, event.locals) });
		if (response.headers.get('content-type')?.startsWith('text/html')) {
			for (const [name, value] of Object.entries(await pageHeaders(getApp(), event.url, event.locals.frameAncestors))) {
				if (name === 'content-security-policy') response.headers.append(name, value);
				else response.headers.set(name, value);
			}
			response = await compressHtml(event.request, response);
		}
	}
	// SvelteKit answers some malformed requests itself, before any endpoint runs (a path whose
	// percent-encoding is not UTF-8, say) with its HTML error page: the API answers in its own shape.
	if (path.startsWith('/api/') && response.status >= 400 && response.headers.get('content-type')?.startsWith('text/html')) {
		const headers = Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('x-ratelimit') || name === 'retry-after'));
		response =
			response.status === 404
				? errorResponse(new ApiError('not_found_error', 'Not found', { code: 'route_not_found' }), headers)
				: response.status < 500
					? errorResponse(new ApiError('validation_error', 'The request URL could not be read (its percent-encoding is not valid UTF-8?)', { status: response.status }), headers)
					: errorResponse(new ApiError('server_error', 'Something went wrong on our side'), headers);
	}
	try {
		response.headers.set('x-request-id', event.locals.requestId);
	} catch {
		// Some responses (e.g. redirects from fetch) have immutable headers; the id is optional.
	}
	return response;
};

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * SvelteKit's CSRF check, kept for the pages (the demo's form posts): a form or untyped POST, PUT,
 * PATCH or DELETE from another site (Sec-Fetch-Site), or from another origin or none (Origin, for
 * clients that send no Sec-Fetch-Site), is refused. SvelteKit's own check is turned off in
 * vite.config.ts only because it would also refuse `curl -d` (form-encoded, no Origin) on /api,
 * where a bearer key, never a cookie, is what authorises a request.
 */
function isCrossSiteForm(request: Request, url: URL): boolean {
	if (url.pathname.startsWith('/api/') || !['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method)) return false;
	const type = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
	if (type && !FORM_TYPES.includes(type)) return false;
	// Browsers say where a request comes from in Sec-Fetch-Site, whatever the referrer policy; the
	// pages' `Referrer-Policy: no-referrer` makes them send `Origin: null` on their own form posts.
	const site = request.headers.get('sec-fetch-site');
	if (site) return site !== 'same-origin';
	// Other clients: the Origin header, which must be present.
	const origin = request.headers.get('origin');
	if (!origin || origin === 'null') return true;
	// Same host as the request was addressed to (adapter-node assumes https without ORIGIN or
	// PROTOCOL_HEADER, so the scheme of `url` says nothing behind plain HTTP), or PUBLIC_BASE_URL's.
	try {
		const from = new URL(origin);
		return from.host !== url.host && from.origin !== new URL(getApp().config.PUBLIC_BASE_URL).origin;
	} catch {
		return true;
	}
}

async function handleApi(event: Parameters<Handle>[0]['event'], resolve: Parameters<Handle>[0]['resolve']): Promise<Response> {
	const app = getApp();
	const header = event.request.headers.get('authorization') ?? '';
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) {
		return errorResponse(new ApiError('authentication_error', header ? 'Invalid API key: use "Authorization: Bearer sk_test_…"' : 'Missing API key: send "Authorization: Bearer sk_test_…"', { code: 'missing_api_key' }));
	}
	const principal = await app.accounts.authenticate(match[1]);
	if (!principal) return errorResponse(new ApiError('authentication_error', 'Invalid API key', { code: 'invalid_api_key' }));
	event.locals.principal = principal;

	const decision = await app.rateLimiter.consume(principal.keyId);
	event.locals.rateLimit = decision;
	const headers = rateLimitHeaders(decision);
	if (!decision.allowed) return errorResponse(new ApiError('rate_limit_error', 'Rate limit exceeded'), headers);

	const response = await resolve(event);
	for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
	return response;
}

export const handleError: HandleServerError = ({ error, event, kind }) => {
	if (kind !== 'framework') logger.error({ err: error, requestId: event.locals.requestId, path: event.url.pathname }, 'unhandled error');
	return { message: kind === 'framework' ? (error as { message: string }).message : 'Something went wrong on our side', requestId: event.locals.requestId };
};

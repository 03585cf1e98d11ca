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
import { announceStart } from '#lib/server/start-up.ts';
import { listenAdminSocket } from '#lib/server/cli/admin-socket.ts';
import { pageHeaders } from '#lib/server/http/page-headers.ts';

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
	const socket = app.store.kind === 'pglite' ? listenAdminSocket(app) : null;
	// adapter-node emits this after SIGTERM/SIGINT once requests have drained: flush the store.
	process.once('sveltekit:shutdown' as 'exit', async () => {
		socket?.close();
		await app.close();
	});
	await announceStart(app);
};

/** API routes that need no key (`/api/client/*` authenticate with the page's token instead). */
const PUBLIC_API = new Set(['/api/openapi.json']);

export const handle: Handle = async ({ event, resolve }) => {
	const incoming = event.request.headers.get('x-request-id');
	event.locals.requestId = incoming && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomBase62(12);
	const path = event.url.pathname;

	let response: Response;
	if (path.startsWith('/api/') && !PUBLIC_API.has(path) && !path.startsWith('/api/client/')) {
		response = await handleApi(event, resolve);
	} else {
		response = await resolve(event, { transformPageChunk: ({ html }) => html.replace('%lang%', event.locals.lang ?? 'en') });
		if (response.headers.get('content-type')?.startsWith('text/html')) {
			for (const [name, value] of Object.entries(await pageHeaders(getApp(), event.url))) {
				if (name === 'content-security-policy') response.headers.append(name, value);
				else response.headers.set(name, value);
			}
		}
	}
	try {
		response.headers.set('x-request-id', event.locals.requestId);
	} catch {
		// Some responses (e.g. redirects from fetch) have immutable headers; the id is optional.
	}
	return response;
};

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

import type { App } from '../app.ts';
import { sha256Hex } from '../crypto.ts';

/**
 * Headers of the hosted page's HTML. The main CSP (scripts, connections) comes from SvelteKit's
 * `csp` option (vite.config.ts) so its inline scripts get hashes; `frame-ancestors` depends on
 * the session's account, so it is a second policy added here (browsers enforce both).
 */
export async function pageHeaders(app: App, url: URL): Promise<Record<string, string>> {
	const origins = url.pathname.startsWith('/verify') ? await embedOriginsFor(app, url) : [];
	return {
		'content-security-policy': `frame-ancestors 'self'${origins.length ? ` ${origins.join(' ')}` : ''}`,
		// Only this page's own origin may use the camera and microphone (an embedding page grants
		// them to the frame with allow="camera; microphone").
		'permissions-policy': 'camera=(self), microphone=(self), geolocation=(), payment=(), usb=()',
		// The URL carries the client secret: never send it on as a referrer.
		'referrer-policy': 'no-referrer',
		'x-content-type-options': 'nosniff',
		'cache-control': 'no-store'
	};
}

/** FRAME_ANCESTORS plus the origins of the account whose link this is. */
async function embedOriginsFor(app: App, url: URL): Promise<string[]> {
	const base = app.config.FRAME_ANCESTORS.filter((o) => o.startsWith('http'));
	const cs = url.searchParams.get('cs');
	const handoff = url.searchParams.get('handoff');
	let sessionId: string | null = null;
	if (cs && /^cs_[A-Za-z0-9]{20,64}$/.test(cs)) sessionId = (await app.uow.repos.sessions.findSecretByHash(sha256Hex(cs)))?.sessionId ?? null;
	else if (handoff && /^ho_[A-Za-z0-9]{20,64}$/.test(handoff)) sessionId = (await app.uow.repos.pageAccess.findHandoff(sha256Hex(handoff)))?.sessionId ?? null;
	if (!sessionId) return base;
	const session = await app.uow.repos.sessions.findById(sessionId);
	return session ? app.pages.embedOrigins(app.uow.repos, session.accountId) : base;
}

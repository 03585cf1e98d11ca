import type { App } from '../app.ts';

/**
 * Headers of the hosted page's HTML. The main CSP (scripts, connections) comes from SvelteKit's
 * `csp` option (vite.config.ts) so its inline scripts get hashes; `frame-ancestors` depends on
 * the session's account, so it is a second policy added here (browsers enforce both).
 * `frameAncestors` is what `/verify`'s load found when it looked at the link; a `/verify` response
 * without it (an error page) has the link looked at here.
 */
export async function pageHeaders(app: App, url: URL, frameAncestors?: string[]): Promise<Record<string, string>> {
	const origins = url.pathname.startsWith('/verify') ? (frameAncestors ?? (await app.pages.frameAncestors({ cs: url.searchParams.get('cs'), handoff: url.searchParams.get('handoff') }))) : [];
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

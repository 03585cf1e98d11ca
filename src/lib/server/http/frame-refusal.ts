import { createHash } from 'node:crypto';
import { BUNDLED_LOCALES } from '#lib/i18n/bundled-locales.ts';
import { parseAcceptLanguage, resolveLanguage } from '#lib/i18n/resolve-language.ts';

/**
 * A `/verify` page framed by an origin that may not embed it. `frame-ancestors` makes the browser
 * refuse the real page, and it refuses silently: a grey error box, no event, no script runs. When
 * the browser says who the embedder is (a framed request, `Sec-Fetch-Dest: iframe`, with a
 * `Referer`), the refused origin gets this page instead: no session data, one link that opens the
 * real page in its own tab (where no frame is needed), and a `veriflow:error` with code
 * `frame_not_allowed` so the integrator's page can react. It may be framed anywhere: it has nothing
 * to click-jack. Without a `Referer` (the embedder chose to hide it) the real page is served as
 * before and the browser's `frame-ancestors` refusal stands.
 */
export function refusedEmbedder(request: Request, url: URL, allowed: readonly string[]): string | null {
	if (request.headers.get('sec-fetch-dest') !== 'iframe') return null;
	let embedder: string;
	try {
		embedder = new URL(request.headers.get('referer') ?? '').origin;
	} catch {
		return null;
	}
	if (embedder === 'null' || embedder === url.origin || allowed.includes(embedder)) return null;
	return embedder;
}

// Fixed, so its CSP hash is too: the message carries a code and nothing of the session.
const SCRIPT = `parent !== window && parent.postMessage({ type: 'veriflow:error', sessionId: null, status: null, code: 'frame_not_allowed' }, '*');`;
const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function frameRefusalResponse(request: Request, url: URL, embedder: string): Response {
	const lang = resolveLanguage({ browserLanguages: parseAcceptLanguage(request.headers.get('accept-language')) });
	const words = BUNDLED_LOCALES[lang].link;
	// Every locale has these three (locales.spec.ts holds the catalogues to en's keys).
	const word = (key: 'frameRefusedTitle' | 'frameRefusedBody' | 'frameRefusedOpen'): string => {
		const value = typeof words === 'object' ? words[key] : undefined;
		return typeof value === 'string' ? value : '';
	};
	const t = { frameRefusedTitle: word('frameRefusedTitle'), frameRefusedBody: word('frameRefusedBody'), frameRefusedOpen: word('frameRefusedOpen') };
	const host = escape(new URL(embedder).host);
	const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${escape(t.frameRefusedTitle)}</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;color:#1a1f2e;background:#f4f5fa}main{max-width:34rem;margin:0 auto}h1{font-size:1.4rem;margin:0 0 .5rem}a{display:inline-block;margin-top:.75rem;padding:.7rem 1.25rem;border-radius:999px;background:#2f45c5;color:#fff;font-weight:600;text-decoration:none}</style></head>
<body><main data-screen="frame-refused"><h1>${escape(t.frameRefusedTitle)}</h1><p>${escape(t.frameRefusedBody).replace('{{site}}', `<strong>${host}</strong>`)}</p>
<a href="${escape(url.pathname + url.search)}" target="_blank" rel="noopener" data-testid="frame-refused-open">${escape(t.frameRefusedOpen)}</a></main>
<script>${SCRIPT}</script></body></html>`;
	return new Response(html, {
		status: 200,
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; frame-ancestors *; base-uri 'none'; form-action 'none'`,
			'referrer-policy': 'no-referrer',
			'x-robots-tag': 'noindex, nofollow',
			'cache-control': 'no-store'
		}
	});
}

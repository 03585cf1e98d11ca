// The open call's request, made the same way by the page shell (which may send it before the
// runner's code has arrived) and by the runner (which sends it, or retries it, itself). Small on
// purpose: it is part of the permissions page's first load.
import type { PageIntro } from '#lib/domain/page/page-intro.ts';
import type { OpenRequest } from '#lib/domain/page/page.schema.ts';
import type { SupportedLang } from '#lib/domain/languages.ts';
import { storage, TAB_PREFIX } from './tab-storage.ts';

export const OPEN_PATH = '/api/client/open';

/**
 * The body that exchanges the link `code` for a page token: the language the user picked first,
 * then the browser's. The nonce is this tab's, kept, so a retry of the call is the same request.
 */
export function openRequest(code: string, intro: PageIntro, chosenLang: SupportedLang | null, browserLanguages: readonly string[]): OpenRequest {
	const languages = [...(chosenLang ? [chosenLang] : []), ...browserLanguages];
	const nonce = openNonce(code);
	return intro.via === 'handoff' ? { handoff: code, languages, nonce } : { clientSecret: code, languages, nonce, ...(intro.override ? { override: intro.override } : {}) };
}

/** Request options for a JSON call (the page client sends every call this way). */
export function jsonInit(method: string, body: unknown, token: string | null, signal?: AbortSignal): RequestInit {
	return {
		method,
		signal,
		headers: {
			accept: 'application/json',
			...(body !== undefined ? { 'content-type': 'application/json' } : {}),
			...(token ? { authorization: `Bearer ${token}` } : {})
		},
		body: body === undefined ? undefined : JSON.stringify(body),
		cache: 'no-store'
	};
}

/**
 * This tab's nonce for opening the link `code`, made once and kept: a retry of the open (its
 * answer lost to a dropped connection, or a reload mid-way) proves it is the same tab.
 */
export function openNonce(code: string): string {
	const key = `${TAB_PREFIX}nonce:${code}`;
	try {
		const existing = storage().getItem(key);
		if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) return existing;
	} catch {
		// fall through to a fresh one
	}
	const bytes = crypto.getRandomValues(new Uint8Array(18));
	const nonce = btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
	try {
		storage().setItem(key, nonce);
	} catch {
		// Quota or privacy mode: a new nonce next time, and a retry after a reload is refused as `used`.
	}
	return nonce;
}

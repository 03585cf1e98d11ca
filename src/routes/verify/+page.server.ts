import { DETECTOR_PRELOADS } from '#lib/camera/model-files.ts';
import { detectInAppBrowser } from '#lib/domain/in-app-browser.ts';
import type { VerifyPageData } from '#lib/domain/page/page-intro.ts';
import type { LocaleCatalogue } from '#lib/i18n/catalogue.ts';
import { BUNDLED_LOCALES } from '#lib/i18n/bundled-locales.ts';
import { parseAcceptLanguage } from '#lib/i18n/resolve-language.ts';
import { getApp } from '#lib/server/app.ts';
import type { PageServerLoad } from './$types';

/**
 * Looks at the link without opening it (PageService.preview): a dead link gets its explanation
 * (and nothing of the session), an openable one its permissions page, rendered in the
 * Accept-Language language. The browser opens the session when the user continues (see
 * flow-runner.svelte.ts for why).
 */
export const load: PageServerLoad = async ({ url, request, locals, setHeaders }) => {
	const { page, frameAncestors } = await getApp().pages.preview(
		{ cs: url.searchParams.get('cs'), handoff: url.searchParams.get('handoff') },
		{ browserLanguages: parseAcceptLanguage(request.headers.get('accept-language')), override: url.searchParams.get('lang') }
	);
	setHeaders({ 'x-robots-tag': 'noindex, nofollow' });
	// For `handle`'s headers: the link was looked up once, here.
	locals.frameAncestors = frameAncestors;
	locals.lang = page.lang;

	const userAgent = (request.headers.get('user-agent') ?? '').slice(0, 512);
	const text = { catalogue: BUNDLED_LOCALES[page.lang], userAgent };
	const inApp = page.kind === 'intro' ? detectInAppBrowser(userAgent) : undefined;
	// Face steps ahead: their detector's files download with the page (see DETECTOR_PRELOADS). Not in
	// an in-app browser: it gets the "open in your browser" page, and the face steps run elsewhere.
	if (page.kind === 'intro' && page.intro.requirements.biometric && !inApp) locals.preload = DETECTOR_PRELOADS;
	return { ...page, ...(inApp ? { inApp } : {}), ...text } satisfies VerifyPageData<LocaleCatalogue>;
};

import { isSupportedLang, type SupportedLang } from '#lib/domain/langs.ts';
import { detectInAppBrowser } from '#lib/domain/in-app-browser.ts';
import type { PageIntro, VerifyPageData } from '#lib/domain/page/page-intro.ts';
import type { PageState } from '#lib/domain/page/page.schema.ts';
import type { LocaleCatalogue } from '#lib/i18n/catalogue.ts';
import { BUNDLED_LOCALES } from '#lib/i18n/bundled-locales.ts';
import { parseAcceptLanguage, resolveLanguage } from '#lib/i18n/resolve-language.ts';
import { getApp } from '#lib/server/app.ts';
import { inspectLink } from '#lib/server/services/page-link.ts';
import { requirementsOf } from '#lib/server/services/page.service.ts';
import type { PageServerLoad } from './$types';

/**
 * Looks at the link without opening it: a dead link gets its explanation (and nothing of the
 * session), an openable one its permissions page, rendered in the Accept-Language language. The
 * browser opens the session when the user continues (see flow-runner.svelte.ts for why).
 */
export const load: PageServerLoad = async ({ url, request, locals, setHeaders }) => {
	const app = getApp();
	const accept = parseAcceptLanguage(request.headers.get('accept-language'));
	const check = await inspectLink(app.uow.repos, app.now(), { cs: url.searchParams.get('cs'), handoff: url.searchParams.get('handoff') });
	setHeaders({ 'x-robots-tag': 'noindex, nofollow' });

	const userAgent = (request.headers.get('user-agent') ?? '').slice(0, 512);
	const withText = <T extends { lang: SupportedLang }>(data: T): T & { catalogue: LocaleCatalogue; userAgent: string } => {
		locals.lang = data.lang;
		return { ...data, catalogue: BUNDLED_LOCALES[data.lang], userAgent };
	};

	if (check.kind !== 'openable') {
		// Only the browser's own preference: the session's languages are session data.
		const lang = resolveLanguage({ browserLanguages: accept });
		// The embedding page is told why the frame cannot go on; its origins are already public in
		// this response's frame-ancestors header.
		const embedOrigins = check.session ? await app.pages.embedOrigins(app.uow.repos, check.session.accountId) : [];
		if (check.kind === 'opened') return withText({ kind: 'opened', lang, via: check.via, embedOrigins }) satisfies VerifyPageData<LocaleCatalogue>;
		return withText({ kind: 'problem', lang, problem: check.problem, embedOrigins }) satisfies VerifyPageData<LocaleCatalogue>;
	}

	const session = check.session;
	const settings = session.settings as { langs?: string[]; defaultLang?: string; avatarId?: string; customization?: PageState['customization'] };
	const langs = (settings.langs?.filter(isSupportedLang) ?? []) as SupportedLang[];
	const defaultLang = isSupportedLang(settings.defaultLang) ? settings.defaultLang : undefined;
	const override = session.env === 'test' ? (url.searchParams.get('lang') ?? undefined) : undefined;
	const fixedLang = check.via === 'handoff' && isSupportedLang(session.lang) ? session.lang : undefined;
	const lang = fixedLang ?? resolveLanguage({ browserLanguages: accept, sessionLangs: langs, defaultLang, override });
	const avatar = await app.catalogue.avatarFor(settings.avatarId);
	const intro: PageIntro = {
		via: check.via,
		sessionId: session.id,
		status: session.status === 'inProgress' ? 'inProgress' : 'created',
		embedOrigins: await app.pages.embedOrigins(app.uow.repos, session.accountId),
		langs,
		...(defaultLang ? { defaultLang } : {}),
		...(fixedLang ? { fixedLang } : {}),
		...(override ? { override: override.slice(0, 16) } : {}),
		sandbox: session.env === 'test',
		avatar: avatar ? { id: avatar.id, name: avatar.name, imageUrl: avatar.imageUrl, gender: avatar.gender } : null,
		customization: settings.customization ?? {},
		requirements: requirementsOf(session.flow as { type: string }[])
	};
	const inApp = detectInAppBrowser(userAgent);
	return withText({ kind: 'intro', lang, intro, ...(inApp ? { inApp } : {}) }) satisfies VerifyPageData<LocaleCatalogue>;
};

import { error, redirect } from '@sveltejs/kit';
import { BUNDLED_LOCALES } from '#lib/i18n/bundled-locales.ts';
import { parseAcceptLanguage, resolveLanguage, toSupportedLang } from '#lib/i18n/resolve-language.ts';
import { getApp } from '#lib/server/app.ts';
import { createDemoSession, findDemoPrincipal } from '#lib/server/services/demo.service.ts';
import type { Actions, PageServerLoad } from './$types';

/** The demo exists only where a sandbox account does (it creates real sandbox sessions). */
async function principal() {
	const found = await findDemoPrincipal(getApp().accounts);
	if (!found) error(404, 'Not found');
	return found;
}

export const load: PageServerLoad = async ({ url, request, locals }) => {
	await principal();
	const override = url.searchParams.get('lang') ?? undefined;
	const lang = resolveLanguage({ browserLanguages: parseAcceptLanguage(request.headers.get('accept-language')), override });
	locals.lang = lang;
	return { lang, catalogue: BUNDLED_LOCALES[lang], override: override && toSupportedLang(override) ? override : null };
};

export const actions: Actions = {
	/** Creates a sandbox session with the demo flow and sends the browser to its hosted page. */
	default: async ({ request }) => {
		const form = await request.formData();
		const lang = form.get('lang');
		const { url } = await createDemoSession(getApp().sessions, await principal());
		const target = new URL(url);
		if (typeof lang === 'string' && toSupportedLang(lang)) target.searchParams.set('lang', lang);
		// Relative, so the demo works on whichever host name it was opened with.
		redirect(303, `${target.pathname}${target.search}`);
	}
};

import { error, redirect } from '@sveltejs/kit';
import { BUNDLED_LOCALES } from '#lib/i18n/bundled-locales.ts';
import { parseAcceptLanguage, resolveLanguage, toSupportedLang } from '#lib/i18n/resolve-language.ts';
import { getApp } from '#lib/server/app.ts';
import { getClientIp } from '#lib/server/report/client-ip.ts';
import type { Actions, PageServerLoad } from './$types';

/** The demo exists only where the operator allows it (DEMO_ENABLED; demo.service.ts). */
async function principal() {
	const found = await getApp().demo.principal();
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
	default: async (event) => {
		const app = getApp();
		const form = await event.request.formData().catch(() => error(400, 'The form could not be read'));
		const lang = form.get('lang');
		const ip = getClientIp({ socketAddress: event.getClientAddress(), forwardedFor: event.request.headers.get('x-forwarded-for'), trustProxy: app.config.TRUST_PROXY });
		const started = await app.demo.start(ip ?? event.getClientAddress());
		if (started === null) error(404, 'Not found');
		if (started === 'limited') error(429, 'Too many demo sessions from this address: please try again in an hour');
		const { url } = started;
		const target = new URL(url);
		if (typeof lang === 'string' && toSupportedLang(lang)) target.searchParams.set('lang', lang);
		// Relative, so the demo works on whichever host name it was opened with.
		redirect(303, `${target.pathname}${target.search}`);
	}
};

import { getApp } from '#lib/server/app.ts';
import { json } from '#lib/server/http/error-response.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';

/** A one-time link for continuing on another device (the page shows it as a QR code). */
export const POST = pageRoute(async (_event, principal) => {
	const app = getApp();
	const { code, expiresAt } = await app.pages.createHandoff(principal);
	return json({ url: `${app.config.PUBLIC_BASE_URL}/verify?handoff=${code}`, expiresAt });
});

export const fallback = methodNotAllowed(['POST']);

import { getApp } from '#lib/server/app.ts';
import { readJson } from '#lib/server/http/body.ts';
import { json } from '#lib/server/http/error-response.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { publicRoute } from '#lib/server/http/page-route.ts';
import { getClientIp } from '#lib/server/report/client-ip.ts';
import { parseDevice } from '#lib/server/report/device.ts';
import { lookupLocation } from '#lib/server/report/geoip.ts';

/** Exchanges a client secret (first open) or a hand-over code for a page token. */
export const POST = publicRoute(async (event) => {
	const app = getApp();
	const body = await readJson(event.request, 64 * 1024);
	const ip = getClientIp({ socketAddress: event.getClientAddress(), forwardedFor: event.request.headers.get('x-forwarded-for'), trustProxy: app.config.TRUST_PROXY });
	const location = ip ? { ...(await lookupLocation(ip)) } : undefined;
	const device = { ...parseDevice(event.request.headers) };
	return json(await app.pages.open(body, { ip: ip ?? undefined, location, device }));
});

export const fallback = methodNotAllowed(['POST']);

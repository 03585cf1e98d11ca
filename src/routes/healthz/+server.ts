import { getApp } from '#lib/server/app.ts';
import { json } from '#lib/server/http/error-response.ts';
import { API_VERSION } from '#lib/server/services/session.service.ts';
import pkg from '../../../package.json' with { type: 'json' };

/** Liveness and readiness in one: 200 when the store answers, 503 otherwise. No key needed. */
export const GET = async () => {
	const store = await getApp().health.store();
	return json({ status: store.ok ? 'ok' : 'unavailable', version: pkg.version, apiVersion: API_VERSION, store }, store.ok ? 200 : 503);
};

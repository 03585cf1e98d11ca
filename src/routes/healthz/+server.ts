import { getApp } from '#lib/server/app.ts';
import { json } from '#lib/server/http/error-response.ts';
import { API_VERSION } from '#lib/server/services/session.service.ts';
import pkg from '../../../package.json' with { type: 'json' };

/** Liveness and readiness in one: 200 when the store answers, 503 otherwise. No key needed. */
export const GET = async () => {
	const app = getApp();
	const started = performance.now();
	try {
		await app.store.query('select 1');
		return json({ status: 'ok', version: pkg.version, apiVersion: API_VERSION, store: { kind: app.store.kind, ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 } });
	} catch {
		return json({ status: 'unavailable', version: pkg.version, apiVersion: API_VERSION, store: { kind: app.store.kind, ok: false } }, 503);
	}
};

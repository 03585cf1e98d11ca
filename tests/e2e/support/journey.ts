import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { E2E_KEY } from './constants.ts';

export { E2E_KEY };

export const baseUrl = (): string => {
	const url = process.env.VF_E2E_BASE_URL;
	if (!url) throw new Error('VF_E2E_BASE_URL is not set: run through playwright.config.ts (global setup starts the server)');
	return url;
};

/** The Session API with the suite's sandbox key. */
export async function api<T = any>(method: string, path: string, body?: unknown, base = baseUrl()): Promise<{ status: number; json: T }> {
	const res = await fetch(`${base}/api${path}`, {
		method,
		headers: { authorization: `Bearer ${E2E_KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	return { status: res.status, json: (await res.json()) as T };
}

export interface CreatedSession {
	id: string;
	secret: string;
	/** Path and query of the hosted page (`/verify?cs=…`). */
	path: string;
}

export async function createSession(settings: Record<string, unknown>, base = baseUrl()): Promise<CreatedSession> {
	const res = await api<any>('POST', '/sessions', { clientReferenceId: `e2e-${Date.now()}`, ...settings }, base);
	expect(res.status, JSON.stringify(res.json)).toBe(201);
	const url = new URL(res.json.clientSecret.url);
	return { id: res.json.session.id, secret: res.json.clientSecret.secret, path: `${url.pathname}${url.search}` };
}

/** The passcode of a sandbox session, read from the sandbox outbox as an integrator's test would. */
export async function sandboxCode(sessionId: string, after = 0): Promise<string> {
	for (let i = 0; i < 50; i++) {
		const res = await api<{ messages: { body: string; createdAt: number }[] }>('GET', `/sandbox/messages?sessionId=${sessionId}`);
		const message = res.json.messages.find((m) => m.createdAt > after);
		const code = message && /\b(\d{4,8})\b/.exec(message.body)?.[1];
		if (code) return code;
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`no passcode in the sandbox outbox for ${sessionId}`);
}

export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

/** Screenshots of the current screen at phone and desktop size, attached to the test report. */
export async function attachScreens(page: Page, testInfo: TestInfo, name: string): Promise<void> {
	const original = page.viewportSize();
	for (const [label, size] of Object.entries(VIEWPORTS)) {
		await page.setViewportSize(size);
		await page.evaluate(() => document.fonts?.ready);
		const body = await page.screenshot({ fullPage: true });
		await testInfo.attach(`${name} (${label} ${size.width}x${size.height})`, { body, contentType: 'image/png' });
		// For looking at them outside the report: VF_E2E_SHOTS_DIR=/some/dir npx playwright test
		if (process.env.VF_E2E_SHOTS_DIR) {
			mkdirSync(process.env.VF_E2E_SHOTS_DIR, { recursive: true });
			writeFileSync(path.join(process.env.VF_E2E_SHOTS_DIR, `${name.replace(/[^\w-]+/g, '-')}-${label}.png`), body);
		}
	}
	if (original) await page.setViewportSize(original);
}

/** The session as the integrator sees it. */
export async function getSession(id: string, base = baseUrl()): Promise<any> {
	const res = await api<any>('GET', `/sessions/${id}`, undefined, base);
	expect(res.status).toBe(200);
	return res.json.session;
}

/** Small flows for the journeys. */
export const FLOWS = {
	emailOnly: [
		{ id: 'start', type: 'start', outcome: 'email' },
		{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' } },
		{ id: 'end', type: 'end' }
	],
	emailThenCode: [
		{ id: 'start', type: 'start', outcome: 'email' },
		{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'code', canceled: 'end' } },
		{ id: 'code', type: 'two_factor_email', otpLength: 6, outcomes: { verified: 'end', delivery_failed: 'end', failed_unverified: 'end', cancelled: 'end', error: 'end' } },
		{ id: 'end', type: 'end' }
	],
	cameraWithPermissions: [
		{ id: 'start', type: 'start', outcome: 'perm' },
		{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'face', permissionsDenied: 'end' } },
		// A camera step without biometrics (no consent line): the journeys that only need "a camera is
		// on" use it; document and face nodes have journeys of their own.
		{ id: 'face', type: 'document_scan', scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: ['MRTD_TYPE_PASSPORT'], outcomes: { scanSuccess: 'end', userCancelled: 'end', scanTimeout: 'end' } },
		{ id: 'end', type: 'end' }
	]
};

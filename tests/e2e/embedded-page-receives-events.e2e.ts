import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { FLOWS, baseUrl, createSession } from './support/journey.ts';

const parentOrigin = () => process.env.VF_E2E_PARENT_ORIGIN!;

test('inside an iframe on an allowed origin, the page runs with the camera and posts its events there', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.cameraWithPermissions });
	await page.goto(`${parentOrigin()}/embed?src=${encodeURIComponent(baseUrl() + session.path)}`);
	const frame = page.frameLocator('iframe');
	await frame.getByTestId('permissions-continue').click();
	// The camera works in the frame (allow="camera; microphone" + the page's Permissions-Policy).
	await expect.poll(() => frame.locator('[data-testid="document-node"] video').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
	await frame.getByTestId('document-cancel').click();
	await frame.getByTestId('document-cancel-confirm').click();
	await expect(frame.locator('[data-screen="end"]')).toBeVisible();

	const lifecycle = (all: { data: Record<string, unknown> }[]) => all.filter((m) => m.data.type !== 'veriflow:resize');
	await expect.poll(async () => lifecycle(await page.evaluate(() => (window as any).veriflowMessages)).length).toBeGreaterThanOrEqual(4);
	const all: { origin: string; data: Record<string, unknown> }[] = await page.evaluate(() => (window as any).veriflowMessages);
	expect(new Set(all.map((m) => m.origin))).toEqual(new Set([baseUrl()]));
	// The content's height, so the embedding page can fit its iframe to it.
	const heights = all.filter((m) => m.data.type === 'veriflow:resize').map((m) => m.data.height as number);
	expect(heights.length).toBeGreaterThan(0);
	for (const h of heights) expect(h).toBeGreaterThan(100);
	const messages = lifecycle(all);
	expect(messages.map((m) => m.data.type)).toEqual(['veriflow:ready', 'veriflow:node', 'veriflow:node', 'veriflow:complete']);
	expect(messages.map((m) => m.data.nodeType).filter(Boolean)).toEqual(['permissions', 'document_scan']);
	for (const { data } of messages) {
		expect(data.sessionId).toBe(session.id);
		// Ids and statuses only: nothing personal can ride along.
		expect(Object.keys(data).every((k) => ['type', 'sessionId', 'status', 'nodeType', 'code', 'height', 'isVerified'].includes(k))).toBe(true);
	}
	expect(messages.at(-1)!.data.status).toBe('complete');
	// The document step was cancelled: complete, and not verified (the report's isVerified, for the UI).
	expect(messages.at(-1)!.data.isVerified).toBe(false);
});

test("the end page says the integrator's words and leads back to their site with the session id", async ({ page }) => {
	const returnUrl = `${parentOrigin()}/embed?back=1`;
	const session = await createSession({
		flow: FLOWS.emailOnly,
		langs: ['en', 'de'],
		customization: { endPage: { heading: 'Thanks, that was it', textTranslates: { de: 'Wir melden uns per E-Mail.' }, text: 'We will e-mail you.', returnUrl } }
	});
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	await page.getByLabel(text('en', 'email:label')).fill('ada@example.com');
	await page.getByRole('button', { name: text('en', 'email:submit') }).click();
	const end = page.locator('[data-screen="end"]');
	await expect(end.getByRole('heading')).toHaveText('Thanks, that was it');
	await expect(end).toContainText('We will e-mail you.');
	const back = page.getByTestId('end-return');
	await expect(back).toHaveText(text('en', 'end:returnTo', { site: new URL(returnUrl).host }));
	const href = new URL((await back.getAttribute('href'))!);
	expect([href.origin + href.pathname, href.searchParams.get('back'), href.searchParams.get('sessionId'), href.searchParams.get('status')]).toEqual([`${parentOrigin()}/embed`, '1', session.id, 'complete']);
});

test('an origin that is not allowed gets no session: the frame says why, links to a tab of its own, and tells the embedding page', async ({ page, context }) => {
	const session = await createSession({ flow: FLOWS.emailOnly });
	// Same server, other host name: a different origin, absent from FRAME_ANCESTORS.
	const other = parentOrigin().replace('localhost', '127.0.0.1');
	const framedBy = (origin: string) => ({ 'sec-fetch-dest': 'iframe', referer: `${origin}/embed` });
	// The refusal has nothing of the session, and no page token is handed out: the link stays unused.
	const refused = await page.request.get(`${baseUrl()}${session.path}`, { headers: framedBy(other) });
	const html = await refused.text();
	expect(html).not.toContain(session.id);
	expect(html).not.toContain('"customization"');
	expect(refused.headers()['content-security-policy']).toContain('frame-ancestors *');
	// An allowed embedder and a top-level visit get the page, which the browser keeps to its allowed frames.
	for (const headers of [framedBy(parentOrigin()), {}]) {
		const response = await page.request.get(`${baseUrl()}${session.path}`, { headers });
		expect(response.headers()['content-security-policy']).toContain(`frame-ancestors 'self' ${parentOrigin()}`);
		expect(await response.text()).toContain('data-screen="permissions"');
	}

	await page.goto(`${other}/embed?src=${encodeURIComponent(baseUrl() + session.path)}`);
	const frame = page.frameLocator('iframe');
	await expect(frame.getByRole('heading')).toHaveText(text('en', 'link:frameRefusedTitle'));
	await expect(frame.locator('main')).toContainText(new URL(other).host);
	await expect.poll(() => page.evaluate(() => (window as any).veriflowMessages)).toEqual([
		{ origin: baseUrl(), data: { type: 'veriflow:error', sessionId: null, status: null, code: 'frame_not_allowed' } }
	]);
	// The way on: the same link in a tab of its own, where the page works.
	const [tab] = await Promise.all([context.waitForEvent('page'), frame.getByTestId('frame-refused-open').click()]);
	await expect(tab.getByTestId('permissions-continue')).toBeVisible();
	await tab.close();
});

test('an embedder that hides its address still cannot frame the page: the browser refuses it', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.emailOnly });
	const other = parentOrigin().replace('localhost', '127.0.0.1');
	await page.goto(`${other}/embed?noreferrer=1&src=${encodeURIComponent(baseUrl() + session.path)}`);
	// Wait for the browser's verdict on the frame (its error page), not for a fixed time a slow machine may not meet.
	await expect.poll(() => page.frames().find((f) => f !== page.mainFrame())?.url() ?? '', { timeout: 30_000 }).toMatch(/^chrome-error:/);
	const frame = page.frames().find((f) => f !== page.mainFrame());
	expect(await frame?.locator('[data-screen="permissions"]').count()).toBe(0);
	expect(await page.evaluate(() => (window as any).veriflowMessages.length)).toBe(0);
});

test('a dead link inside the frame tells the embedding page why, with no session data', async ({ browser }) => {
	const session = await createSession({ flow: FLOWS.emailOnly });
	// Each page in its own context, closed at the end: a page left open keeps running beside the
	// worker's next tests, and their failure screenshots would show it instead of their own.
	const first = await browser.newPage();
	const page = await (await browser.newContext()).newPage();
	try {
		await first.goto(session.path);
		await first.getByTestId('permissions-continue').click();
		await expect(first.getByRole('heading', { name: text('en', 'email:title') })).toBeVisible();

		await page.goto(`${parentOrigin()}/embed?src=${encodeURIComponent(baseUrl() + session.path)}`);
		await expect(page.frameLocator('iframe').locator('[data-screen="problem"]')).toHaveAttribute('data-problem', 'used');
		const messages = () => page.evaluate(() => (window as any).veriflowMessages as { origin: string; data: Record<string, unknown> }[]);
		await expect.poll(async () => (await messages()).filter((m) => m.data.type !== 'veriflow:resize').length).toBe(1);
		const all = await messages();
		const [message] = all.filter((m) => m.data.type !== 'veriflow:resize');
		expect(message).toEqual({ origin: baseUrl(), data: { type: 'veriflow:error', sessionId: null, status: null, code: 'client_secret_used' } });
		// The problem screen's height may follow, with nothing about the session either.
		for (const m of all.filter((x) => x.data.type === 'veriflow:resize')) expect(m.data).toEqual({ type: 'veriflow:resize', sessionId: null, status: null, height: expect.any(Number) });
		// The content's own height, shorter than the 720 px frame it sits in: the embedding page can
		// shrink its iframe to it, not only grow it.
		// The last height heard is the content's once the page has settled: heights are reported as the
		// layout changes, after the error (on a loaded machine one came 150 px short, before the rest).
		const lastSize = async () => (await messages()).filter((m) => m.data.type === 'veriflow:resize').at(-1)?.data.height as number | undefined;
		const inFrame = () => page.frameLocator('iframe').locator('.vf-app').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
		await expect.poll(async () => (await lastSize()) === (await inFrame()), { timeout: 10_000 }).toBe(true);
		expect(await lastSize()).toBeLessThan(720);
	} finally {
		await first.context().close();
		await page.context().close();
	}
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { text } from './support/catalogue.ts';
import { E2E_KEY, FLOWS, attachScreens, createSession } from './support/journey.ts';

/** What a dead-link page must never show: anything of the session behind it. */
function expectNoSessionData(html: string, session: { id: string; secret?: string }, reference: string) {
	expect(html).not.toContain(session.id);
	expect(html).not.toContain(reference);
	expect(html).not.toContain('enter_email');
	expect(html).not.toContain('"customization"');
}

test('an unknown link says so and what to do, in the browser language', async ({ browser }, testInfo) => {
	const context = await browser.newContext({ locale: 'de-DE' });
	const page = await context.newPage();
	await page.goto('/verify?cs=cs_000000000000000000000000000000nope');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'link:unknownTitle'));
	await expect(page.getByText(text('de', 'link:whatToDo'))).toBeVisible();
	await attachScreens(page, testInfo, 'unknown link (de)');
	await page.goto('/verify');
	await expect(page.locator('[data-screen="problem"]')).toHaveAttribute('data-problem', 'invalid');
	await context.close();
});

test('a link opened in one browser is refused in another, without session data', async ({ browser }, testInfo) => {
	const reference = `ref-used-${Date.now()}`;
	const session = await createSession({ flow: FLOWS.emailOnly, clientReferenceId: reference });
	const first = await browser.newContext();
	const a = await first.newPage();
	await a.goto(session.path);
	await a.getByTestId('permissions-continue').click();
	await expect(a.getByRole('heading', { name: text('en', 'email:title') })).toBeVisible();

	const second = await browser.newContext();
	const b = await second.newPage();
	const response = await b.goto(session.path);
	expectNoSessionData(await response!.text(), session, reference);
	await expect(b.getByRole('heading', { level: 1 })).toHaveText(text('en', 'link:usedTitle'));
	await expect(b.getByText(text('en', 'link:whatToDo'))).toBeVisible();
	await attachScreens(b, testInfo, 'used link');

	// The browser that opened it is not disturbed.
	await a.getByLabel(text('en', 'email:label')).fill('ada@example.com');
	await a.getByRole('button', { name: text('en', 'email:submit') }).click();
	await expect(a.locator('[data-screen="end"]')).toBeVisible();
	await first.close();
	await second.close();
});

test.describe('on a server whose clock moves on', () => {
	let server: RunningServer;
	let clockFile: string;

	test.beforeAll(async () => {
		clockFile = path.join(mkdtempSync(path.join(tmpdir(), 'vf-clock-')), 'offset');
		writeFileSync(clockFile, '0');
		server = await startServer({ SEED_API_KEYS: E2E_KEY, NODE_OPTIONS: `--import ${process.env.VF_E2E_CLOCK_PRELOAD}`, VERIFLOW_TEST_CLOCK_FILE: clockFile });
	});
	test.afterAll(() => server?.stop());

	test('an expired link says it expired, without session data', async ({ page }, testInfo) => {
		const reference = `ref-expired-${Date.now()}`;
		const session = await createSession({ flow: FLOWS.emailOnly, clientReferenceId: reference }, server.url);
		// The link is valid a day (CLIENT_SECRET_TTL_S): two days later it is not.
		writeFileSync(clockFile, String(2 * 86_400_000));
		await new Promise((r) => setTimeout(r, 250));
		const response = await page.goto(`${server.url}${session.path}`);
		expectNoSessionData(await response!.text(), session, reference);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'link:expiredTitle'));
		await expect(page.getByText(text('en', 'link:expiredBody'))).toBeVisible();
		await attachScreens(page, testInfo, 'expired link');
	});
});

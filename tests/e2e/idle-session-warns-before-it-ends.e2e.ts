import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { text } from './support/catalogue.ts';
import { E2E_KEY, FLOWS, attachScreens, createSession, getSession } from './support/journey.ts';

/*
 * A session idle for SESSION_INACTIVITY_TIMEOUT_S ends (the sweeper makes it `incomplete`). The page
 * warns before that and keeps what the user typed; "I'm still here" keeps the session open. A server
 * of its own with a one-minute timeout and a clock the test moves; the page's clock is Playwright's.
 */

let server: RunningServer;
let clockFile: string;
const serverClock = (ms: number) => writeFileSync(clockFile, String(ms));

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
	clockFile = path.join(mkdtempSync(path.join(tmpdir(), 'vf-clock-')), 'offset');
	serverClock(0);
	server = await startServer({ SEED_API_KEYS: E2E_KEY, SESSION_INACTIVITY_TIMEOUT_S: '60', NODE_OPTIONS: `--import ${process.env.VF_E2E_CLOCK_PRELOAD}`, VERIFLOW_TEST_CLOCK_FILE: clockFile });
});
test.afterAll(() => server?.stop());

test('before an idle session ends the page warns, keeps what was typed, and "I\'m still here" keeps it open', async ({ page }, testInfo) => {
	serverClock(0);
	await page.clock.install();
	const session = await createSession({ flow: FLOWS.emailOnly }, server.url);
	await page.goto(`${server.url}${session.path}`);
	await page.getByTestId('permissions-continue').click();
	const email = page.getByLabel(text('en', 'email:label'));
	await email.fill('ada@exam');
	await expect(page.getByTestId('idle-warning')).toHaveCount(0);

	// 45 s later (the server's clock too): 15 s are left, the warning shows half a minute before the end.
	serverClock(45_000);
	await page.clock.fastForward(45_000);
	const warning = page.getByTestId('idle-warning');
	await expect(warning).toBeVisible();
	await expect(warning).toContainText(text('en', 'common:idleTitle'));
	await expect(email).toHaveValue('ada@exam');
	// On screen without scrolling, on a phone too.
	await page.setViewportSize({ width: 390, height: 844 });
	const box = await warning.boundingBox();
	expect(box!.y).toBeGreaterThanOrEqual(0);
	expect(box!.y + box!.height).toBeLessThanOrEqual(844);
	await attachScreens(page, testInfo, 'idle warning');

	const answer = page.waitForResponse((r) => r.url().endsWith('/api/client/state') && r.request().method() === 'POST');
	await page.getByTestId('idle-still-here').click();
	const state = await (await answer).json();
	// The server counted it as activity: a whole minute again, not the 15 s that were left.
	expect(state.idle.leftMs).toBeGreaterThan(55_000);
	await expect(warning).toHaveCount(0);
	await expect(email).toHaveValue('ada@exam');

	// 100 s after opening, 55 s after "still here": the session is open, and the step goes on.
	serverClock(100_000);
	await email.fill('ada@example.com');
	await page.keyboard.press('Enter');
	await expect(page.locator('[data-screen="end"]')).toBeVisible();
	expect((await getSession(session.id, server.url)).status).toBe('complete');
});

test('with no answer the session ends for inactivity, and the page says it is over', async ({ page }) => {
	serverClock(0);
	await page.clock.install();
	const session = await createSession({ flow: FLOWS.emailOnly }, server.url);
	await page.goto(`${server.url}${session.path}`);
	await page.getByTestId('permissions-continue').click();
	await page.getByLabel(text('en', 'email:label')).fill('ada@exam');
	serverClock(120_000);
	await page.clock.fastForward(45_000);
	await expect(page.getByTestId('idle-warning')).toBeVisible();
	// The server's sweeper (every 30 s) ends the session; the page looks again once its time is up.
	await expect.poll(async () => (await getSession(session.id, server.url)).status, { timeout: 60_000 }).toBe('incomplete');
	await page.clock.fastForward(20_000);
	await expect(page.locator('[data-screen="end"]')).toBeVisible();
	await expect(page.getByTestId('idle-warning')).toHaveCount(0);
});

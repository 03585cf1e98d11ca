import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { FLOWS, attachScreens, createSession, getSession } from './support/journey.ts';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1';

test('the desktop hands the session to a phone by QR link, then follows it to the end', async ({ browser }, testInfo) => {
	const session = await createSession({ flow: FLOWS.emailOnly });
	// Every context this test opens is closed at its end, passed or failed: an open page keeps running
	// beside the worker's next tests, and their failure screenshots would show it instead of their own.
	const contexts: BrowserContext[] = [];
	const open = async (options?: Parameters<Browser['newContext']>[0]) => {
		const context = await browser.newContext(options);
		contexts.push(context);
		return context.newPage();
	};
	try {
		const desktop = await open();
		await desktop.goto(session.path);
		await desktop.getByRole('button', { name: text('en', 'handoff:title') }).click();
		await expect(desktop.getByTestId('handoff-qr')).toBeVisible();
		await attachScreens(desktop, testInfo, 'continue on your phone');
		const url = await desktop.locator('[data-screen="handoff"] input').inputValue();
		expect(url).toMatch(/\/verify\?handoff=ho_[A-Za-z0-9]+$/);

		const phone = await open({ viewport: { width: 390, height: 844 }, userAgent: IPHONE, isMobile: true, hasTouch: true });
		await phone.goto(url);
		// A phone is not offered "continue on your phone".
		await expect(phone.getByRole('button', { name: text('en', 'handoff:title') })).toHaveCount(0);
		await phone.getByTestId('permissions-continue').click();
		await expect(phone.getByRole('heading', { name: text('en', 'email:title') })).toBeVisible();

		await expect(desktop.locator('[data-screen="observer"]')).toBeVisible();
		await attachScreens(desktop, testInfo, 'desktop follows the phone');

		await phone.getByLabel(text('en', 'email:label')).fill('phone@example.com');
		await phone.getByRole('button', { name: text('en', 'email:submit') }).click();
		await expect(phone.locator('[data-screen="end"]')).toBeVisible();
		await expect(desktop.getByText(text('en', 'handoff:finishedOnPhone'))).toBeVisible();
		expect((await getSession(session.id)).status).toBe('complete');

		// The hand-over link works once.
		const again = await open();
		await again.goto(url);
		await expect(again.locator('[data-screen="problem"]')).toBeVisible();
	} finally {
		for (const context of contexts) await context.close();
	}
});

test('a desktop without a camera is offered the phone first', async ({ page }) => {
	await page.addInitScript(() => {
		navigator.mediaDevices.enumerateDevices = async () => [];
	});
	const session = await createSession({ flow: FLOWS.cameraWithPermissions });
	await page.goto(session.path);
	await expect(page.getByText(text('en', 'permissions:noDeviceTitle'))).toBeVisible();
	const buttons = page.locator('[data-screen="permissions"] .vf-actions button');
	await expect(buttons.first()).toHaveText(text('en', 'handoff:title'));
	await buttons.first().click();
	await expect(page.getByTestId('handoff-qr')).toBeVisible();
});

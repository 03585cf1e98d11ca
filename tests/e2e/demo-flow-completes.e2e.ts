import { expect, test } from '@playwright/test';
import { attachScreens, getSession, sandboxCode } from './support/journey.ts';

test('a person completes the demo: conversation, e-mail, passcode from the sandbox outbox, end', async ({ page }, testInfo) => {
	await page.goto('/demo');
	await attachScreens(page, testInfo, 'demo landing');
	const opened = page.waitForResponse((r) => r.url().endsWith('/api/client/open'));
	await page.getByTestId('demo-start').click();
	await expect(page.locator('[data-screen="permissions"]')).toBeVisible();
	await attachScreens(page, testInfo, 'permissions');
	await page.getByTestId('permissions-continue').click();
	const { state } = await (await opened).json();
	const sessionId: string = state.session.id;

	// The avatar greets and asks whether the user is ready: captions always show its words.
	await expect(page.getByTestId('captions')).toContainText('ready');
	await attachScreens(page, testInfo, 'conversation');
	await page.getByLabel('Your answer').fill("Yes, I'm ready");
	await page.getByRole('button', { name: 'Send' }).click();

	await expect(page.getByRole('heading', { name: 'Your e-mail address' })).toBeVisible();
	await page.getByLabel('E-mail address').fill('ada@example.com');
	await page.getByRole('button', { name: 'Confirm' }).click();

	await expect(page.getByRole('heading', { name: 'Enter the verification code' })).toBeVisible();
	await expect(page.getByText('a•••@example.com')).toBeVisible();
	const code = await sandboxCode(sessionId);
	// The demo shows the same code in its sandbox panel, so a person can finish without a mailbox.
	await expect(page.getByTestId('sandbox-code')).toHaveText(code);
	await attachScreens(page, testInfo, 'passcode');
	await page.getByLabel('Verification code').fill(code);
	await page.getByRole('button', { name: 'Verify' }).click();

	await expect(page.locator('[data-screen="end"][data-status="complete"]')).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
	await attachScreens(page, testInfo, 'end');

	const session = await getSession(sessionId);
	expect(session.status).toBe('complete');
	const texts = session.report.transcript.map((p: { text: string; isAvatar: boolean }) => [p.isAvatar, p.text]);
	expect(texts).toContainEqual([false, "Yes, I'm ready"]);
	expect(texts.filter(([avatar]: [boolean]) => avatar).length).toBeGreaterThanOrEqual(2);
	expect(session.report.nodeReports.map((r: { nodeId: string; outcome: string }) => [r.nodeId, r.outcome])).toEqual([
		['hello', 'ready'],
		['email', 'emailEntered'],
		['code', 'verified'],
		['thanks', 'done']
	]);
});

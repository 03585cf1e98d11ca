import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { FLOWS, createSession, getSession, sandboxCode } from './support/journey.ts';

test('a reload mid-flow resumes at the current step; back does not undo a step', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.emailThenCode });
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	await page.getByLabel(text('en', 'email:label')).fill('grace@example.com');
	await page.getByRole('button', { name: text('en', 'email:submit') }).click();
	await expect(page.getByRole('heading', { name: text('en', 'otp:title') })).toBeVisible();

	// The browser's back button: the server holds the position, so the page stays and says why.
	await page.goBack();
	await expect(page.getByRole('heading', { name: text('en', 'otp:title') })).toBeVisible();
	await expect(page.getByText(text('en', 'common:cannotGoBack'))).toBeVisible();
	expect(page.url()).toContain(session.path);

	await page.reload();
	await expect(page.getByRole('heading', { name: text('en', 'otp:title') })).toBeVisible();
	await expect(page.getByText('g•••@example.com')).toBeVisible();
	// No second permissions page: the answer was kept for this tab.
	await expect(page.locator('[data-screen="permissions"]')).toHaveCount(0);

	const code = await sandboxCode(session.id);
	await page.getByLabel(text('en', 'otp:label')).fill(code);
	await page.getByRole('button', { name: text('en', 'otp:submit') }).click();
	await expect(page.locator('[data-screen="end"][data-status="complete"]')).toBeVisible();
	expect((await getSession(session.id)).status).toBe('complete');

	// After the end, the link only says it is finished.
	await page.reload();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'link:finishedTitle'));
});

test('back is held once with an explanation, never a trap', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.emailOnly });
	await page.goto('/healthz');
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	await expect(page.getByRole('heading', { name: text('en', 'email:title') })).toBeVisible();
	await page.goBack();
	await expect(page.getByText(text('en', 'common:cannotGoBack'))).toBeVisible();
	await page.goBack();
	await page.goBack();
	await expect(page).toHaveURL(/\/healthz$/);
});

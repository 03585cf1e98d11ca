import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { FLOWS, createSession, getSession } from './support/journey.ts';

test('a lost connection shows a calm reconnecting state, keeps the typed text and goes through once back', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.emailOnly });
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	const field = page.getByLabel(text('en', 'email:label'));
	await field.fill('offline@example.com');

	let failures = 2;
	await page.route('**/api/client/nodes/**', async (route) => {
		if (failures-- > 0) return route.abort('internetdisconnected');
		return route.continue();
	});
	await page.getByRole('button', { name: text('en', 'email:submit') }).click();
	await expect(page.getByRole('button', { name: text('en', 'common:reconnectNow') })).toBeVisible();
	await expect(field).toHaveValue('offline@example.com');
	await page.getByRole('button', { name: text('en', 'common:reconnectNow') }).click();

	await expect(page.locator('[data-screen="end"]')).toBeVisible({ timeout: 20_000 });
	await expect(page.getByText(text('en', 'common:reconnected'))).toBeVisible();
	const api = await getSession(session.id);
	expect(api.status).toBe('complete');
});

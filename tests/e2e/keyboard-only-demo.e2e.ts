import { expect, test, type Page } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { sandboxCode } from './support/journey.ts';

/** Presses Tab until the focused element matches, as a keyboard user would. */
async function tabTo(page: Page, name: string, max = 25): Promise<void> {
	for (let i = 0; i < max; i++) {
		await page.keyboard.press('Tab');
		const focused = await page.evaluate(() => {
			const el = document.activeElement as HTMLElement | null;
			return el ? `${el.getAttribute('aria-label') ?? ''} ${el.innerText ?? ''} ${(el as HTMLInputElement).labels?.[0]?.innerText ?? ''}` : '';
		});
		if (focused.includes(name)) return;
	}
	throw new Error(`could not reach "${name}" with Tab`);
}

/** The focused element shows a focus indicator (WCAG 2.4.7). */
async function expectVisibleFocus(page: Page): Promise<void> {
	const outline = await page.evaluate(() => {
		const style = getComputedStyle(document.activeElement as Element);
		return `${style.outlineStyle} ${style.outlineWidth}`;
	});
	expect(outline).not.toMatch(/^none|\s0px$/);
}

test('the demo can be completed with the keyboard alone', async ({ page }) => {
	let sessionId = '';
	page.on('response', async (r) => {
		if (r.url().endsWith('/api/client/open') && r.ok()) sessionId = (await r.json()).state.session.id;
	});
	await page.goto('/demo');
	await tabTo(page, text('en', 'demo:start'));
	await expectVisibleFocus(page);
	await page.keyboard.press('Enter');

	await expect(page.locator('[data-screen="permissions"]')).toBeVisible();
	// Continue is disabled until the page is live; the page then moves the focus to its heading, so
	// a walk with Tab that began earlier would be cut off by it (seen on a busy machine).
	await expect(page.getByTestId('permissions-continue')).toBeEnabled();
	await tabTo(page, text('en', 'permissions:button'));
	await expectVisibleFocus(page);
	await page.keyboard.press('Enter');

	// Each new step puts the focus on its field, so typing just works.
	const answer = page.getByLabel(text('en', 'conversation:inputLabel'));
	await expect(answer).toBeFocused();
	await page.keyboard.type('yes');
	await page.keyboard.press('Enter');

	const email = page.getByLabel(text('en', 'email:label'));
	await expect(email).toBeFocused();
	await page.keyboard.type('keys@example.com');
	await page.keyboard.press('Enter');

	const code = page.getByLabel(text('en', 'otp:label'));
	await expect(code).toBeFocused();
	await expectVisibleFocus(page);
	await page.keyboard.type(await sandboxCode(sessionId));
	await page.keyboard.press('Enter');

	await expect(page.locator('[data-screen="end"][data-status="complete"]')).toBeVisible();
	await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});

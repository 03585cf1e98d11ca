import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { FLOWS, createSession, getSession } from './support/journey.ts';

const CASES = [
	{ locale: 'fr-CA', expected: 'fr', settings: {} },
	{ locale: 'zh-Hans', expected: 'zh', settings: {} },
	{ locale: 'pt-BR', expected: 'pt', settings: {} },
	// Korean is not one of the 13: the session's defaultLang applies.
	{ locale: 'ko-KR', expected: 'de', settings: { defaultLang: 'de' } }
] as const;

for (const { locale, expected, settings } of CASES) {
	test(`a browser set to ${locale} gets the page and the session in ${expected}`, async ({ browser }) => {
		const context = await browser.newContext({ locale });
		const page = await context.newPage();
		const session = await createSession({ flow: FLOWS.emailOnly, ...settings });

		// The server's first paint already speaks the Accept-Language language.
		const html = await (await page.request.get(session.path, { headers: { 'accept-language': locale } })).text();
		expect(html).toContain(`<html lang="${expected}"`);
		expect(html).toContain(text(expected, 'permissions:heading').replace(/'/g, '&#39;').slice(0, 12));

		await page.goto(session.path);
		await expect(page.locator('html')).toHaveAttribute('lang', expected);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(expected, 'permissions:heading'));
		await page.getByTestId('permissions-continue').click();
		await expect(page.getByRole('heading', { name: text(expected, 'email:title') })).toBeVisible();

		const api = await getSession(session.id);
		expect(api.status).toBe('inProgress');
		expect(api.report?.lang).toBe(expected);
		await context.close();
	});
}

test('the user can pick another of the session languages before starting', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.emailOnly, langs: ['en', 'de', 'ja'] });
	await page.goto(session.path);
	const select = page.getByTestId('language-select');
	await expect(select.locator('option')).toHaveText(['English', 'Deutsch', '日本語']);
	await expect(select).toHaveValue('en');
	await select.selectOption('ja');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('ja', 'permissions:heading'));
	// The menu shows the language now in use, in the same order, and only that option is marked.
	await expect(select).toHaveValue('ja');
	await expect(select.locator('option')).toHaveText(['English', 'Deutsch', '日本語']);
	await expect(select.locator('option[selected]')).toHaveText(['日本語']);
	await select.selectOption('de');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('de', 'permissions:heading'));
	await expect(select).toHaveValue('de');
	await select.selectOption('ja');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('ja', 'permissions:heading'));
	await page.getByTestId('permissions-continue').click();
	await expect(page.getByRole('heading', { name: text('ja', 'email:title') })).toBeVisible();
	expect((await getSession(session.id)).report?.lang).toBe('ja');
});

test('the server-rendered menu already shows the page’s language, before any script runs', async ({ browser }) => {
	const context = await browser.newContext({ locale: 'de-DE', javaScriptEnabled: false });
	const page = await context.newPage();
	const session = await createSession({ flow: FLOWS.emailOnly, langs: ['en', 'de', 'ja'] });
	await page.goto(session.path);
	const select = page.getByTestId('language-select');
	await expect(select.locator('option')).toHaveText(['English', 'Deutsch', '日本語']);
	await expect(select).toHaveValue('de');
	await context.close();
});

test('with showUxControls off, the optional controls are gone', async ({ page }) => {
	const session = await createSession({ flow: FLOWS.emailOnly, langs: ['en', 'de'], customization: { controls: { showUxControls: false } } });
	await page.goto(session.path);
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await expect(page.getByTestId('language-select')).toHaveCount(0);
});

test('on /demo, ?lang= overrides the browser language', async ({ browser }) => {
	const context = await browser.newContext({ locale: 'en-US' });
	const page = await context.newPage();
	await page.goto('/demo?lang=ru');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('ru', 'demo:title'));
	await page.getByTestId('demo-start').click();
	await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('ru', 'permissions:heading'));
	const opened = page.waitForResponse((r) => r.url().endsWith('/api/client/open'));
	await page.getByTestId('permissions-continue').click();
	expect((await (await opened).json()).state.session.lang).toBe('ru');
	await context.close();
});

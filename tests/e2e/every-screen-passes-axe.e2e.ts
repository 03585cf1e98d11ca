import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { FLOWS, createSession, sandboxCode } from './support/journey.ts';
import { checkScreen } from './support/screens.ts';

/*
 * Every screen of the hosted page, in several languages (long German and Russian words, Japanese
 * and Chinese scripts): axe finds no serious or critical problem at phone or desktop size, and
 * the screenshots go into the report.
 */

const CONVERSATION_FLOW = [
	{ id: 'start', type: 'start', outcome: 'hello' },
	{ id: 'hello', type: 'conversation', prompt: 'Greet the user and ask whether they are ready to begin', outcomes: [{ id: 'ready', condition: 'The user is ready', targetNodeId: 'email' }] },
	...FLOWS.emailThenCode.slice(1)
];

// axe runs twice per screen (phone and desktop): each test is one short journey of two to four
// screens, so it finishes well inside its time on a busy two-core machine.
test.describe.configure({ timeout: 120_000, mode: 'parallel' });

for (const locale of ['en', 'de', 'ru', 'ja'] as const) {
	test(`demo landing, permissions and conversation (${locale})`, async ({ browser }, testInfo) => {
		const context = await browser.newContext({ locale });
		const page = await context.newPage();
		await page.goto('/demo');
		await checkScreen(page, testInfo, `${locale} demo landing`);
		const session = await createSession({ flow: CONVERSATION_FLOW });
		await page.goto(session.path);
		await checkScreen(page, testInfo, `${locale} permissions`);
		await page.getByTestId('permissions-continue').click();
		await expect(page.getByTestId('captions')).not.toBeEmpty();
		await checkScreen(page, testInfo, `${locale} conversation`);
		// The answer moves the flow on to the e-mail step (the next test checks those screens).
		await page.getByLabel(text(locale, 'conversation:inputLabel')).fill({ en: 'yes', de: 'ja', ru: 'да', ja: 'はい' }[locale]);
		await page.keyboard.press('Enter');
		await expect(page.getByLabel(text(locale, 'email:label'))).toBeVisible();
		await context.close();
	});

	test(`e-mail, passcode and end (${locale})`, async ({ browser }, testInfo) => {
		const context = await browser.newContext({ locale });
		const page = await context.newPage();
		const session = await createSession({ flow: FLOWS.emailThenCode });
		// Only /demo sessions show the sandbox outbox: an integrator's passcode page never asks for it.
		const outboxAsks: string[] = [];
		page.on('request', (r) => {
			if (r.url().includes('/api/client/sandbox')) outboxAsks.push(r.url());
		});
		await page.goto(session.path);
		await page.getByTestId('permissions-continue').click();
		// Where the user is along the flow: e-mail, then the passcode.
		await expect(page.getByTestId('flow-progress')).toHaveText(text(locale, 'common:step', { current: 1, total: 2 }));
		const email = page.getByLabel(text(locale, 'email:label'));
		await email.fill('not an address');
		await page.keyboard.press('Enter');
		await expect(page.getByText(text(locale, 'email:invalid'))).toBeVisible();
		await checkScreen(page, testInfo, `${locale} e-mail with an error`);
		await email.fill('a.very.long.address.for.layout.checks@subdomain.example-company.com');
		await page.keyboard.press('Enter');
		const code = await sandboxCode(session.id);
		await expect(page.getByTestId('flow-progress')).toHaveText(text(locale, 'common:step', { current: 2, total: 2 }));
		await page.getByLabel(text(locale, 'otp:label')).fill(code === '000000' ? '111111' : '000000');
		await page.keyboard.press('Enter');
		await expect(page.locator('[data-node="two_factor_email"] .vf-error-text')).toBeVisible();
		await checkScreen(page, testInfo, `${locale} passcode with a wrong code`);
		await page.getByLabel(text(locale, 'otp:label')).fill(code);
		await page.keyboard.press('Enter');
		await expect(page.locator('[data-screen="end"]')).toBeVisible();
		await checkScreen(page, testInfo, `${locale} end`);
		expect(outboxAsks).toEqual([]);
		await context.close();
	});
}

test('customised permissions page with recognition consent, and the camera step (ja)', async ({ browser }, testInfo) => {
	const ja = await browser.newContext({ locale: 'ja-JP' });
	const page = await ja.newPage();
	const custom = await createSession({
		flow: [{ id: 'start', type: 'start', outcome: 'rec' }, { id: 'rec', type: 'recognition', detectionInterval: 1000, outcomes: { recognized: 'end', newUser: 'end', noFace: 'end' } }, { id: 'end', type: 'end' }],
		customization: {
			permissionsPage: { backgroundType: 'COLOR', backgroundColor: '#0b6e4f', mainHeadingTranslates: { ja: 'ようこそ、本人確認を始めましょう' }, buttonTextTranslates: { ja: 'はじめる' } }
		}
	});
	await page.goto(custom.path);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('ようこそ、本人確認を始めましょう');
	await expect(page.getByTestId('consent')).toHaveText(text('ja', 'permissions:consentRecognition'));
	await checkScreen(page, testInfo, 'ja customised permissions with recognition consent');
	await page.getByRole('button', { name: 'はじめる' }).click();
	// The camera opens first (on a busy machine that alone has taken more than 10 s).
	await expect(page.getByTestId('face-node')).toBeVisible({ timeout: 60_000 });
	// The recognition step: the face capture screen (camera in an oval, live guidance). It looks for a
	// face once a second here: what is checked is the screen, and a detector running flat out on a
	// busy machine's main thread only slows axe down.
	await checkScreen(page, testInfo, 'ja face step (recognition)');
	await ja.close();
});

for (const locale of ['zh-CN', 'de-DE']) {
	test(`camera denied (${locale})`, async ({ browser }, testInfo) => {
		const context = await browser.newContext({ locale });
		const denied = await context.newPage();
		await denied.addInitScript(() => {
			navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
		});
		const session = await createSession({ flow: FLOWS.cameraWithPermissions });
		await denied.goto(session.path);
		await denied.getByTestId('permissions-continue').click();
		await expect(denied.getByTestId('permission-problem')).toBeVisible();
		await checkScreen(denied, testInfo, `${locale} camera denied`);
		await context.close();
	});
}

test('dead link and in-app browser (ja, en)', async ({ browser }, testInfo) => {
	const ja = await browser.newContext({ locale: 'ja' });
	const page = await ja.newPage();
	await page.goto('/verify?cs=cs_000000000000000000000000000000nope');
	await checkScreen(page, testInfo, 'ja unknown link');
	await ja.close();

	const instagram = await browser.newContext({
		userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.1.1.28.108 (iPhone13,2; iOS 17_1; en_US; en; scale=3.00; 1170x2532; 541635890)'
	});
	const inApp = await instagram.newPage();
	const forInApp = await createSession({ flow: FLOWS.cameraWithPermissions });
	await inApp.goto(forInApp.path);
	await expect(inApp.locator('[data-screen="gate"]')).toHaveAttribute('data-gate', 'inApp');
	await checkScreen(inApp, testInfo, 'in-app browser');
	await instagram.close();
});

test('hand-over to a phone, and the desktop watching it (en)', async ({ browser }, testInfo) => {
	const context = await browser.newContext();
	const desktop = await context.newPage();
	const session = await createSession({ flow: FLOWS.emailOnly });
	await desktop.goto(session.path);
	await desktop.getByRole('button', { name: text('en', 'handoff:title') }).click();
	await expect(desktop.getByTestId('handoff-qr')).toBeVisible();
	await checkScreen(desktop, testInfo, 'continue on your phone');
	const url = await desktop.locator('[data-screen="handoff"] input').inputValue();
	const phoneContext = await browser.newContext();
	const phone = await phoneContext.newPage();
	await phone.goto(url);
	await phone.getByTestId('permissions-continue').click();
	await expect(desktop.locator('[data-screen="observer"]')).toBeVisible();
	await checkScreen(desktop, testInfo, 'observer');
	await phoneContext.close();
	await context.close();
});

test('reconnecting after the connection is lost (en)', async ({ browser }, testInfo) => {
	const context = await browser.newContext();
	const phone = await context.newPage();
	const session = await createSession({ flow: FLOWS.emailOnly });
	await phone.goto(session.path);
	await phone.getByTestId('permissions-continue').click();
	await phone.route('**/api/client/nodes/**', (route) => route.abort('internetdisconnected'));
	await phone.getByLabel(text('en', 'email:label')).fill('x@example.com');
	await phone.keyboard.press('Enter');
	await expect(phone.getByRole('button', { name: text('en', 'common:reconnectNow') })).toBeVisible();
	await checkScreen(phone, testInfo, 'reconnecting');
	await context.close();
});

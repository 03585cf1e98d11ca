import { expect, test } from '@playwright/test';
import { text } from './support/catalogue.ts';
import { createSession, getSession } from './support/journey.ts';

// A goal the embedded engine does not know and conditions it cannot judge from a typed reply: before,
// the prompt was read out as an instruction and every answer got "Sorry, I didn't catch that", for ever.
const COUNTRY = [
	{ id: 'start', type: 'start', outcome: 'talk' },
	{
		id: 'talk',
		type: 'conversation',
		prompt: 'Ask the user which country they live in',
		outcomes: [
			{ id: 'germany', condition: 'The user says they live in Germany', targetNodeId: 'email' },
			{ id: 'elsewhere', condition: 'The user lives elsewhere', targetNodeId: 'end' }
		]
	},
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' } },
	{ id: 'end', type: 'end' }
];

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test('an unknown goal is asked as a question and its outcomes are offered as answers, within reach on a phone', async ({ page }) => {
	const session = await createSession({ flow: COUNTRY });
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	await expect(page.getByTestId('history')).toContainText('Which country do you live in?');
	await expect(page.getByTestId('history')).not.toContainText('Ask the user');
	const germany = page.getByRole('button', { name: 'I live in Germany' });
	await expect(germany).toBeVisible();
	await expect(page.getByRole('button', { name: 'I live elsewhere' })).toBeVisible();
	await germany.scrollIntoViewIfNeeded();
	await germany.click();
	await expect(page.getByLabel(text('en', 'email:label'))).toBeVisible();
	const api = await getSession(session.id);
	expect(api.status).toBe('inProgress');
});

test('the user can always stop: it asks once, then the session ends incomplete', async ({ page }) => {
	const session = await createSession({ flow: COUNTRY });
	await page.goto(session.path);
	await page.getByTestId('permissions-continue').click();
	await page.getByTestId('leave').click();
	await expect(page.getByText(text('en', 'conversation:leaveConfirm'))).toBeVisible();
	await page.getByTestId('leave-confirm').click();
	await expect(page.locator('[data-screen="end"]')).toBeVisible();
	await expect.poll(async () => (await getSession(session.id)).status).toBe('incomplete');
});

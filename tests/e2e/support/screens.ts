import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { VIEWPORTS, attachScreens } from './journey.ts';

/**
 * Checks the current screen at phone and desktop size with axe (WCAG 2.0–2.2 A and AA rules):
 * no serious or critical violation. Attaches the screenshots to the report.
 */
export async function checkScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
	const original = page.viewportSize();
	for (const [label, size] of Object.entries(VIEWPORTS)) {
		await page.setViewportSize(size);
		const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
		const serious = result.violations
			.filter((v) => v.impact === 'serious' || v.impact === 'critical')
			.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
		expect(serious, `${name} at ${label} ${size.width}x${size.height}`).toEqual([]);
		// Nothing sticks out sideways (a page that scrolls horizontally on a phone is broken).
		const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
		expect(overflow, `${name} at ${label}: the page is ${overflow}px wider than the viewport`).toBeLessThanOrEqual(0);
	}
	if (original) await page.setViewportSize(original);
	await attachScreens(page, testInfo, name);
}

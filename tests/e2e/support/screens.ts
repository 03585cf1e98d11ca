import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { VIEWPORTS, attachScreens } from './journey.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

// axe-core itself (the engine @axe-core/playwright wraps), read once per worker. AxeBuilder injects
// it into every frame on every analyze() and collects passes and incomplete results as well: ~1.6 s
// a run here, against ~0.2 s for axe.run asked for violations only, with the same rules.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
	id: string;
	impact: string | null;
	help: string;
	nodes: { target: unknown[] }[];
}

/**
 * Checks the current screen at phone and desktop size with axe (WCAG 2.0–2.2 A and AA rules and
 * best practices): no serious or critical violation, and nothing wider than the viewport. Attaches
 * the screenshots to the report.
 */
export async function checkScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
	const original = page.viewportSize();
	if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
	for (const [label, size] of Object.entries(VIEWPORTS)) {
		await page.setViewportSize(size);
		const violations = await page.evaluate(
			(tags) => (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<{ violations: Violation[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }).then((r) => r.violations),
			TAGS
		);
		const serious = violations
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

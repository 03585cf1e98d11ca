import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/*
 * Browser journeys against the production build (`node build`), which `npm test` builds first:
 * this config builds nothing. tests/e2e/support/global-setup.ts starts the server on a free port
 * with its own data directory and a sandbox key, plus a second local server on another origin
 * that embeds the page in an iframe.
 */

// Debian's Chromium: `npx playwright install` cannot download here. CHROMIUM_PATH overrides.
const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export const FAKE_MEDIA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required'];

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.e2e.ts',
	globalSetup: './tests/e2e/support/global-setup.ts',
	// Two CPU cores: two workers keep the machine responsive and the timings honest.
	workers: 2,
	fullyParallel: false,
	timeout: 90_000,
	expect: { timeout: 10_000 },
	// CI machines differ in speed and load: a journey gets one more try there, and `npm test` names
	// every test that passed only on its retry, so a flaky journey is seen rather than hidden.
	retries: process.env.CI ? 1 : 0,
	// Not test-results/ itself: `npm test` keeps the vitest and Playwright JSON summaries there.
	outputDir: 'test-results/e2e-artifacts',
	reporter: [
		['list'],
		['html', { open: 'never', outputFolder: 'test-results/e2e-report' }],
		['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/playwright.json' }]
	],
	use: {
		browserName: 'chromium',
		baseURL: process.env.VF_E2E_BASE_URL,
		launchOptions: { executablePath: chromium, args: FAKE_MEDIA_ARGS },
		viewport: { width: 1280, height: 800 },
		locale: 'en-US',
		// Recording a trace costs about 40 % more CPU on every test (measured on a face journey: 52 s
		// of CPU against 34 s without), so only a retry records one: a failure is still traced.
		trace: 'on-first-retry',
		screenshot: 'only-on-failure',
		actionTimeout: 15_000
	}
});

import type { App } from './app.ts';
import { logger } from './logger.ts';

export { warmModels } from './warm-up.ts';

/**
 * What happens once the app is up: seeded keys registered, a sandbox key made on an empty store,
 * and a line telling the operator where to go.
 */
export async function announceStart(app: App): Promise<void> {
	const { config } = app;
	const seedWebhook = config.SEED_WEBHOOK_URL && config.SEED_WEBHOOK_SECRET ? { url: config.SEED_WEBHOOK_URL, secret: config.SEED_WEBHOOK_SECRET } : undefined;
	const seeded = await app.accounts.seedKeys(config.SEED_API_KEYS, seedWebhook);
	if (seeded) logger.info({ seeded }, 'registered seeded API keys');
	const sandbox = await app.accounts.ensureSandbox();
	const store = app.health.storeKind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
	const lines = [
		'',
		`Veriflow is running — store: ${store}`,
		`  API:      ${config.PUBLIC_BASE_URL}/api   (OpenAPI: ${config.PUBLIC_BASE_URL}/api/openapi.json)`
	];
	// Only where there is one (DEMO_ENABLED; by default the embedded store's own sandbox account).
	if (await app.demo.principal()) lines.push(`  Demo:     ${config.PUBLIC_BASE_URL}/demo`);
	if (sandbox) {
		lines.push(`  Sandbox API key (shown once, keep it): ${sandbox.key}`);
		lines.push(`  Try: curl -H "Authorization: Bearer ${sandbox.key}" ${config.PUBLIC_BASE_URL}/api/sessions`);
	}
	lines.push('');
	// Plain stdout on purpose: this is for the person who just started the service.
	if (config.LOG_LEVEL !== 'silent') console.log(lines.join('\n'));
}

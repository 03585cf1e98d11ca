/**
 * `npm run cli -- <group> <command> …`: manages API keys, webhook endpoints and the catalogues.
 * With PostgreSQL it opens the store itself; with the embedded store it asks the running server
 * (over DATA_DIR/admin.sock), or opens the store when no server runs.
 */
import { existsSync } from 'node:fs';
import { createApp } from '#lib/server/app.ts';
import { adminSocketPath, sendToServer } from '#lib/server/cli/admin-socket.ts';
import { runCommand } from '#lib/server/cli/commands.ts';
import { ConfigError, parseConfig } from '#lib/server/config.ts';
import { embeddedStoreHolder } from '#lib/server/db/store.ts';

async function main(): Promise<number> {
	if (existsSync('.env')) process.loadEnvFile('.env');
	const argv = process.argv.slice(2);
	let config;
	try {
		config = parseConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
	} catch (err) {
		if (err instanceof ConfigError) {
			console.error(err.message);
			return 2;
		}
		throw err;
	}
	if (!config.DATABASE_URL && embeddedStoreHolder(config.dataDir)) {
		const result = await sendToServer(config.dataDir, argv);
		if (!result) {
			console.error(`The server holds the embedded store but does not answer on ${adminSocketPath(config.dataDir)}; stop it and retry.`);
			return 1;
		}
		(result.code ? console.error : console.log)(result.output);
		return result.code;
	}
	const app = await createApp(config, { workers: false });
	try {
		const result = await runCommand(app, argv);
		(result.code ? console.error : console.log)(result.output);
		return result.code;
	} finally {
		await app.close();
	}
}

main().then(
	(code) => process.exit(code),
	(err) => {
		console.error(err instanceof Error ? err.message : err);
		process.exit(1);
	}
);

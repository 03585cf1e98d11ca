import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { App } from '../app.ts';
import { logger } from '../logger.ts';
import type { CliResult } from './cli-result.ts';
import { runCommand } from './commands.ts';

/**
 * The embedded store belongs to the running server's process, so the CLI cannot open it while
 * the server runs. The server listens on a Unix socket in DATA_DIR (mode 0600: only the user who
 * runs the service) and runs CLI commands for it.
 */
export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

export function listenAdminSocket(app: App): { close(): void } | null {
	const file = adminSocketPath(app.config.dataDir);
	if (file.length > 100) {
		logger.warn({ file }, 'DATA_DIR path too long for the CLI socket; stop the server to use the CLI');
		return null;
	}
	rmSync(file, { force: true });
	const server = net.createServer((socket) => {
		let buffer = '';
		socket.setEncoding('utf8');
		socket.on('data', async (chunk) => {
			buffer += chunk;
			if (buffer.length > 64 * 1024) return socket.destroy();
			const end = buffer.indexOf('\n');
			if (end < 0) return;
			let result: CliResult;
			try {
				const { argv } = JSON.parse(buffer.slice(0, end)) as { argv: unknown };
				result = Array.isArray(argv) && argv.every((a) => typeof a === 'string') ? await runCommand(app, argv) : { code: 2, output: 'bad request' };
			} catch {
				result = { code: 2, output: 'bad request' };
			}
			socket.end(`${JSON.stringify(result)}\n`);
		});
		socket.on('error', () => {});
	});
	server.listen(file, () => chmodSync(file, 0o600));
	server.on('error', (err) => logger.warn({ err }, 'CLI socket unavailable'));
	return {
		close() {
			server.close();
			rmSync(file, { force: true });
		}
	};
}

/** Sends a command to a running server; null when none listens. */
export function sendToServer(dataDir: string, argv: string[], timeoutMs = 30_000): Promise<CliResult | null> {
	return new Promise((resolve) => {
		const socket = net.connect(adminSocketPath(dataDir));
		let buffer = '';
		const timer = setTimeout(() => {
			socket.destroy();
			resolve({ code: 1, output: 'The server did not answer in time' });
		}, timeoutMs);
		socket.setEncoding('utf8');
		socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
		socket.on('data', (chunk) => (buffer += chunk));
		socket.on('end', () => {
			clearTimeout(timer);
			try {
				resolve(JSON.parse(buffer) as CliResult);
			} catch {
				resolve({ code: 1, output: 'Unreadable answer from the server' });
			}
		});
		socket.on('error', () => {
			clearTimeout(timer);
			resolve(null);
		});
	});
}

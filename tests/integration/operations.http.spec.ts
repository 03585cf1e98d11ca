import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { START_TIMEOUT_MS, apiClient, startServer, type RunningServer } from '../helpers/server.ts';
import { createBody } from '../helpers/flows.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Runs the CLI without blocking this process: a synchronous spawn would freeze the event loop for
 * seconds, past the server's keep-alive timeout, and fetch would then reuse a socket the server
 * had closed meanwhile ("other side closed").
 */
function runCli(dataDir: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
			cwd: ROOT,
			env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', SECRET_KEY: 'test-secret-key-0123456789abcdef0123' },
			timeout: 60_000
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('close', (status) => resolve({ status, stdout, stderr }));
	});
}

describe('operating the embedded store', () => {
	const dataDir = path.join(ROOT, 'tests/.tmp', `ops-${randomBytes(4).toString('hex')}`);
	let server: RunningServer | undefined;
	afterAll(async () => {
		await server?.stop();
		rmSync(dataDir, { recursive: true, force: true });
	});

	it('prints a working sandbox key on first start, keeps data across a restart, and lets the CLI work while it runs', async () => {
		mkdirSync(dataDir, { recursive: true });
		server = await startServer({ LOG_LEVEL: 'info' }, { dataDir, keepData: true });
		const banner = server.logs();
		expect(banner).toContain('Veriflow is running');
		expect(banner).toContain('/demo');
		const key = /Sandbox API key \(shown once, keep it\): (sk_test_[A-Za-z0-9]+)/.exec(banner)![1];
		const api = apiClient(server.url, key);
		const created = await api('POST', '/sessions', createBody({ clientReferenceId: 'survives-restart' }));
		expect(created.status).toBe(201);

		// The CLI goes through the server's socket: PGlite belongs to the server's process.
		const listed = await runCli(dataDir, ['keys', 'list']);
		expect(listed.status, listed.stderr).toBe(0);
		expect(listed.stdout).toContain(key.slice(0, 12));
		const made = await runCli(dataDir, ['keys', 'create', '--env', 'test', '--name', 'Second']);
		expect(made.status, made.stderr).toBe(0);
		const second = /(sk_test_[A-Za-z0-9]+)/.exec(made.stdout)![1];
		expect((await apiClient(server.url, second)('GET', '/sessions')).status).toBe(200);

		// A second server on the same directory is refused with a sentence, not a corrupted store.
		await expect(startServer({}, { dataDir, keepData: true })).rejects.toThrow(/in use by process \d+/);

		// Graceful stop flushes the store; a restart prints no new key and finds the session.
		expect(await server.stop('SIGTERM')).toBe(0);
		server = await startServer({ LOG_LEVEL: 'info' }, { dataDir, keepData: true });
		expect(server.logs()).not.toContain('Sandbox API key');
		const again = await apiClient(server.url, key)('GET', `/sessions/${created.json.session.id}`);
		expect(again.status).toBe(200);
		expect(again.json.session.settings.clientReferenceId).toBe('survives-restart');
		await server.stop();
		server = undefined;

		// With no server running, the CLI opens the store itself.
		const offline = await runCli(dataDir, ['keys', 'list']);
		expect(offline.status, offline.stderr).toBe(0);
		expect(offline.stdout.split('\n').filter((l) => l.startsWith('key_'))).toHaveLength(2);
	}, 240_000);

	// Its own start is bounded by startServer's deadline, which a loaded machine can come near.
	it('refuses to start with a bad configuration, naming the variable', { timeout: START_TIMEOUT_MS + 30_000 }, async () => {
		const err = await startServer({ RATE_LIMIT: 'lots', SEED_API_KEYS: 'nope' }).catch((e: Error) => e);
		expect((err as Error).message).toContain('Invalid configuration:');
		expect((err as Error).message).toContain("RATE_LIMIT must be an integer (got 'lots')");
		expect((err as Error).message).toContain('SEED_API_KEYS each key must look like sk_test_');
		expect((err as Error).message).not.toContain('    at ');
	});
});

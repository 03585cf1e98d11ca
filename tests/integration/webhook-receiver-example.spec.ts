import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '#lib/server/webhooks/webhook-signature.ts';
import { freePort } from '../helpers/server.ts';

const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
const EXAMPLE = path.resolve(import.meta.dirname, '../../docs/examples/webhook-receiver.mjs');

/** The README's receiver example, run as written against deliveries signed like the worker signs them. */
describe('docs/examples/webhook-receiver.mjs', () => {
	let child: ChildProcess;
	let url: string;
	let dir: string;
	let output = '';

	async function start() {
		const port = await freePort();
		url = `http://127.0.0.1:${port}/`;
		child = spawn(process.execPath, [EXAMPLE], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port), DEDUP_DB: path.join(dir, 'seen.db'), NODE_NO_WARNINGS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout!.on('data', (d) => (output += d));
		child.stderr!.on('data', (d) => (output += d));
		const deadline = Date.now() + 10_000;
		while (!output.includes('listening')) {
			if (Date.now() > deadline || child.exitCode !== null) throw new Error(`example did not start: ${output}`);
			await new Promise((r) => setTimeout(r, 50));
		}
	}
	const deliver = (event: Record<string, unknown>, opts: { secret?: string; at?: number; tamper?: boolean } = {}) => {
		const body = JSON.stringify(event);
		const headers = signWebhook({ id: String(event.id), timestampMs: opts.at ?? Date.now(), body, secret: opts.secret ?? SECRET });
		return fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: opts.tamper ? body.replace('session', 'sessiom') : body });
	};

	beforeAll(async () => {
		dir = mkdtempSync(path.join(tmpdir(), 'vf-example-'));
		await start();
	});
	afterAll(() => {
		child?.kill();
		rmSync(dir, { recursive: true, force: true });
	});

	it('handles a new event once, acknowledges its duplicates, and refuses bad signatures', async () => {
		const event = { id: 'evt_example1', type: 'session.status', createdAt: Date.now(), sessionId: 'ses_1' };
		expect(await (await deliver(event)).text()).toBe('ok');
		expect(await (await deliver(event)).text()).toBe('duplicate');
		expect((await deliver({ ...event, id: 'evt_example2' }, { tamper: true })).status).toBe(401);
		expect((await deliver({ ...event, id: 'evt_example3' }, { secret: `whsec_${Buffer.alloc(32, 6).toString('base64')}` })).status).toBe(401);
		expect((await deliver({ ...event, id: 'evt_example4' }, { at: Date.now() - 10 * 60_000 })).status).toBe(401);
		expect(output.match(/session\.status for session ses_1/g)).toHaveLength(1);
	});

	it('remembers what it handled across a restart', async () => {
		child.kill();
		await new Promise((r) => child.once('exit', r));
		output = '';
		await start();
		const event = { id: 'evt_example1', type: 'session.status', createdAt: Date.now(), sessionId: 'ses_1' };
		expect(await (await deliver(event)).text()).toBe('duplicate');
	});
});

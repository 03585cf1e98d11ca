import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A port for a server this process is about to start. `listen(0)` would hand out one from the
 * kernel's ephemeral range, which every outgoing connection and every other test's `listen(0)` draws
 * from too: in the moment between closing it here and the child binding it, a busy machine can give
 * it away, and the child then fails to bind, or our health check reaches someone else's socket and
 * waits on it. Ports below that range are handed out by no one, so a random free one stays free.
 */
export async function freePort(): Promise<number> {
	const low = ephemeralLow();
	for (let tries = 0; tries < 50 && low > 11_000; tries++) {
		const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
		if (await canListen(port)) return port;
	}
	return listenOn(0);
}

function ephemeralLow(): number {
	try {
		const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
		return Number.isInteger(low) ? low : 32_768;
	} catch {
		return 32_768; // not Linux: Linux's default
	}
}

const canListen = (port: number) => listenOn(port).then(() => true, () => false);

function listenOn(port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', reject);
		srv.listen(port, '127.0.0.1', () => {
			const bound = (srv.address() as net.AddressInfo).port;
			srv.close(() => resolve(bound));
		});
	});
}

export interface RunningServer {
	url: string;
	port: number;
	dataDir: string;
	process: ChildProcess;
	logs: () => string;
	stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How long a server may take to answer /healthz; a test that starts one allows at least this. */
export const START_TIMEOUT_MS = 60_000;

/**
 * Starts the production build (`node build`) the way an operator does, on a free port with its
 * own data directory, and waits until /healthz answers.
 */
export async function startServer(env: Record<string, string> = {}, options: { dataDir?: string; keepData?: boolean; /** Another build folder (benchmarks comparing builds). */ build?: string } = {}): Promise<RunningServer> {
	const build = options.build ?? 'build';
	if (!existsSync(path.join(ROOT, build, 'index.js'))) throw new Error(`No production build in ${build}/: run \`npm run build\` first (npm test does)`);
	const port = await freePort();
	const dataDir = options.dataDir ?? path.join(ROOT, 'tests/.tmp', `server-${randomBytes(4).toString('hex')}`);
	mkdirSync(dataDir, { recursive: true });
	let output = '';
	const child = spawn(process.execPath, [build], {
		cwd: ROOT,
		env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', SECRET_KEY: 'test-secret-key-0123456789abcdef0123', PGLITE_TEMPLATE_DIR: path.join(ROOT, 'tests/.tmp/pglite-template'), WARM_MODELS: 'false', ...env },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	child.stdout!.on('data', (d) => (output += d));
	child.stderr!.on('data', (d) => (output += d));
	const url = `http://127.0.0.1:${port}`;
	// 'close', not 'exit': by then its output has been read, and the error names what went wrong.
	const exited = new Promise<'exited'>((resolve) => child.once('close', () => resolve('exited')));
	const deadline = Date.now() + START_TIMEOUT_MS;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${output}`);
		// Each probe is bounded and gives way to the child's exit: a probe that hangs (a socket that
		// accepts and never answers) must not outlast the deadline, nor hide a server that gave up.
		const probe = fetch(`${url}/healthz`, { signal: AbortSignal.timeout(3000) }).then((res) => res.ok, () => false);
		const up = await Promise.race([probe, exited]);
		if (up === 'exited') throw new Error(`Server exited with ${child.exitCode}:\n${output}`);
		if (up) break;
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`Server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
		}
		await Promise.race([new Promise((r) => setTimeout(r, 150)), exited]);
	}
	return {
		url,
		port,
		dataDir,
		process: child,
		logs: () => output,
		async stop(signal = 'SIGTERM') {
			if (child.exitCode !== null) return child.exitCode;
			const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
			child.kill(signal);
			const code = await exited;
			if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
			return code;
		}
	};
}

/** A fetch bound to a base URL and an API key. */
export function apiClient(base: string, key?: string) {
	return async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
		const send = () =>
			fetch(`${base}/api${p}`, {
				method,
				headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
				body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
			});
		// A kept-alive connection the server closed as this request went out (after an earlier request's
		// body was refused unread, or its idle time ran out on a loaded machine) fails before the server
		// read a byte of this one: "other side closed" with no answer. Any HTTP client retries that once
		// on a new connection; the request itself never reached the handler.
		const res = await send().catch((err: Error & { cause?: { code?: string } }) => {
			if (err.cause?.code === 'UND_ERR_SOCKET' || err.cause?.code === 'ECONNRESET') return send();
			throw err;
		});
		const text = await res.text();
		let json: any;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: res.status, headers: res.headers, json, text };
	};
}

import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, startServer } from '../../helpers/server.ts';
import { E2E_KEY } from './constants.ts';

/**
 * One production server for the suite (PGlite in a temporary data directory, the sandbox key
 * seeded), and a tiny page on another origin (`localhost` vs the app's `127.0.0.1`, another port)
 * that embeds the hosted page. FRAME_ANCESTORS names that origin. Values reach the workers through
 * the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
	const parentPort = await freePort();
	const parentOrigin = `http://localhost:${parentPort}`;
	// The demo runs in the seeded sandbox account (DEMO_ENABLED), with no per-address limit for the suite.
	const server = await startServer({ SEED_API_KEYS: E2E_KEY, RATE_LIMIT: '1000000', DEMO_ENABLED: 'true', DEMO_RATE_LIMIT: '1000000', FRAME_ANCESTORS: parentOrigin, LOG_LEVEL: 'warn' });
	const parent = await startParentPage(parentPort);
	process.env.VF_E2E_BASE_URL = server.url;
	process.env.VF_E2E_PARENT_ORIGIN = parentOrigin;
	process.env.VF_E2E_CLOCK_PRELOAD = pathToFileURL(path.join(import.meta.dirname, 'clock-offset.mjs')).href;
	return async () => {
		parent.close();
		await server.stop();
	};
}

/**
 * `/embed?src=URL[&height=PX][&noreferrer=1]`: an integrator's page with the hosted page in an iframe
 * (720 px high, as in the README, unless `height` says otherwise; `noreferrer` hides the embedding
 * page's address from the frame's request), recording its messages.
 */
function startParentPage(port: number): Promise<Server> {
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', `http://localhost:${port}`);
		const src = url.searchParams.get('src') ?? '';
		if (url.pathname !== '/embed' || !/^http:\/\/127\.0\.0\.1:\d+\/verify\?/.test(src)) {
			res.writeHead(404).end();
			return;
		}
		const height = Math.min(2000, Math.max(200, Number(url.searchParams.get('height')) || 720));
		const referrer = url.searchParams.get('noreferrer') ? ' referrerpolicy="no-referrer"' : '';
		const escaped = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop checkout</title></head>
<body><h1>Shop checkout</h1>
<script>window.veriflowMessages = []; addEventListener('message', (e) => window.veriflowMessages.push({ origin: e.origin, data: e.data }));</script>
<iframe title="Identity verification" src="${escaped}" allow="camera; microphone"${referrer} style="width:100%;height:${height}px;border:0"></iframe>
</body></html>`);
	});
	// All interfaces: the browser may resolve localhost to ::1 or 127.0.0.1.
	return new Promise((resolve) => server.listen(port, () => resolve(server)));
}

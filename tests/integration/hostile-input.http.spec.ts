import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { apiClient, startServer, type RunningServer } from '../helpers/server.ts';
import { STORE_KINDS, createScratchDatabase } from '../helpers/test-store.ts';

/*
 * What an attacker sends, against the production build on both stores: strings PostgreSQL cannot
 * hold, deep nesting, prototype keys and action names, bodies too large to announce their size,
 * decompression bombs, and a property-based fuzz of the Session API and the page's actions. The
 * answer is always the spec's error shape with a 4xx, never a 500, and never a half-written session.
 */

const KEY = 'sk_test_HOSTILEhostileHOSTILEhostile01';
const FLOW = [
	{ id: 'start', type: 'start', outcome: 'email' },
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' } },
	{ id: 'end', type: 'end' }
];
const FACE_FLOW = [
	{ id: 'start', type: 'start', outcome: 'face' },
	{ id: 'face', type: 'face_scan', mode: 'capture', outcomes: { passed: 'end', notPassed: 'end', cancelled: 'end', error: 'end' } },
	{ id: 'end', type: 'end' }
];

function expectError(res: { status: number; json: any; text: string }, status: number, message?: RegExp) {
	expect(res.status, res.text).toBe(status);
	expect(res.json, res.text).toEqual({ error: expect.objectContaining({ type: expect.any(String), message: expect.any(String) }) });
	if (message) expect(res.json.error.message).toMatch(message);
}

for (const store of STORE_KINDS) {
	describe(`hostile input over HTTP (${store})`, () => {
		let server: RunningServer;
		let drop = async () => {};
		let api: ReturnType<typeof apiClient>;

		beforeAll(async () => {
			const env: Record<string, string> = { SEED_API_KEYS: KEY, RATE_LIMIT: '1000000' };
			if (store === 'postgres') {
				const scratch = await createScratchDatabase();
				env.DATABASE_URL = scratch.url;
				drop = scratch.drop;
			}
			server = await startServer(env);
			api = apiClient(server.url, KEY);
		}, 90_000);
		afterAll(async () => {
			await server?.stop();
			await drop();
		});

		const total = async () => (await api('GET', '/sessions?limit=0&includeTotalCount=true')).json.totalCount as number;

		async function openPage(flow: unknown[] = FLOW) {
			const created = await api('POST', '/sessions', { clientReferenceId: 'page', flow });
			expect(created.status).toBe(201);
			const opened = await fetch(`${server.url}/api/client/open`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientSecret: created.json.clientSecret.secret, languages: ['en'] }) });
			const { pageToken, state } = await opened.json();
			const page = apiClient(server.url, pageToken);
			return {
				id: created.json.session.id as string,
				state,
				act: (nodeId: string, body: unknown) => page('POST', `/client/nodes/${nodeId}`, body),
				post: (p: string, body: unknown) => page('POST', p, body),
				/** Where the page stands now: the current node and the step counter. */
				now: async () => {
					const { json } = await page('GET', '/client/state');
					return { node: json.node?.id as string | undefined, step: json.session.step as number, status: json.session.status as string };
				}
			};
		}

		it('refuses U+0000 and unpaired surrogates in any string with a 400 naming the field, and stores nothing', async () => {
			const before = await total();
			const cases: [Record<string, unknown>, RegExp][] = [
				[{ clientReferenceId: 'c\u0000' }, /clientReferenceId.*U\+0000/],
				[{ clientReferenceId: 'c\ud800' }, /clientReferenceId.*surrogate/],
				[{ metadata: { k: 'v\ud800' } }, /metadata\.k.*surrogate/],
				[{ metadata: { nested: [{ deep: 'x\u0000y' }] } }, /metadata\.nested\[0\]\.deep/],
				[{ metadata: { 'ke\u0000y': 1 } }, /key.*U\+0000/],
				[{ providedData: { photo: '\udfff' } }, /providedData\.photo/],
				[{ flow: [...FLOW.slice(0, 2), { id: 'end', type: 'end', note: 'a\u0000' }] }, /flow\[2\]\.note/]
			];
			for (const [patch, message] of cases) {
				expectError(await api('POST', '/sessions', JSON.stringify({ clientReferenceId: 'ok', flow: FLOW, ...patch })), 400, message);
			}
			expect(await total()).toBe(before);
			// Characters that are merely unusual are fine and kept exactly.
			const fine = await api('POST', '/sessions', { clientReferenceId: 'ça 💥 \u200d', flow: FLOW, metadata: { 'émoji 💥': 'ok' } });
			expect(fine.status).toBe(201);
			expect(fine.json.session.settings.metadata).toEqual({ 'émoji 💥': 'ok' });
			// A NUL in a query string is refused too, not passed to the store.
			expectError(await api('GET', '/sessions?clientReferenceId=a%00b'), 400, /clientReferenceId/);
			expectError(await api('GET', '/sessions?search=a%00b'), 400, /search/);
			expectError(await api('GET', '/sessions/ses_a%00b'), 404);
			expectError(await api('GET', '/sessions/ses_%ED%A0%80'), 400, /percent-encoding/);
		});

		it('refuses JSON nested deeper than 64 levels with a 400 (the stack never overflows)', async () => {
			const before = await total();
			const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
			for (const n of [70, 2600, 50_000]) {
				const body = `{"clientReferenceId":"deep","flow":${JSON.stringify(FLOW)},"metadata":${deep(n)}}`;
				expectError(await api('POST', '/sessions', body), 400, /nested|not valid JSON/);
			}
			const arrays = `{"clientReferenceId":"deep","flow":[${'['.repeat(3000)}${']'.repeat(3000)}]}`;
			expectError(await api('POST', '/sessions', arrays), 400);
			expect(await total()).toBe(before);
			// 20 levels is an ordinary document and is kept.
			expect((await api('POST', '/sessions', `{"clientReferenceId":"deep-ok","flow":${JSON.stringify(FLOW)},"metadata":${deep(20)}}`)).status).toBe(201);
		});

		it('refuses a __proto__ key with a clear message instead of dropping it', async () => {
			for (const field of ['metadata', 'providedData']) {
				const res = await api('POST', '/sessions', `{"clientReferenceId":"proto","flow":${JSON.stringify(FLOW)},"${field}":{"__proto__":{"x":"1"},"kept":"1"}}`);
				expectError(res, 400, new RegExp(`__proto__.*${field}`));
			}
			// `constructor` and `prototype` are ordinary keys and are kept exactly as sent.
			const ok = await api('POST', '/sessions', { clientReferenceId: 'proto-ok', flow: FLOW, metadata: { constructor: 'a', prototype: 'b' } });
			expect(ok.status).toBe(201);
			expect(ok.json.session.settings.metadata).toEqual({ constructor: 'a', prototype: 'b' });
		});

		it('checks page action names against the node’s own list: prototype names get 400 outcome_not_allowed and nothing moves', async () => {
			const page = await openPage();
			const step = page.state.session.step;
			for (const action of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
				const res = await page.act('email', { step, action, payload: {} });
				expectError(res, 400);
				expect(res.json.error.code).toBe('outcome_not_allowed');
			}
			expectError(await page.act('email', { step, action: 'submit', payload: { email: 'a\u0000@example.com' } }), 400, /payload\.email.*U\+0000/);
			expect(await page.now()).toEqual({ node: 'email', step, status: 'inProgress' });
			// The same page still works.
			expect((await page.act('email', { step, action: 'submit', payload: { email: 'ada@example.com' } })).status).toBe(200);
		});

		it('a face claim with a NUL in the camera label is a 400 and the try is not used up', async () => {
			const page = await openPage(FACE_FLOW);
			const frame = (await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer()).toString('base64');
			const body = { step: page.state.session.step, frames: [{ t: 0, image: frame }], claim: { camera: { label: 'cam\u0000', width: 64, height: 64 } } };
			expectError(await page.post('/client/nodes/face/evidence', body), 400, /camera\.label/);
			expect(await page.now()).toEqual({ node: 'face', step: page.state.session.step, status: 'inProgress' });
		});

		it('refuses a decompression bomb from its header, before decoding it', async () => {
			const page = await openPage(FACE_FLOW);
			// 8000 × 7999 of one colour: ~270 KB of PNG that would inflate to 256 MB of pixels (twelve
			// of them cost 2.6 s of server time before). The message names the size read from the header.
			const bomb = (await sharp({ create: { width: 8000, height: 7999, channels: 3, background: '#777' } }).png({ compressionLevel: 9 }).toBuffer()).toString('base64');
			const res = await page.post('/client/nodes/face/evidence', { step: page.state.session.step, frames: Array.from({ length: 12 }, (_, i) => ({ t: i * 100, image: bomb })) });
			expectError(res, 400, /frames\[0\]\.image is 8000×7999: a camera frame may have at most 4096 pixels a side/);
			expect(await page.now()).toEqual({ node: 'face', step: page.state.session.step, status: 'inProgress' });
		});

		it('refuses a document photo bomb from its header too', async () => {
			const page = await openPage([
				{ id: 'start', type: 'start', outcome: 'doc' },
				{ id: 'doc', type: 'document_scan', scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: ['MRTD_TYPE_PASSPORT'], outcomes: { scanSuccess: 'end', userCancelled: 'end', scanTimeout: 'end' } },
				{ id: 'end', type: 'end' }
			]);
			const bomb = (await sharp({ create: { width: 8000, height: 7999, channels: 3, background: '#777' } }).png({ compressionLevel: 9 }).toBuffer()).toString('base64');
			expectError(await page.post('/client/nodes/doc/evidence', { step: page.state.session.step, images: [{ side: 'front', image: bomb }] }), 400, /images\[0\] \(front\) is 8000×7999: at most 48 megapixels/);
			expect(await page.now()).toEqual({ node: 'doc', step: page.state.session.step, status: 'inProgress' });
		});

		it('answers a chunked body past the limit with the spec’s 413, not a connection reset', async () => {
			for (const mb of [9, 20]) {
				const { status, body } = await chunkedPost(`${server.url}/api/sessions`, KEY, mb);
				expect(status).toBe(413);
				expect(JSON.parse(body)).toEqual({ error: { type: 'validation_error', message: expect.stringMatching(/larger than 8 MB/), code: 'body_too_large' } });
			}
			// The server still answers afterwards.
			expect((await api('GET', '/sessions?limit=1')).status).toBe(200);
		});

		it('has no /demo here: the service did not make its own sandbox account (seeded keys), and DEMO_ENABLED is unset', async () => {
			const before = await total();
			expect((await fetch(`${server.url}/demo`)).status).toBe(404);
			const post = await fetch(`${server.url}/demo`, { method: 'POST', redirect: 'manual', headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: 'lang=en' });
			expect(post.status).toBe(404);
			expect(await total()).toBe(before);
			expect(server.logs()).not.toContain('Demo:');
		});

		it('fuzz: random bodies to POST /sessions get 201 or a 4xx, never a 500, and exactly the 201s are stored', async () => {
			const before = await total();
			let created = 0;
			const statuses: Record<number, number> = {};
			await fc.assert(
				fc.asyncProperty(sessionBody(), async (body) => {
					const res = await api('POST', '/sessions', typeof body === 'string' ? body : JSON.stringify(body));
					statuses[res.status] = (statuses[res.status] ?? 0) + 1;
					if (res.status === 201) created++;
					else {
						expect(res.status, res.text).toBeGreaterThanOrEqual(400);
						expect(res.status, res.text).toBeLessThan(500);
						expect(res.json?.error?.message, res.text).toEqual(expect.any(String));
					}
				}),
				{ numRuns: 700, seed: 20261123, interruptAfterTimeLimit: 50_000 }
			);
			expect(await total()).toBe(before + created);
			// The generator makes both kinds; a fuzz run that only ever fails or succeeds tests little.
			expect(created, JSON.stringify(statuses)).toBeGreaterThan(50);
			expect(statuses[400], JSON.stringify(statuses)).toBeGreaterThan(50);
		}, 120_000);

		it('fuzz: random page actions get 200 or a 4xx, never a 500, and a refused one changes nothing', async () => {
			const page = await openPage([
				{ id: 'start', type: 'start', outcome: 'hello' },
				{ id: 'hello', type: 'conversation', prompt: 'Say: hi', outcomes: [{ id: 'o', condition: 'The user is ready', targetNodeId: 'email' }] },
				...FLOW.slice(1)
			]);
			let step = page.state.session.step as number;
			await fc.assert(
				fc.asyncProperty(
					// Mostly the current node (null), so the action itself is what gets judged.
					fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('hello', 'email', 'end', 'nope', '__proto__', 'constructor') }),
					fc.oneof(fc.constantFrom('reply', 'submit', 'cancel', 'evidence', 'timeout', 'granted', 'constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'), hostileString()),
					fc.oneof(fc.dictionary(hostileString(), fc.oneof(hostileString(), fc.integer(), fc.boolean())), fc.jsonValue()),
					fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
					async (nodeId, action, payload, staleStep) => {
						const before = await page.now();
						const res = await page.act(nodeId ?? before.node ?? 'end', { step: staleStep ? step - 1 : step, action, payload });
						expect([200, 400, 404, 409, 413, 422].includes(res.status), `${res.status} ${res.text}`).toBe(true);
						if (res.status === 200) step = res.json.state.session.step;
						else expect(await page.now()).toEqual(before);
					}
				),
				{ numRuns: 150, seed: 11, interruptAfterTimeLimit: 40_000 }
			);
		}, 120_000);
	});
}

/* ---------- generators ---------- */

/** Strings with the characters that break stores and parsers, among ordinary ones. */
function hostileString(): fc.Arbitrary<string> {
	return fc.oneof(
		fc.string({ maxLength: 12 }),
		fc.string({ unit: 'binary', maxLength: 8 }),
		fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\ud83d', '__proto__', 'constructor', 'toString', '', ' ', '💥', 'a'.repeat(300))
	);
}

function sessionBody(): fc.Arbitrary<unknown> {
	const valid = fc.record({
		clientReferenceId: fc.oneof({ weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) }, { weight: 1, arbitrary: hostileString() }),
		flow: fc.constant(FLOW)
	});
	// At most one extra field per body, so that a fair share of bodies is valid.
	const extra = fc.oneof(
		fc.constant({}),
		fc.record({ metadata: fc.oneof(fc.dictionary(hostileString(), fc.oneof(hostileString(), fc.jsonValue({ maxDepth: 3 })), { maxKeys: 4 }), fc.jsonValue({ maxDepth: 2 })) }),
		fc.record({ providedData: fc.dictionary(hostileString(), hostileString(), { maxKeys: 3 }) }),
		fc.record({ langs: fc.array(fc.constantFrom('en', 'de', 'ja', 'xx', '\u0000'), { maxLength: 3 }) }),
		fc.record({ initialPhrase: hostileString() }),
		fc.record({ avatarId: hostileString() }),
		fc.record({ flowId: hostileString() })
	);
	const nested = fc.integer({ min: 1, max: 300 }).map((n) => `{"clientReferenceId":"n","flow":${JSON.stringify(FLOW)},"metadata":${'{"a":'.repeat(n)}0${'}'.repeat(n)}}`);
	const proto = fc.constantFrom('metadata', 'providedData', 'customization').map((f) => `{"clientReferenceId":"p","flow":${JSON.stringify(FLOW)},"${f}":{"__proto__":{"a":"b"}}}`);
	return fc.oneof(
		{ weight: 6, arbitrary: fc.tuple(valid, extra).map(([a, b]) => ({ ...a, ...b })) },
		{ weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
		{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
		{ weight: 1, arbitrary: nested },
		{ weight: 1, arbitrary: proto }
	);
}

/** POSTs `mb` MB as a chunked body (no Content-Length), and reads whatever answer comes back. */
function chunkedPost(url: string, key: string, mb: number): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (d) => (body += d));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
		});
		req.on('error', reject);
		const chunk = Buffer.alloc(256 * 1024, 0x20);
		let sent = 0;
		const write = () => {
			while (sent < mb * 4) {
				sent++;
				if (!req.write(chunk)) return void req.once('drain', write);
			}
			req.end();
		};
		req.write('{"clientReferenceId":"big","x":"');
		write();
	});
}

describe('the /demo page, where enabled, cannot be abused', () => {
	const demoPost = (base: string, origin: string | null) =>
		fetch(`${base}/demo`, { method: 'POST', redirect: 'manual', headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) }, body: 'lang=en' });

	it('when enabled: refuses cross-site and origin-less form posts, and limits sessions per client address', async () => {
		const server = await startServer({ SEED_API_KEYS: KEY, RATE_LIMIT: '1000000', DEMO_ENABLED: 'true', DEMO_RATE_LIMIT: '2' });
		try {
			const count = async () => (await apiClient(server.url, KEY)('GET', '/sessions?limit=0&includeTotalCount=true')).json.totalCount;
			for (const origin of ['https://evil.example', null, 'null']) {
				const res = await demoPost(server.url, origin);
				expect(res.status, String(origin)).toBe(403);
				expect(await res.text()).toMatch(/Cross-site/);
			}
			// A browser says where the post comes from in Sec-Fetch-Site (and sends Origin: null under the
			// page's no-referrer policy): that is what counts when it is there.
			const fetchSite = (site: string, origin: string) =>
				fetch(`${server.url}/demo`, { method: 'POST', redirect: 'manual', headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site, origin }, body: 'lang=en' });
			expect((await fetchSite('cross-site', server.url)).status).toBe(403);
			expect((await fetchSite('same-site', server.url)).status).toBe(403);
			expect(await count()).toBe(0);
			expect((await fetchSite('same-origin', 'null')).status).toBe(303);
			{
				const res = await demoPost(server.url, server.url);
				expect(res.status).toBe(303);
				expect(res.headers.get('location')).toMatch(/^\/verify\?cs=cs_.*lang=en/);
			}
			const limited = await demoPost(server.url, server.url);
			expect(limited.status).toBe(429);
			expect(await count()).toBe(2);
			// The API itself is not a form endpoint: `curl -d` (form-encoded, no Origin) still reaches it.
			const curl = await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' }, body: JSON.stringify({ clientReferenceId: 'curl', flow: FLOW }) });
			expect(curl.status).toBe(201);
		} finally {
			await server.stop();
		}
	}, 90_000);
});

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startServer, type RunningServer } from '../helpers/server.ts';
import { SIMPLE_FLOW, createBody } from '../helpers/flows.ts';

const KEY_A = 'sk_test_AAAAAAAAAAAAAAAAAAAAAAAAaaaa1111';
const KEY_B = 'sk_test_BBBBBBBBBBBBBBBBBBBBBBBBbbbb2222';
const KEY_LIVE = 'sk_live_CCCCCCCCCCCCCCCCCCCCCCCCcccc3333';

function expectErrorShape(json: any, type: string) {
	expect(json).toEqual({ error: expect.objectContaining({ type, message: expect.any(String) }) });
	expect(Object.keys(json.error).every((k) => ['type', 'message', 'code'].includes(k))).toBe(true);
	expect(json.error.message.length).toBeGreaterThan(5);
}

describe('Session API over HTTP (production build)', () => {
	let server: RunningServer;
	let a: ReturnType<typeof apiClient>;
	let b: ReturnType<typeof apiClient>;

	beforeAll(async () => {
		server = await startServer({ SEED_API_KEYS: `${KEY_A},${KEY_B},${KEY_LIVE}`, RATE_LIMIT: '100000' });
		a = apiClient(server.url, KEY_A);
		b = apiClient(server.url, KEY_B);
	});
	afterAll(() => server?.stop());

	describe('authentication', () => {
		it('refuses a missing, malformed or unknown key with 401 authentication_error', async () => {
			for (const key of [undefined, 'Basic abc', 'sk_test_nope', 'Bearer sk_test_' + 'x'.repeat(32)]) {
				const res = await fetch(`${server.url}/api/sessions`, { headers: key ? { authorization: key } : {} });
				expect(res.status).toBe(401);
				expectErrorShape(await res.json(), 'authentication_error');
			}
			const res = await apiClient(server.url, 'sk_test_unknownunknownunknown00')('GET', '/sessions');
			expect(res.json.error.message).toBe('Invalid API key');
		});

		it('lets each key see only its own sessions', async () => {
			const created = await a('POST', '/sessions', createBody({ clientReferenceId: 'owned-by-a' }));
			expect(created.status).toBe(201);
			const id = created.json.session.id;
			expect((await a('GET', `/sessions/${id}`)).status).toBe(200);
			const other = await b('GET', `/sessions/${id}`);
			expect(other.status).toBe(404);
			expectErrorShape(other.json, 'not_found_error');
			expect((await b('GET', '/sessions?clientReferenceId=owned-by-a')).json.sessions).toEqual([]);
			expect((await apiClient(server.url, KEY_LIVE)('GET', `/sessions/${id}`)).status).toBe(404);
		});

		it('serves the OpenAPI document and /healthz without a key', async () => {
			const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
			expect(doc.openapi).toBe('3.1.0');
			expect(doc.info.version).toBe('1.0.18');
			expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/sessions', '/sessions/{sessionId}', '/langs', '/avatars']));
			expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Session', 'ClientSecret', 'SessionReport', 'FSNode', 'Error', 'CreateSessionRequest']));
			expect(doc.paths['/sessions'].get.parameters.map((p: any) => p.name)).toEqual(
				expect.arrayContaining(['limit', 'cursor', 'flowId', 'clientReferenceId', 'status', 'createdAfter', 'createdBefore', 'sortBy', 'sortOrder', 'search', 'includeTotalCount'])
			);
			const health = await (await fetch(`${server.url}/healthz`)).json();
			expect(health).toMatchObject({ status: 'ok', apiVersion: '1.0.18', store: { kind: 'pglite', ok: true } });
		});
	});

	describe('sessions', () => {
		it('creates (201), reads and lists a session as an integrator would', async () => {
			const created = await a('POST', '/sessions', createBody({ clientReferenceId: 'integrator-1', metadata: { orderId: 'A-17' } }));
			expect(created.status).toBe(201);
			expect(created.headers.get('x-ratelimit-limit')).toBe('100000');
			const { session, clientSecret } = created.json;
			expect(session.status).toBe('created');
			expect(clientSecret.url).toBe(`${server.url}/verify?cs=${clientSecret.secret}`);
			const got = await a('GET', `/sessions/${session.id}`);
			expect(got.json.session).toMatchObject({ id: session.id, status: 'created', settings: { flow: SIMPLE_FLOW } });
			expect(got.json.clientSecret).toEqual(clientSecret);
			const listed = await a('GET', '/sessions?search=a-17&includeTotalCount=true');
			expect(listed.json).toMatchObject({ hasMore: false, totalCount: 1 });
			expect(listed.json.sessions[0].id).toBe(session.id);
		});

		it('sends the link’s page compressed to a browser that accepts it, and as it is to one that does not', async () => {
			const { clientSecret } = (await a('POST', '/sessions', createBody({ clientReferenceId: 'page-encoding' }))).json;
			const plain = await fetch(clientSecret.url, { headers: { 'accept-encoding': 'identity' } });
			expect(plain.headers.get('content-encoding')).toBeNull();
			const page = await plain.text();
			expect(page).toContain('data-screen="permissions"');
			for (const encoding of ['br', 'gzip']) {
				// fetch decodes the body; the header and the byte count say what travelled.
				const res = await fetch(clientSecret.url, { headers: { 'accept-encoding': encoding } });
				expect(res.status).toBe(200);
				expect(res.headers.get('content-encoding')).toBe(encoding);
				expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
				expect(res.headers.get('content-security-policy')).toBeTruthy();
				expect(Number(res.headers.get('content-length'))).toBeLessThan(page.length / 2);
				expect(await res.text()).toContain('data-screen="permissions"');
			}
		});

		it('keeps the link page’s first load (the JS and CSS its HTML names) within 50 KB gzipped', async () => {
			// The budget of `npm run bench -- page` (49.7 KB there, which also counts SvelteKit's error
			// page fetched at hydration): a change that puts a later screen's code back into the first
			// load fails here, not only in a benchmark nobody reran.
			const { clientSecret } = (await a('POST', '/sessions', createBody({ clientReferenceId: 'page-weight' }))).json;
			const page = await (await fetch(clientSecret.url)).text();
			const files = [...new Set([...page.matchAll(/href="\.\/(_app\/immutable\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]))];
			expect(files.length).toBeGreaterThan(5);
			let gzipped = 0;
			for (const file of files) {
				const res = await fetch(`${server.url}/${file}`, { headers: { 'accept-encoding': 'identity' } });
				expect(res.status).toBe(200);
				gzipped += gzipSync(Buffer.from(await res.arrayBuffer()), { level: 6 }).byteLength;
			}
			expect(gzipped / 1024).toBeLessThanOrEqual(50);
		});

		it('creates a face_scan compare with referenceImageSource session and no referenceImageKey', async () => {
			// The spec requires only mode and outcomes; the node compares with the face saved last.
			const flow = [
				{ id: 'start', type: 'start', outcome: 'selfie' },
				{ id: 'selfie', type: 'face_scan', mode: 'capture', saveToField: 'selfie', outcomes: { passed: 'cmp', notPassed: 'end', cancelled: 'end', error: 'end' } },
				{ id: 'cmp', type: 'face_scan', mode: 'compare', referenceImageSource: 'session', outcomes: { passed: 'end', notPassed: 'end', cancelled: 'end', error: 'end' } },
				{ id: 'end', type: 'end' }
			];
			const created = await a('POST', '/sessions', createBody({ clientReferenceId: 'session-reference', flow }));
			expect(created.status, JSON.stringify(created.json)).toBe(201);
			expect(created.json.session.settings.flow[2]).not.toHaveProperty('referenceImageKey');
			// A providedData source still needs its key: there is nothing to fall back to.
			const refused = await a('POST', '/sessions', createBody({ flow: flow.map((n) => (n.id === 'cmp' ? { ...n, referenceImageSource: 'providedData' } : n)) }));
			expect(refused.status).toBe(400);
			expect(refused.json.error.message).toContain("'referenceImageKey' is required when referenceImageSource is 'providedData'");
		});

		it('replays a create with the same Idempotency-Key', async () => {
			const body = createBody({ clientReferenceId: 'idem-http' });
			const first = await a('POST', '/sessions', body, { 'idempotency-key': 'order-77' });
			const second = await a('POST', '/sessions', body, { 'idempotency-key': 'order-77' });
			expect(second.status).toBe(201);
			expect(second.headers.get('idempotent-replayed')).toBe('true');
			expect(second.json).toEqual(first.json);
			const conflict = await a('POST', '/sessions', createBody({ clientReferenceId: 'other' }), { 'idempotency-key': 'order-77' });
			expect(conflict.status).toBe(409);
			expect(conflict.json.error).toMatchObject({ type: 'validation_error', code: 'idempotency_key_reused' });
		});

		it('answers bad input with 400 validation_error naming the problem', async () => {
			const cases: [unknown, string][] = [
				['{"clientReferenceId": ', 'not valid JSON'],
				['', 'needs a JSON body'],
				[{ flow: SIMPLE_FLOW }, "'clientReferenceId' is required"],
				[createBody({ flow: [...SIMPLE_FLOW, { id: 'x', type: 'face_scan', mode: 'compare', outcomes: {} }] }), "flow node 'x' (face_scan)"],
				[createBody({ defaultLang: 'klingon' }), "'defaultLang' must be one of"],
				[createBody({ providedData: { name: 42 } }), "'providedData.name' must be a string"],
				[createBody({ customization: { permissionsPage: { backgroundColor: 'red; background: url(x)' } } }), 'CSS colour']
			];
			for (const [body, fragment] of cases) {
				const res = await a('POST', '/sessions', body);
				expect(res.status, JSON.stringify(res.json)).toBe(400);
				expectErrorShape(res.json, 'validation_error');
				expect(res.json.error.message).toContain(fragment);
			}
		});

		it('refuses a body over 8 MB with 413', async () => {
			const res = await a('POST', '/sessions', createBody({ providedData: { blob: 'x'.repeat(9 * 1024 * 1024) } }));
			expect(res.status).toBe(413);
			expect(res.json.error.code).toBe('body_too_large');
		});

		it('validates list query parameters', async () => {
			for (const [query, fragment] of [
				['limit=101', "'limit' must be between 0 and 100"],
				['limit=-1', "'limit' must be"],
				['status=done', "'status' must be one or more of"],
				['sortBy=name', "'sortBy' must be one of createdAt, status, finishedAt"],
				['createdAfter=yesterday', "'createdAfter' must be a Unix time"],
				['colour=red', "unknown query parameter 'colour'"],
				['limit=1&limit=2', "'limit' is given more than once"],
				['cursor=abc', "'cursor' is not a cursor"]
			]) {
				const res = await a('GET', `/sessions?${query}`);
				expect(res.status, query).toBe(400);
				expect(res.json.error.message).toContain(fragment);
			}
		});

		it('answers unknown routes and methods in the error shape', async () => {
			const missing = await a('GET', '/nope');
			expect(missing.status).toBe(404);
			expectErrorShape(missing.json, 'not_found_error');
			const method = await a('PUT', '/sessions', {});
			expect(method.status).toBe(405);
			expect(method.headers.get('allow')).toBe('GET, POST');
		});

		it('lists languages and avatars with real images', async () => {
			const langs = (await a('GET', '/langs')).json.langs;
			expect(langs.map((l: any) => l.id)).toEqual(['en', 'it', 'de', 'fr', 'es', 'pt', 'ru', 'ja', 'id', 'no', 'zh', 'zh-TW', 'zh-HK']);
			const avatars = (await a('GET', '/avatars')).json.avatars;
			expect(avatars.length).toBeGreaterThanOrEqual(3);
			for (const avatar of avatars) {
				expect(avatar).toEqual({ id: expect.any(String), name: expect.any(String), gender: expect.stringMatching(/^(male|female|unknown)$/), imageUrl: expect.any(String), createdAt: expect.any(Number) });
				const image = await fetch(avatar.imageUrl);
				expect(image.status).toBe(200);
				expect(image.headers.get('content-type')).toContain('image/svg+xml');
			}
			const chosen = await a('POST', '/sessions', createBody({ avatarId: avatars[1].id }));
			expect(chosen.status).toBe(201);
		});
	});

	describe('fuzz', () => {
		it('answers thousands of random bodies with 201 or a 4xx error shape, and creates exactly the 201s', async () => {
			const rand = mulberry32(20261122);
			const fuzzKey = b;
			const before = (await fuzzKey('GET', '/sessions?limit=0&includeTotalCount=true')).json.totalCount;
			let created = 0;
			const statuses = new Map<number, number>();
			const N = 2000;
			for (let i = 0; i < N; i += 20) {
				const batch = await Promise.all(
					Array.from({ length: 20 }, async () => {
						const res = await fuzzKey('POST', '/sessions', randomBody(rand));
						return res;
					})
				);
				for (const res of batch) {
					statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
					if (res.status === 201) {
						created++;
						expect(res.json.session.id).toMatch(/^ses_/);
					} else {
						expect(res.status, res.text).toBeGreaterThanOrEqual(400);
						expect(res.status, res.text).toBeLessThan(500);
						expectErrorShape(res.json, 'validation_error');
					}
				}
			}
			const after = (await fuzzKey('GET', '/sessions?limit=0&includeTotalCount=true')).json.totalCount;
			expect(after - before).toBe(created);
			// The generator makes both kinds; a fuzz run that only ever fails or succeeds tests little.
			expect(created).toBeGreaterThan(N * 0.1);
			expect(created).toBeLessThan(N * 0.9);
		}, 180_000);
	});
});

describe('rate limiting', () => {
	let server: RunningServer;
	beforeAll(async () => {
		server = await startServer({ SEED_API_KEYS: `${KEY_A},${KEY_B}`, RATE_LIMIT: '5', RATE_LIMIT_WINDOW_S: '60' });
	});
	afterAll(() => server?.stop());

	it('counts per key, reports the window on every response and answers 429 past the limit', async () => {
		const a = apiClient(server.url, KEY_A);
		const remaining: string[] = [];
		for (let i = 0; i < 5; i++) {
			const res = await a('GET', '/sessions');
			expect(res.status).toBe(200);
			remaining.push(res.headers.get('x-ratelimit-remaining')!);
			expect(res.headers.get('x-ratelimit-limit')).toBe('5');
			const reset = Number(res.headers.get('x-ratelimit-reset'));
			expect(reset).toBeGreaterThan(Date.now());
			expect(reset).toBeLessThanOrEqual(Date.now() + 61_000);
		}
		expect(remaining).toEqual(['4', '3', '2', '1', '0']);
		const limited = await a('GET', '/sessions');
		expect(limited.status).toBe(429);
		expectErrorShape(limited.json, 'rate_limit_error');
		expect(limited.json.error.message).toBe('Rate limit exceeded');
		expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
		// Another key has its own budget.
		expect((await apiClient(server.url, KEY_B)('GET', '/sessions')).status).toBe(200);
	});
});

/* ---------- fuzz generators ---------- */

function mulberry32(seed: number) {
	return () => {
		seed |= 0;
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const TYPES = ['start', 'end', 'conversation', 'liveness_detection', 'enter_email', 'data_validation', 'document_scan', 'recognition', 'face_scan', 'two_factor', 'face_compare', 'two_factor_email', 'two_factor_sms', 'permissions', 'bogus'];
const OUTCOMES: Record<string, string[]> = {
	liveness_detection: ['livenessDetected', 'deepfakeDetected', 'noFace'],
	enter_email: ['emailEntered', 'canceled'],
	document_scan: ['scanSuccess', 'userCancelled', 'scanTimeout'],
	recognition: ['recognized', 'newUser', 'noFace'],
	face_scan: ['passed', 'notPassed', 'cancelled', 'error'],
	face_compare: ['match', 'noMatch', 'imageUnavailable'],
	two_factor: ['verified', 'delivery_failed', 'failed_unverified', 'cancelled', 'error'],
	two_factor_email: ['verified', 'delivery_failed', 'failed_unverified', 'cancelled', 'error'],
	two_factor_sms: ['verified', 'delivery_failed', 'failed_unverified', 'cancelled', 'error'],
	permissions: ['permissionsGranted', 'permissionsDenied']
};

function randomValue(r: () => number, depth = 0): unknown {
	const pick = Math.floor(r() * (depth > 2 ? 6 : 9));
	switch (pick) {
		case 0: return null;
		case 1: return r() < 0.5;
		case 2: return Math.floor(r() * 2000) - 1000;
		case 3: return r() * 10;
		case 4: return ['', 'x', 'end', 'n1', '💥', 'a'.repeat(300)][Math.floor(r() * 6)];
		case 5: return 'https://example.com/a.jpg';
		case 6: return Array.from({ length: Math.floor(r() * 3) }, () => randomValue(r, depth + 1));
		default: return Object.fromEntries(Array.from({ length: Math.floor(r() * 3) }, (_, i) => [`k${i}`, randomValue(r, depth + 1)]));
	}
}

/** A flow that is valid by construction (a chain), then maybe damaged in one random way. */
function randomFlow(r: () => number): unknown {
	const n = 1 + Math.floor(r() * 5);
	const ids = Array.from({ length: n }, (_, i) => `n${i}`);
	const nodes: any[] = [{ id: 'start', type: 'start', outcome: ids[0] }];
	ids.forEach((id, i) => {
		const next = i + 1 < n ? ids[i + 1] : 'end';
		const type = ['enter_email', 'permissions', 'liveness_detection', 'recognition', 'conversation', 'document_scan', 'face_scan', 'two_factor'][Math.floor(r() * 8)];
		const node: any = { id, type };
		if (type === 'conversation') Object.assign(node, { prompt: 'Say: hi', outcomes: [{ id: 'o', condition: 'always', targetNodeId: next }] });
		else node.outcomes = Object.fromEntries(OUTCOMES[type].map((k) => [k, next]));
		if (type === 'document_scan') Object.assign(node, { scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: ['MRTD_TYPE_PASSPORT'] });
		if (type === 'face_scan') node.mode = 'capture';
		if (type === 'two_factor') Object.assign(node, { channels: ['email'], contactSource: 'session_data' });
		nodes.push(node);
	});
	nodes.push({ id: 'end', type: 'end' });
	if (r() < 0.45) {
		const victim = nodes[Math.floor(r() * nodes.length)];
		const damage = Math.floor(r() * 7);
		if (damage === 0) victim.type = TYPES[Math.floor(r() * TYPES.length)];
		else if (damage === 1) victim.id = nodes[0].id;
		else if (damage === 2) victim.outcomes = randomValue(r);
		else if (damage === 3) victim.outcome = victim.id;
		else if (damage === 4) nodes.push({ id: 'orphan', type: 'end' });
		else if (damage === 5) victim[['mode', 'channels', 'prompt', 'scanningMode'][Math.floor(r() * 4)]] = randomValue(r);
		else delete victim.id;
	}
	return nodes;
}

function randomBody(r: () => number): unknown {
	const roll = r();
	if (roll < 0.03) return randomValue(r);
	if (roll < 0.05) return '{"truncated": ';
	const body: any = { clientReferenceId: r() < 0.95 ? `fuzz-${Math.floor(r() * 1e6)}` : randomValue(r), flow: randomFlow(r) };
	if (r() < 0.1) body.modules = [{ type: 'identityVerification' }];
	if (r() < 0.1) body[['metadata', 'langs', 'zone', 'avatarId', 'customization', 'providedData', 'defaultLang'][Math.floor(r() * 7)]] = randomValue(r);
	if (r() < 0.05) body.surprise = 1;
	return body;
}

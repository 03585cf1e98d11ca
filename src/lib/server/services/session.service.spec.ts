import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '#lib/domain/errors.ts';
import { IllegalTransitionError } from '#lib/domain/session/session-status.ts';
import { listSessionsQuerySchema } from '#lib/domain/session/list-query.schema.ts';
import { STORE_KINDS, createTestApp, manualClock } from '../../../../tests/helpers/test-store.ts';
import { SIMPLE_FLOW, createBody } from '../../../../tests/helpers/flows.ts';
import type { ApiPrincipal } from '../repositories/account.repository.ts';

const q = (raw: Record<string, string> = {}) => listSessionsQuerySchema.parse(raw);

async function expectApiError(p: Promise<unknown>, type: string, fragment: string, status?: number) {
	const err = await p.then(
		() => null,
		(e: unknown) => e
	);
	expect(err).toBeInstanceOf(ApiError);
	expect((err as ApiError).type).toBe(type);
	expect((err as ApiError).message).toContain(fragment);
	if (status) expect((err as ApiError).status).toBe(status);
}

describe.each(STORE_KINDS)('sessions on %s', (kind) => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	const clock = manualClock();
	let alice: ApiPrincipal;
	let aliceLive: ApiPrincipal;
	let bob: ApiPrincipal;

	beforeAll(async () => {
		app = await createTestApp(kind, {}, clock);
		const principal = async (accountId: string, env: 'test' | 'live') => (await app.accounts.authenticate((await app.accounts.createApiKey(accountId, env)).key))!;
		const a = await app.accounts.createAccount('Alice');
		alice = await principal(a, 'test');
		aliceLive = await principal(a, 'live');
		bob = await principal(await app.accounts.createAccount('Bob'), 'test');
	});
	afterAll(() => app?.dispose());

	it('creates a session with its client secret and a session.status event, in one go', async () => {
		const { result } = await app.sessions.create(alice, createBody({ metadata: { plan: 'gold' } }));
		expect(result.session).toMatchObject({ status: 'created', version: '1.0.18', settings: { clientReferenceId: 'user-1', flow: SIMPLE_FLOW, metadata: { plan: 'gold' } } });
		expect(result.session.id).toMatch(/^ses_[A-Za-z0-9]{22}$/);
		expect(Number.isInteger(result.session.createdAt)).toBe(true);
		expect(result.clientSecret.secret).toMatch(/^cs_[A-Za-z0-9]{43}$/);
		expect(result.clientSecret.url).toBe(`http://veriflow.test/verify?cs=${result.clientSecret.secret}`);
		expect(result.clientSecret.expireAt - result.clientSecret.createdAt).toBe(24 * 3600_000);
		const events = await app.uow.repos.outbox.listForSession(result.session.id);
		expect(events.map((e) => e.type)).toEqual(['session.status']);
		// The secret is stored hashed and sealed, never in clear.
		const secretRow = await app.uow.repos.sessions.findSecretByHash((await import('../crypto.ts')).sha256Hex(result.clientSecret.secret));
		expect(secretRow?.sessionId).toBe(result.session.id);
		expect(JSON.stringify(secretRow)).not.toContain(result.clientSecret.secret);
	});

	it('returns the session and the same secret on GET, only to its own account and environment', async () => {
		const { result } = await app.sessions.create(alice, createBody());
		const got = await app.sessions.get(alice, result.session.id);
		expect(got.clientSecret).toEqual(result.clientSecret);
		expect(got.session.id).toBe(result.session.id);
		await expectApiError(app.sessions.get(bob, result.session.id), 'not_found_error', 'Session not found', 404);
		await expectApiError(app.sessions.get(aliceLive, result.session.id), 'not_found_error', 'Session not found', 404);
	});

	it('refuses invalid settings and flows without writing anything', async () => {
		const before = await app.uow.repos.sessions.count(alice.accountId, alice.env, q());
		await expectApiError(app.sessions.create(alice, { flow: SIMPLE_FLOW }), 'validation_error', "'clientReferenceId' is required");
		await expectApiError(app.sessions.create(alice, createBody({ flow: [{ id: 's', type: 'start', outcome: 's2' }] })), 'validation_error', 'Invalid flow');
		await expectApiError(app.sessions.create(alice, createBody({ modules: [{ type: 'knowledgeVerify' }] })), 'validation_error', 'either flow or modules');
		await expectApiError(app.sessions.create(alice, { clientReferenceId: 'x' }), 'validation_error', "'flow' is required");
		await expectApiError(app.sessions.create(alice, createBody({ avatarId: 'nobody' })), 'validation_error', "'avatarId' must name an avatar");
		await expectApiError(app.sessions.create(alice, createBody({ langs: ['en', 'xx'] })), 'validation_error', "'langs[1]' must be one of");
		await expectApiError(app.sessions.create(alice, createBody({ zone: 'mars' })), 'validation_error', "'zone' must be one of eu, us, es");
		await expectApiError(app.sessions.create(alice, createBody({ colour: 'red' })), 'validation_error', "unknown field 'colour'");
		await expectApiError(app.sessions.create(alice, createBody({ metadata: { blob: 'x'.repeat(51 * 1024) } })), 'validation_error', "'metadata' must be at most 50 KB");
		await expectApiError(app.sessions.create(alice, []), 'validation_error', 'must be a JSON object');
		expect(await app.uow.repos.sessions.count(alice.accountId, alice.env, q())).toBe(before);
	});

	it('refuses a language as soon as it is disabled, and takes it again once enabled', async () => {
		await expect(app.sessions.create(alice, createBody({ langs: ['en', 'ja'] }))).resolves.toBeTruthy();
		await app.catalogue.setLangEnabled('ja', false);
		try {
			await expectApiError(app.sessions.create(alice, createBody({ langs: ['en', 'ja'] })), 'validation_error', 'Languages not offered by GET /langs: ja');
			await expectApiError(app.sessions.create(alice, createBody({ defaultLang: 'ja' })), 'validation_error', 'Languages not offered by GET /langs: ja');
		} finally {
			await app.catalogue.setLangEnabled('ja', true);
		}
		await expect(app.sessions.create(alice, createBody({ defaultLang: 'ja' }))).resolves.toBeTruthy();
	});

	it('accepts legacy modules, keeps them as sent and runs an equivalent flow', async () => {
		const modules = [{ type: 'emailVerification', email: 'a@example.com' }];
		const { result } = await app.sessions.create(alice, { clientReferenceId: 'legacy', modules });
		expect(result.session.settings.modules).toEqual(modules);
		expect(result.session.settings.flow).toBeUndefined();
		const row = await app.uow.repos.sessions.findById(result.session.id);
		expect(row!.flow.map((n) => n.type)).toEqual(['start', 'two_factor_email', 'end']);
	});

	it('accepts metadata of exactly 50 KB', async () => {
		const pad = 50 * 1024 - JSON.stringify({ b: '' }).length;
		await expect(app.sessions.create(alice, createBody({ metadata: { b: 'x'.repeat(pad) } }))).resolves.toBeTruthy();
	});

	describe('idempotency', () => {
		it('returns the first result for a retry with the same key and body', async () => {
			const body = createBody({ clientReferenceId: 'idem-1' });
			const first = await app.sessions.create(alice, body, 'key-1');
			const again = await app.sessions.create(alice, { ...body }, 'key-1');
			expect(first.replayed).toBe(false);
			expect(again.replayed).toBe(true);
			expect(again.result).toEqual(first.result);
			const listed = await app.sessions.list(alice, q({ clientReferenceId: 'idem-1' }));
			expect(listed.sessions).toHaveLength(1);
		});

		it('refuses the same key with another body, and scopes keys per account', async () => {
			await app.sessions.create(alice, createBody({ clientReferenceId: 'idem-2' }), 'key-2');
			await expectApiError(app.sessions.create(alice, createBody({ clientReferenceId: 'idem-3' }), 'key-2'), 'validation_error', 'different request body', 409);
			const other = await app.sessions.create(bob, createBody({ clientReferenceId: 'idem-2' }), 'key-2');
			expect(other.replayed).toBe(false);
		});

		it('creates one session when the same key races', async () => {
			const body = createBody({ clientReferenceId: 'idem-race' });
			const results = await Promise.allSettled(Array.from({ length: 6 }, () => app.sessions.create(alice, body, 'key-race')));
			const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof app.sessions.create>>>).value);
			// The claim and its response are written in one statement: no racer sees a half-made claim.
			expect(ok).toHaveLength(6);
			expect(new Set(ok.map((r) => r.result.session.id)).size).toBe(1);
			expect(ok.filter((r) => !r.replayed)).toHaveLength(1);
			const listed = await app.sessions.list(alice, q({ clientReferenceId: 'idem-race' }));
			expect(listed.sessions).toHaveLength(1);
			expect(await app.uow.repos.outbox.listForSession(ok[0].result.session.id)).toHaveLength(1);
		});
	});

	describe('status machine', () => {
		it('moves created → inProgress → complete with timestamps and one event per change', async () => {
			const { result } = await app.sessions.create(alice, createBody());
			const id = result.session.id;
			await app.uow.transaction((repos) => app.sessions.transition(repos, id, 'inProgress'));
			await app.uow.transaction((repos) => app.sessions.transition(repos, id, 'complete'));
			const { session } = await app.sessions.get(alice, id);
			expect(session.status).toBe('complete');
			expect(session.startedAt).toBeGreaterThan(session.createdAt);
			expect(session.finishedAt).toBeGreaterThan(session.startedAt!);
			expect((await app.uow.repos.outbox.listForSession(id)).map((e) => e.type)).toEqual(['session.status', 'session.status', 'session.status']);
		});

		it('refuses illegal moves and leaves the session and the outbox untouched', async () => {
			const { result } = await app.sessions.create(alice, createBody());
			const id = result.session.id;
			await expect(app.uow.transaction((repos) => app.sessions.transition(repos, id, 'complete'))).rejects.toBeInstanceOf(IllegalTransitionError);
			await app.uow.transaction((repos) => app.sessions.transition(repos, id, 'incomplete'));
			await expect(app.uow.transaction((repos) => app.sessions.transition(repos, id, 'inProgress'))).rejects.toBeInstanceOf(IllegalTransitionError);
			expect((await app.sessions.get(alice, id)).session.status).toBe('incomplete');
			expect(await app.uow.repos.outbox.listForSession(id)).toHaveLength(2);
		});

		it('rolls the status back when a later step of the same transaction fails', async () => {
			const { result } = await app.sessions.create(alice, createBody());
			const id = result.session.id;
			await expect(
				app.uow.transaction(async (repos) => {
					await app.sessions.transition(repos, id, 'inProgress');
					throw new Error('boom');
				})
			).rejects.toThrow('boom');
			expect((await app.sessions.get(alice, id)).session.status).toBe('created');
			expect(await app.uow.repos.outbox.listForSession(id)).toHaveLength(1);
		});
	});

	describe('listing', () => {
		let carol: ApiPrincipal;
		const ids: string[] = [];
		beforeAll(async () => {
			carol = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('Carol'), 'test')).key))!;
			for (let i = 0; i < 25; i++) {
				const { result } = await app.sessions.create(carol, createBody({ clientReferenceId: `ref-${i % 5}`, flowId: i % 2 ? 'odd' : 'even', metadata: { customer: `Customer ${i}`, tier: i < 5 ? 'vip-gold' : 'std' } }));
				ids.push(result.session.id);
			}
			// A few move on, so status and finishedAt sorting have something to sort.
			for (const id of ids.slice(0, 6)) await app.uow.transaction((repos) => app.sessions.transition(repos, id, 'inProgress'));
			for (const id of ids.slice(0, 3)) await app.uow.transaction((repos) => app.sessions.transition(repos, id, 'complete'));
		});

		async function pageAll(raw: Record<string, string>) {
			const seen: string[] = [];
			let cursor: string | undefined;
			for (let guard = 0; guard < 50; guard++) {
				const page = await app.sessions.list(carol, q({ ...raw, ...(cursor ? { cursor } : {}) }));
				seen.push(...page.sessions.map((s) => s.id));
				if (!page.hasMore) {
					expect(page.nextCursor).toBeUndefined();
					return seen;
				}
				cursor = page.nextCursor;
			}
			throw new Error('did not finish');
		}

		it('defaults to 20 newest first and pages through every session exactly once', async () => {
			const first = await app.sessions.list(carol, q());
			expect(first.sessions).toHaveLength(20);
			expect(first.hasMore).toBe(true);
			expect(first.sessions[0].id).toBe(ids[24]);
			expect(first.totalCount).toBeUndefined();
			expect(await pageAll({ limit: '7' })).toEqual([...ids].reverse());
			expect(await pageAll({ limit: '4', sortOrder: 'asc' })).toEqual(ids);
		});

		it('lists each session as GET /sessions/{id} shows it, times as numbers, without a report', async () => {
			// The list maps the driver's raw rows itself (bigint arrives as text from node-postgres).
			const listed = await app.sessions.list(carol, q({ limit: '100' }));
			for (const id of [ids[0], ids[4], ids[20]]) {
				const one = (await app.sessions.get(carol, id)).session;
				const { report: _report, ...summary } = one;
				expect(listed.sessions.find((s) => s.id === id)).toStrictEqual(summary);
			}
			const done = listed.sessions.find((s) => s.id === ids[0])!;
			expect([typeof done.createdAt, typeof done.startedAt, typeof done.finishedAt]).toEqual(['number', 'number', 'number']);
			expect(listed.sessions.find((s) => s.id === ids[20])).not.toHaveProperty('startedAt');
		});

		it('sorts by status in lifecycle order and by finishedAt', async () => {
			const byStatus = await pageAll({ limit: '3', sortBy: 'status', sortOrder: 'asc' });
			const statuses = await Promise.all(byStatus.map(async (id) => (await app.sessions.get(carol, id)).session.status));
			expect(statuses.slice(0, 19).every((s) => s === 'created')).toBe(true);
			expect(statuses.slice(19, 22)).toEqual(['inProgress', 'inProgress', 'inProgress']);
			expect(statuses.slice(22)).toEqual(['complete', 'complete', 'complete']);
			const byFinished = await app.sessions.list(carol, q({ sortBy: 'finishedAt', limit: '3' }));
			expect(byFinished.sessions.map((s) => s.id)).toEqual([ids[2], ids[1], ids[0]]);
		});

		it('filters by clientReferenceId, flowId, status, time window and search, with a total count', async () => {
			const byRef = await app.sessions.list(carol, q({ clientReferenceId: 'ref-3', includeTotalCount: 'true' }));
			expect(byRef.totalCount).toBe(5);
			expect(byRef.sessions.every((s) => s.settings.clientReferenceId === 'ref-3')).toBe(true);
			expect((await app.sessions.list(carol, q({ flowId: 'odd', limit: '100' }))).sessions).toHaveLength(12);
			const open = await app.sessions.list(carol, q({ status: 'inProgress,complete', limit: '100' }));
			expect(open.sessions).toHaveLength(6);
			const created = (await app.sessions.get(carol, ids[10])).session.createdAt;
			const window = await app.sessions.list(carol, q({ createdAfter: String(created), createdBefore: String(created + 10_000), limit: '100' }));
			expect(window.sessions.map((s) => s.id)).toEqual(ids.slice(11).reverse());
			// With a hyphen, as no session id holds one: a bare `VIP` also matched an id that happened to
			// contain `vIp` (CI saw 6 for 5), since search looks at ids too.
			expect((await app.sessions.list(carol, q({ search: 'VIP-gold', includeTotalCount: 'true' }))).totalCount).toBe(5);
			expect((await app.sessions.list(carol, q({ search: 'customer 1', includeTotalCount: 'true' }))).totalCount).toBe(11);
			expect((await app.sessions.list(carol, q({ search: ids[7] }))).sessions.map((s) => s.id)).toEqual([ids[7]]);
			expect((await app.sessions.list(carol, q({ search: '100%_' }))).sessions).toEqual([]);
		});

		it('never skips or repeats a session while others are being created', async () => {
			const seen: string[] = [];
			let cursor: string | undefined;
			let created = 0;
			for (;;) {
				const page = await app.sessions.list(carol, q({ limit: '5', ...(cursor ? { cursor } : {}) }));
				seen.push(...page.sessions.map((s) => s.id));
				// Sessions created mid-way are newer than the cursor and land before it.
				await Promise.all([0, 1].map(() => app.sessions.create(carol, createBody({ clientReferenceId: 'concurrent' }))));
				created += 2;
				if (!page.hasMore) break;
				cursor = page.nextCursor;
			}
			expect(created).toBeGreaterThan(4);
			expect(new Set(seen).size).toBe(seen.length);
			expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
		});

		it('rejects a tampered cursor and a cursor used with another sort', async () => {
			const page = await app.sessions.list(carol, q({ limit: '2' }));
			await expectApiError(app.sessions.list(carol, q({ cursor: 'garbage!' })), 'validation_error', 'not a cursor');
			await expectApiError(app.sessions.list(carol, q({ cursor: page.nextCursor!, sortOrder: 'asc' })), 'validation_error', 'sortBy=createdAt&sortOrder=desc');
		});

		it('limit=0 returns no sessions but says whether there are some', async () => {
			const page = await app.sessions.list(carol, q({ limit: '0', includeTotalCount: 'true' }));
			expect(page.sessions).toEqual([]);
			expect(page.hasMore).toBe(true);
			expect(page.totalCount).toBeGreaterThan(25);
		});
	});
});

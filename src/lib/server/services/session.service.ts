import { ApiError, notFound, validationError } from '#lib/domain/errors.ts';
import { modulesToFlow } from '#lib/domain/flow/modules-to-flow.ts';
import { summariseFlowIssues, validateFlow } from '#lib/domain/flow/validate-flow.ts';
import type { ListSessionsQuery } from '#lib/domain/session/list-query.schema.ts';
import type { FlowNode } from '#lib/domain/flow/flow.schema.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import type { ApiSession, ClientSecret, ListSessionsResponse, SessionReport, SessionWithSecret } from '#lib/domain/session/session.schema.ts';
import { assertTransition, type SessionStatus } from '#lib/domain/session/session-status.ts';
import { createSessionRequestSchema, type CreateSessionRequest, type SessionSettings } from '#lib/domain/session/settings.schema.ts';
import { formatZodIssues } from '#lib/domain/zod-issues.ts';
import type { ServerKeys } from '../crypto.ts';
import { newId, randomBase62, sha256Hex } from '../crypto.ts';
import type { ApiPrincipal } from '../repositories/account.repository.ts';
import type { UnitOfWork, Repos } from '../repositories/index.ts';
import type { ListCursor, NewSession, SessionChanges, SessionSummary } from '../repositories/session.repository.ts';
import { recordEvent } from './event.service.ts';

export const API_VERSION = '1.0.18';

/** How long an Idempotency-Key of `POST /sessions` is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** Builds the extra parts of a session's report (transcript, node reports…): ReportService.build. */
export type ReportBuilder = (session: Session) => Promise<SessionReport | undefined>;

export interface SessionServiceDeps {
	uow: UnitOfWork;
	keys: ServerKeys;
	now: () => number;
	publicBaseUrl: string;
	clientSecretTtlMs: number;
	/** Without one (a bare service in a test), a report has the language and an empty transcript. */
	reportBuilder?: ReportBuilder;
	/** The languages a create may name (CatalogueService.enabledLangIds, cached); default: read the store. */
	enabledLangs?: () => Promise<ReadonlySet<string>>;
}

const bareReport: ReportBuilder = async (session) => (session.status === 'created' ? undefined : { transcript: [], ...(session.lang ? { lang: session.lang as SessionReport['lang'] } : {}) });

export class SessionService {
	private readonly reportBuilder: ReportBuilder;

	constructor(private readonly deps: SessionServiceDeps) {
		this.reportBuilder = deps.reportBuilder ?? bareReport;
	}

	/**
	 * `POST /sessions`: validates settings and flow, then writes the session, its client secret and
	 * the `session.status` event in one transaction. With an idempotency key, a retry with the same
	 * body returns the first result; the same key with another body is refused.
	 */
	async create(principal: ApiPrincipal, body: unknown, idempotencyKey?: string): Promise<{ result: SessionWithSecret; replayed: boolean }> {
		const request = this.parseRequest(body);
		const flow = this.effectiveFlow(request);
		await this.checkCatalogue(request);

		const now = this.deps.now();
		const id = newId('ses');
		const secret = `cs_${randomBase62(32)}`;
		// The settings as sent, less flowId (a column of its own); a sent flow keeps its place, now
		// typed as the nodes validateFlow accepted.
		const { flowId: _flowId, ...sent } = request;
		const { flow: _sentFlow, ...withoutFlow } = sent;
		const settings: SessionSettings = request.flow ? { ...sent, flow } : withoutFlow;
		const flowId = request.flowId ?? `flow_${sha256Hex(canonicalJson(flow)).slice(0, 20)}`;
		const newSession: NewSession = {
			id,
			accountId: principal.accountId,
			env: principal.env,
			status: 'created',
			createdAt: now,
			updatedAt: now,
			clientReferenceId: request.clientReferenceId,
			flowId,
			settings,
			flow,
			searchText: searchTextOf(id, request),
			version: API_VERSION
		};
		const secretRow = {
			sessionId: id,
			hash: sha256Hex(secret),
			sealed: this.deps.keys.seal(secret),
			createdAt: now,
			expireAt: now + this.deps.clientSecretTtlMs
		};
		const requestHash = sha256Hex(canonicalJson(body));
		const result: SessionWithSecret = { session: await this.toApiSession({ ...notStarted, ...newSession }), clientSecret: this.toApiSecret(secretRow, secret) };
		// One statement writes the session, its secret, its event and the key's claim with the
		// response it will replay (the response is known before the write: nothing in it comes from
		// the store), so a create is one round trip and one commit.
		const created = await this.deps.uow.repos.sessions.create({
			session: newSession,
			secret: secretRow,
			event: { id: newId('evt'), type: 'session.status', sessionId: id, accountId: principal.accountId, env: principal.env, createdAt: now },
			idempotency: idempotencyKey
				? { key: idempotencyKey, requestHash, response: { session: result.session, clientSecret: { createdAt: result.clientSecret.createdAt, expireAt: result.clientSecret.expireAt } } }
				: undefined
		});
		if (created) return { result, replayed: false };
		return { result: await this.replay(this.deps.uow.repos, principal, idempotencyKey!, requestHash), replayed: true };
	}

	private async replay(repos: Repos, principal: ApiPrincipal, key: string, requestHash: string): Promise<SessionWithSecret> {
		const stored = await repos.idempotency.find(principal.accountId, principal.env, key);
		if (!stored || !stored.session) {
			throw new ApiError('validation_error', 'A request with this Idempotency-Key is still being processed; retry shortly', { code: 'conflict', status: 409 });
		}
		if (stored.requestHash !== requestHash) {
			throw validationError('This Idempotency-Key was already used with a different request body', 'idempotency_key_reused', 409);
		}
		const found = await repos.sessions.findOwned(principal.accountId, principal.env, stored.sessionId);
		if (!found) throw notFound();
		const secret = this.deps.keys.unseal(found.secret.sealed);
		return { session: stored.session, clientSecret: this.toApiSecret(found.secret, secret) };
	}

	/** `GET /sessions/{id}`: the session with its report, and its client secret. */
	async get(principal: ApiPrincipal, id: string): Promise<SessionWithSecret> {
		// Ids are `ses_` and base62: anything else (a %00 in the path, say) cannot exist, and the store need not be asked.
		if (!/^[A-Za-z0-9_]{1,64}$/.test(id)) throw notFound();
		const found = await this.deps.uow.repos.sessions.findOwned(principal.accountId, principal.env, id);
		if (!found) throw notFound();
		return {
			session: await this.toApiSession(found.session, { withReport: true }),
			clientSecret: this.toApiSecret(found.secret, this.deps.keys.unseal(found.secret.sealed))
		};
	}

	/** `GET /sessions`: keyset-paginated, filtered, sorted. Reports are left out of list items. */
	async list(principal: ApiPrincipal, query: ListSessionsQuery): Promise<ListSessionsResponse> {
		const repo = this.deps.uow.repos.sessions;
		const cursor = query.cursor ? decodeCursor(query.cursor, query) : null;
		const rows = await repo.list(principal.accountId, principal.env, query, cursor, query.limit + 1);
		const page = rows.slice(0, query.limit);
		const hasMore = rows.length > query.limit;
		const last = page[page.length - 1];
		const response: ListSessionsResponse = {
			sessions: page.map((row) => apiSummary(row)),
			hasMore
		};
		if (hasMore && last) {
			response.nextCursor = encodeCursor({ sortBy: query.sortBy, sortOrder: query.sortOrder, key: repo.sortKeyOf(last, query.sortBy), id: last.id });
		} else if (hasMore && query.cursor) {
			response.nextCursor = query.cursor; // limit=0: the position does not move
		}
		if (query.includeTotalCount) response.totalCount = await repo.count(principal.accountId, principal.env, query);
		return response;
	}

	/** Forgets Idempotency-Keys older than IDEMPOTENCY_TTL_MS (the `idempotency-keys-expiry` job). */
	async expireIdempotencyKeys(): Promise<number> {
		return this.deps.uow.repos.idempotency.deleteOlderThan(this.deps.now() - IDEMPOTENCY_TTL_MS);
	}

	/**
	 * Moves a session along its lifecycle inside the caller's transaction, writing the
	 * `session.status` event with it. Illegal moves throw; callers decide what the user sees.
	 */
	async transition(repos: Repos, sessionId: string, to: SessionStatus, extra: Pick<SessionChanges, 'lang' | 'currentNodeId' | 'step'> = {}): Promise<Session> {
		const session = await repos.sessions.lockById(sessionId);
		if (!session) throw notFound();
		assertTransition(session.status, to);
		const at = this.deps.now();
		const changes: SessionChanges = { status: to, updatedAt: at, lastActivityAt: at, ...extra };
		if (to === 'inProgress') changes.startedAt = at;
		if (to === 'complete' || to === 'incomplete') {
			changes.finishedAt = at;
			changes.currentNodeId = null;
		}
		await repos.sessions.update(sessionId, changes);
		await recordEvent(repos, { type: 'session.status', sessionId, accountId: session.accountId, env: session.env, at });
		return { ...session, ...changes };
	}

	async toApiSession(session: Session, options: { withReport?: boolean } = {}): Promise<ApiSession> {
		const api = apiSummary(session);
		if (options.withReport) {
			const report = await this.reportBuilder(session);
			if (report) api.report = report;
		}
		return api;
	}

	toApiSecret(row: { createdAt: number; expireAt: number }, secret: string): ClientSecret {
		return { secret, createdAt: row.createdAt, expireAt: row.expireAt, url: hostedUrl(this.deps.publicBaseUrl, secret) };
	}

	private parseRequest(body: unknown): CreateSessionRequest {
		if (body === null || typeof body !== 'object' || Array.isArray(body)) {
			throw validationError('The request body must be a JSON object', 'invalid_settings');
		}
		const parsed = createSessionRequestSchema.safeParse(body);
		if (!parsed.success) throw validationError(formatZodIssues(parsed.error.issues), 'invalid_settings');
		return parsed.data;
	}

	private effectiveFlow(request: CreateSessionRequest): FlowNode[] {
		const flow = request.flow ?? modulesToFlow(request.modules ?? []);
		const result = validateFlow(flow);
		if (!result.ok) {
			const source = request.flow ? '' : ' (converted from modules)';
			throw validationError(`Invalid flow${source}: ${summariseFlowIssues(result.issues)}`, 'invalid_flow');
		}
		// Stored as sent, not as parsed: the node schemas are loose (a builder's own keys are kept)
		// and add no defaults, so what validateFlow accepted is a FlowNode array as it stands.
		return flow as FlowNode[];
	}

	private async checkCatalogue(request: CreateSessionRequest): Promise<void> {
		const repos = this.deps.uow.repos;
		if (request.avatarId) {
			const avatar = await repos.catalogue.findAvatar(request.avatarId);
			if (!avatar || avatar.removedAt !== null) {
				const ids = (await repos.catalogue.listAvatars()).map((a) => a.id);
				throw validationError(`'avatarId' must name an avatar of GET /avatars (one of ${ids.join(', ')}); got '${request.avatarId}'`, 'invalid_settings');
			}
		}
		const wanted = [...(request.langs ?? []), ...(request.defaultLang ? [request.defaultLang] : [])];
		if (wanted.length) {
			const enabled = this.deps.enabledLangs ? await this.deps.enabledLangs() : new Set((await repos.catalogue.listLangs()).map((l) => l.id));
			const off = wanted.filter((l) => !enabled.has(l));
			if (off.length) throw validationError(`Languages not offered by GET /langs: ${[...new Set(off)].join(', ')}`, 'invalid_settings');
		}
	}
}

/** An API session without its report: a list item, or the start of a full one. */
function apiSummary(session: SessionSummary): ApiSession {
	const api: ApiSession = {
		id: session.id,
		createdAt: session.createdAt,
		status: session.status,
		settings: session.settings,
		version: session.version,
		flowId: session.flowId
	};
	if (session.startedAt !== null) api.startedAt = session.startedAt;
	if (session.finishedAt !== null) api.finishedAt = session.finishedAt;
	return api;
}

/** What a just-created session holds besides what `create` writes. */
const notStarted = { startedAt: null, finishedAt: null, lastActivityAt: null, lang: null, currentNodeId: null, step: 0, data: {}, location: null, device: null, consent: null } satisfies Partial<Session>;

export const hostedUrl = (base: string, secret: string) => `${base}/verify?cs=${encodeURIComponent(secret)}`;

/** Lower-cased text `search` matches: the id, the client reference and every metadata value. */
function searchTextOf(id: string, request: CreateSessionRequest): string {
	const values: string[] = [id, request.clientReferenceId];
	const walk = (value: unknown) => {
		if (value === null || value === undefined) return;
		if (typeof value === 'object') for (const v of Object.values(value)) walk(v);
		else values.push(String(value));
	};
	walk(request.metadata);
	return values.join('\n').toLowerCase().slice(0, 100_000);
}

/** JSON with sorted keys, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(value, (_key, v) =>
		v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v
	);
}

export function encodeCursor(cursor: ListCursor): string {
	return Buffer.from(JSON.stringify([cursor.sortBy, cursor.sortOrder, cursor.key, cursor.id])).toString('base64url');
}

export function decodeCursor(value: string, query: ListSessionsQuery): ListCursor {
	let parsed: unknown;
	try {
		parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
	} catch {
		parsed = null;
	}
	if (
		!Array.isArray(parsed) ||
		parsed.length !== 4 ||
		typeof parsed[2] !== 'number' ||
		!Number.isSafeInteger(parsed[2]) ||
		typeof parsed[3] !== 'string' ||
		parsed[3].length > 64
	) {
		throw validationError("'cursor' is not a cursor this API returned", 'invalid_cursor');
	}
	if (parsed[0] !== query.sortBy || parsed[1] !== query.sortOrder) {
		throw validationError(`'cursor' was made for sortBy=${String(parsed[0])}&sortOrder=${String(parsed[1])}; send the same sort with it`, 'invalid_cursor');
	}
	return { sortBy: query.sortBy, sortOrder: query.sortOrder, key: parsed[2], id: parsed[3] };
}

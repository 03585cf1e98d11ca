import { and, asc, count, eq, gt, ilike, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { STATUS_RANK, type SessionStatus } from '#lib/domain/session/session-status.ts';
import type { ListSessionsQuery } from '#lib/domain/session/list-query.schema.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import type { DbOrTx } from '../db/store.ts';
import { clientSecrets, sessions } from '../db/schema.ts';
import type { Env } from './account.repository.ts';
import type { IdempotentResponse } from './idempotency.repository.ts';
import type { NewOutboxEvent } from './outbox.repository.ts';

export type SessionRow = typeof sessions.$inferSelect;

/** A session's client secret as stored: hashed to be found, sealed to be shown again. */
export interface ClientSecretRecord {
	sessionId: string;
	/** SHA-256 of the secret: how a page request finds its session. */
	hash: string;
	/** The secret sealed with the server key, because GET /sessions/{id} returns it. */
	sealed: string;
	createdAt: number;
	expireAt: number;
	/** First open: from then on only the page token of that browser works. */
	openedAt: number | null;
	/** Hash of the opening tab's nonce: a retried open whose answer was lost gets a token again. */
	openNonceHash: string | null;
}

/** What creating a session stores; the rest starts empty. `searchText` is what `search` matches. */
export type NewSession = Pick<Session, 'id' | 'accountId' | 'env' | 'status' | 'createdAt' | 'updatedAt' | 'clientReferenceId' | 'flowId' | 'settings' | 'flow' | 'version'> & {
	searchText: string;
};

/** A change to a session; the sort keys that follow from it (status rank, finish time) are kept in step here. */
export type SessionChanges = Partial<Omit<Session, 'id' | 'accountId' | 'env' | 'createdAt'>>;

/**
 * The one place a row becomes a `Session`: the jsonb columns are typed by the schema (they are
 * written only from checked values), and the columns that exist for sorting and search stay here.
 */
function toSession(row: SessionRow): Session {
	return {
		id: row.id,
		accountId: row.accountId,
		env: row.env,
		status: row.status,
		createdAt: row.createdAt,
		startedAt: row.startedAt,
		finishedAt: row.finishedAt,
		updatedAt: row.updatedAt,
		lastActivityAt: row.lastActivityAt,
		clientReferenceId: row.clientReferenceId,
		flowId: row.flowId,
		settings: row.settings,
		flow: row.flow,
		lang: row.lang,
		currentNodeId: row.currentNodeId,
		step: row.step,
		data: row.data,
		location: row.location,
		device: row.device,
		consent: row.consent,
		version: row.version
	};
}

/** The stored columns of a change: `sortBy=status` and `sortBy=finishedAt` read the derived keys. */
function toColumns(changes: SessionChanges): Partial<typeof sessions.$inferInsert> {
	const columns: Partial<typeof sessions.$inferInsert> = { ...changes };
	if (changes.status !== undefined) columns.statusRank = STATUS_RANK[changes.status];
	if (changes.finishedAt !== undefined) columns.finishedSort = changes.finishedAt ?? 0;
	return columns;
}

/**
 * A session as `GET /sessions` lists it: what an API session shows without its report. The list
 * reads these columns only; the flow (a copy of settings.flow, or the converted modules), the
 * runner's data and the search text would double what a page of 100 parses and throws away.
 */
export type SessionSummary = Pick<Session, 'id' | 'status' | 'createdAt' | 'startedAt' | 'finishedAt' | 'settings' | 'version' | 'flowId'>;

/** Where a page of `GET /sessions` resumes: the sort key and id of the last row returned. */
export interface ListCursor {
	sortBy: ListSessionsQuery['sortBy'];
	sortOrder: ListSessionsQuery['sortOrder'];
	key: number;
	id: string;
}

const SORT_COLUMNS = {
	createdAt: sessions.createdAt,
	status: sessions.statusRank,
	finishedAt: sessions.finishedSort
} as const;

/** A summary's columns as the drivers return them: bigint as text (node-postgres), number or bigint (PGlite). */
interface SummaryRow {
	id: string;
	status: Session['status'];
	created_at: string | number | bigint;
	started_at: string | number | bigint | null;
	finished_at: string | number | bigint | null;
	settings: Session['settings'] | string;
	version: string;
	flow_id: string;
}

const msOrNull = (v: string | number | bigint | null) => (v === null ? null : Number(v));

function toSummary(r: SummaryRow): SessionSummary {
	return {
		id: r.id,
		status: r.status,
		createdAt: Number(r.created_at),
		startedAt: msOrNull(r.started_at),
		finishedAt: msOrNull(r.finished_at),
		// jsonb arrives parsed from both drivers; text only if a driver were set up without parsers.
		settings: typeof r.settings === 'string' ? (JSON.parse(r.settings) as Session['settings']) : r.settings,
		version: r.version,
		flowId: r.flow_id
	};
}

/** What `POST /sessions` writes, in one statement (SessionRepository.create). */
export interface SessionCreation {
	session: NewSession;
	secret: { sessionId: string; hash: string; sealed: string; createdAt: number; expireAt: number };
	/** The `session.status` event of the creation. */
	event: NewOutboxEvent;
	/** With an Idempotency-Key: the key's claim, holding the response it will be replayed with. */
	idempotency?: { key: string; requestHash: string; response: IdempotentResponse };
}

export class SessionRepository {
	constructor(private readonly db: DbOrTx) {}

	/**
	 * Writes a new session, its client secret and its outbox event (and claims the Idempotency-Key)
	 * in one statement, hence one round trip and one atomic commit without an explicit transaction.
	 * With a key already claimed nothing is written and it returns false: the caller replays. On
	 * PostgreSQL a concurrent claim of the same key waits on the key's unique index until the first
	 * commits, then finds it taken, so one key makes one session.
	 */
	async create(c: SessionCreation): Promise<boolean> {
		const s = c.session;
		const json = (v: unknown) => JSON.stringify(v);
		const claim = c.idempotency
			? sql`claim as (
				insert into idempotency_keys (account_id, env, key, request_hash, session_id, response, created_at)
				values (${s.accountId}, ${s.env}, ${c.idempotency.key}, ${c.idempotency.requestHash}, ${s.id}, ${json(c.idempotency.response)}::jsonb, ${s.createdAt}::bigint)
				on conflict do nothing
				returning 1
			), `
			: sql``;
		const result = await this.db.execute(sql`
			with ${claim}s as (
				insert into sessions (id, account_id, env, status, status_rank, created_at, updated_at, client_reference_id, flow_id, settings, flow, search_text, version)
				select ${s.id}::text, ${s.accountId}::text, ${s.env}::text, ${s.status}::text, ${STATUS_RANK[s.status]}::smallint, ${s.createdAt}::bigint, ${s.updatedAt}::bigint,
				       ${s.clientReferenceId}::text, ${s.flowId}::text, ${json(s.settings)}::jsonb, ${json(s.flow)}::jsonb, ${s.searchText}::text, ${s.version}::text
				${c.idempotency ? sql`where exists (select 1 from claim)` : sql``}
				returning id
			), secret as (
				insert into client_secrets (session_id, hash, sealed, created_at, expire_at)
				select id, ${c.secret.hash}::text, ${c.secret.sealed}::text, ${c.secret.createdAt}::bigint, ${c.secret.expireAt}::bigint from s
			), event as (
				insert into outbox_events (id, account_id, env, type, session_id, created_at, payload)
				select ${c.event.id}::text, ${c.event.accountId}::text, ${c.event.env}::text, ${c.event.type}::text, id, ${c.event.createdAt}::bigint, ${json(c.event.payload ?? {})}::jsonb from s
			)
			select count(*)::int as created from s`);
		// Raw results differ by driver (node-postgres QueryResult, PGlite Results); both carry `rows`.
		const [row] = (result as { rows: { created: number }[] }).rows;
		return Number(row?.created ?? 0) > 0;
	}

	async findOwned(accountId: string, env: Env, id: string): Promise<{ session: Session; secret: ClientSecretRecord } | null> {
		const [row] = await this.db
			.select({ session: sessions, secret: clientSecrets })
			.from(sessions)
			.innerJoin(clientSecrets, eq(clientSecrets.sessionId, sessions.id))
			.where(and(eq(sessions.id, id), eq(sessions.accountId, accountId), eq(sessions.env, env)));
		return row ? { session: toSession(row.session), secret: row.secret } : null;
	}

	async findById(id: string): Promise<Session | null> {
		const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id));
		return row ? toSession(row) : null;
	}

	/** Locks the row for the rest of the transaction: status changes are serialised per session. */
	async lockById(id: string): Promise<Session | null> {
		const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id)).for('update');
		return row ? toSession(row) : null;
	}

	async update(id: string, changes: SessionChanges): Promise<void> {
		await this.db.update(sessions).set(toColumns(changes)).where(eq(sessions.id, id));
	}

	async findSecretsBySessionIds(ids: string[]): Promise<Map<string, ClientSecretRecord>> {
		if (!ids.length) return new Map();
		const rows = await this.db.select().from(clientSecrets).where(inArray(clientSecrets.sessionId, ids));
		return new Map(rows.map((r) => [r.sessionId, r]));
	}

	async findSecretByHash(hash: string): Promise<ClientSecretRecord | null> {
		const [row] = await this.db.select().from(clientSecrets).where(eq(clientSecrets.hash, hash));
		return row ?? null;
	}

	async updateSecret(sessionId: string, values: Partial<typeof clientSecrets.$inferInsert>): Promise<void> {
		await this.db.update(clientSecrets).set(values).where(eq(clientSecrets.sessionId, sessionId));
	}

	/**
	 * One page of the list in keyset order: `(sortKey, id)` strictly after the cursor, so rows
	 * inserted while a client pages through neither shift nor repeat what it has seen.
	 */
	async list(
		accountId: string,
		env: Env,
		query: ListSessionsQuery,
		cursor: ListCursor | null,
		limit: number
	): Promise<SessionSummary[]> {
		const column = SORT_COLUMNS[query.sortBy];
		const where = [...this.filters(accountId, env, query)];
		if (cursor) {
			// Row-value comparison matches the composite indexes (account, env, key, id).
			where.push(query.sortOrder === 'desc' ? sql`(${column}, ${sessions.id}) < (${cursor.key}, ${cursor.id})` : sql`(${column}, ${sessions.id}) > (${cursor.key}, ${cursor.id})`);
		}
		const order = query.sortOrder === 'desc' ? sql`${column} desc, ${sessions.id} desc` : sql`${column} asc, ${sessions.id} asc`;
		// Raw rows, mapped here: drizzle's select mapped each of a page's 800 values through its column
		// (14 % of the server's CPU under GET /sessions?limit=100, bench/api.bench.ts profile).
		const result = await this.db.execute(sql`
			select id, status, created_at, started_at, finished_at, settings, version, flow_id from ${sessions}
			where ${and(...where)} order by ${order} limit ${limit}`);
		return (result as { rows: SummaryRow[] }).rows.map(toSummary);
	}

	async count(accountId: string, env: Env, query: ListSessionsQuery): Promise<number> {
		const [row] = await this.db
			.select({ n: count() })
			.from(sessions)
			.where(and(...this.filters(accountId, env, query)));
		return Number(row?.n ?? 0);
	}

	/**
	 * Open sessions past their link's expiry or idle too long, locked for this transaction;
	 * `SKIP LOCKED` lets several instances sweep at once without taking the same rows.
	 */
	async claimStale(now: number, idleBefore: number, limit: number): Promise<{ id: string; reason: 'expired' | 'inactive' }[]> {
		const rows = await this.db
			.select({ id: sessions.id, expireAt: clientSecrets.expireAt })
			.from(sessions)
			.innerJoin(clientSecrets, eq(clientSecrets.sessionId, sessions.id))
			.where(
				and(
					inArray(sessions.status, ['created', 'inProgress']),
					or(lte(clientSecrets.expireAt, now), and(eq(sessions.status, 'inProgress'), lte(sessions.lastActivityAt, idleBefore)))
				)
			)
			.orderBy(asc(sessions.createdAt))
			.limit(limit)
			.for('update', { of: sessions, skipLocked: true });
		return rows.map((r) => ({ id: r.id, reason: r.expireAt <= now ? 'expired' : 'inactive' }));
	}

	/** The key a cursor resumes from: what `status_rank` and `finished_sort` hold for this session. */
	sortKeyOf(session: Pick<Session, 'createdAt' | 'status' | 'finishedAt'>, sortBy: ListSessionsQuery['sortBy']): number {
		return sortBy === 'createdAt' ? session.createdAt : sortBy === 'status' ? STATUS_RANK[session.status] : (session.finishedAt ?? 0);
	}

	private *filters(accountId: string, env: Env, query: ListSessionsQuery): Generator<SQL> {
		yield eq(sessions.accountId, accountId);
		yield eq(sessions.env, env);
		if (query.flowId) yield eq(sessions.flowId, query.flowId);
		if (query.clientReferenceId) yield eq(sessions.clientReferenceId, query.clientReferenceId);
		if (query.status) yield query.status.length === 1 ? eq(sessions.status, query.status[0]) : inArray(sessions.status, query.status as SessionStatus[]);
		if (query.createdAfter !== undefined) yield gt(sessions.createdAt, query.createdAfter);
		if (query.createdBefore !== undefined) yield lt(sessions.createdAt, query.createdBefore);
		if (query.search) {
			const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
			yield or(ilike(sessions.searchText, pattern), eq(sessions.id, query.search))!;
		}
	}
}

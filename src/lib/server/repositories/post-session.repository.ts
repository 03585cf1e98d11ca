import { and, eq, sql } from 'drizzle-orm';
import type { SessionReport, VideoAIAnalysis } from '#lib/domain/session/session.schema.ts';
import type { DbOrTx } from '../db/store.ts';
import { sessionAnalyses, sessionFinalizations, type FinalizationState } from '../db/schema.ts';

/** A finished session's post-session work: where it stands and which steps are done. */
export interface Finalization {
	sessionId: string;
	state: FinalizationState;
	/** When it is due; while claimed, when the claim's lease runs out. */
	dueAt: number;
	attempts: number;
	/** Names of the steps already done, so a retry after a crash resumes where it stopped. */
	steps: string[];
	lastError: string | null;
	createdAt: number;
	doneAt: number | null;
}

/** What each post-session analysis stores: the report's `videoAIAnalysis` and `aiAnalysis`. */
export interface AnalysisResults {
	video: VideoAIAnalysis;
	screenshot: NonNullable<SessionReport['aiAnalysis']>;
}
export type AnalysisKind = keyof AnalysisResults;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Post-session work queue (one row per finished session) and the analyses it stores. */
export class PostSessionRepository {
	constructor(private readonly db: DbOrTx) {}

	/** Idempotent: a session is scheduled once, whoever sees its end first. */
	async schedule(rows: { sessionId: string; dueAt: number; createdAt: number }[]): Promise<void> {
		if (rows.length) await this.db.insert(sessionFinalizations).values(rows.map((r) => ({ ...r, state: 'pending' as const }))).onConflictDoNothing();
	}

	/** Claims due work like the webhook worker does: SKIP LOCKED, and `due_at` moved on as the lease. */
	async claimDue(now: number, leaseMs: number, limit: number): Promise<Finalization[]> {
		const result = await this.db.execute(sql`
			with due as (
				select session_id from session_finalizations
				 where state = 'pending' and due_at <= ${now}
				 order by due_at
				 limit ${limit}
				 for update skip locked
			)
			update session_finalizations f
			   set due_at = ${now + leaseMs}, attempts = f.attempts + 1
			  from due where f.session_id = due.session_id
			returning f.*`);
		return rowsOf<Record<string, unknown>>(result).map((r) => ({
			sessionId: String(r.session_id),
			state: r.state as FinalizationState,
			dueAt: Number(r.due_at),
			attempts: Number(r.attempts),
			steps: (typeof r.steps === 'string' ? JSON.parse(r.steps) : r.steps) as string[],
			lastError: (r.last_error as string | null) ?? null,
			createdAt: Number(r.created_at),
			doneAt: r.done_at === null || r.done_at === undefined ? null : Number(r.done_at)
		}));
	}

	async find(sessionId: string): Promise<Finalization | null> {
		const [row] = await this.db.select().from(sessionFinalizations).where(eq(sessionFinalizations.sessionId, sessionId));
		return row ?? null;
	}

	/**
	 * Records the steps done so far (in the transaction that stores what the last step produced).
	 * The caller holds the claim, so nobody else writes the list meanwhile.
	 */
	async setSteps(sessionId: string, steps: string[]): Promise<void> {
		await this.db.update(sessionFinalizations).set({ steps }).where(eq(sessionFinalizations.sessionId, sessionId));
	}

	async finish(sessionId: string, at: number): Promise<void> {
		await this.db.update(sessionFinalizations).set({ state: 'done', doneAt: at, lastError: null }).where(eq(sessionFinalizations.sessionId, sessionId));
	}

	async retryLater(sessionId: string, dueAt: number, error: string, failed: boolean): Promise<void> {
		await this.db
			.update(sessionFinalizations)
			.set({ dueAt, lastError: error.slice(0, 2000), ...(failed ? { state: 'failed' as const } : {}) })
			.where(eq(sessionFinalizations.sessionId, sessionId));
	}

	/** Moves a pending session's due time earlier (the page sent its last video chunk). */
	async expedite(sessionId: string, dueAt: number): Promise<void> {
		await this.db
			.update(sessionFinalizations)
			.set({ dueAt: sql`least(${sessionFinalizations.dueAt}, ${dueAt})` })
			.where(and(eq(sessionFinalizations.sessionId, sessionId), eq(sessionFinalizations.state, 'pending'), eq(sessionFinalizations.attempts, 0)));
	}

	/** Each kind with its own result type: `analyses` reads them back as the report's types. */
	async saveAnalysis<K extends AnalysisKind>(sessionId: string, kind: K, result: AnalysisResults[K], at: number): Promise<void> {
		await this.db
			.insert(sessionAnalyses)
			.values({ sessionId, kind, result, createdAt: at })
			.onConflictDoUpdate({ target: [sessionAnalyses.sessionId, sessionAnalyses.kind], set: { result, createdAt: at } });
	}

	async analyses(sessionId: string): Promise<Partial<AnalysisResults>> {
		const rows = await this.db.select().from(sessionAnalyses).where(eq(sessionAnalyses.sessionId, sessionId));
		const results: Partial<AnalysisResults> = {};
		// saveAnalysis is the only writer and pairs each kind with its own result type.
		for (const r of rows) {
			if (r.kind === 'video') results.video = r.result as VideoAIAnalysis;
			else if (r.kind === 'screenshot') results.screenshot = r.result as AnalysisResults['screenshot'];
		}
		return results;
	}
}

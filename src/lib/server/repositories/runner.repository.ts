import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { handoffs, nodeReports, nodeSubmissions, otpCodes, pageTokens, phrases, sandboxMessages } from '../db/schema.ts';

export type PageTokenRow = typeof pageTokens.$inferSelect;
export type PhraseRow = typeof phrases.$inferSelect;
export type NodeReportRow = typeof nodeReports.$inferSelect;
export type OtpRow = typeof otpCodes.$inferSelect;
export type SandboxMessageRow = typeof sandboxMessages.$inferSelect;
export type HandoffRow = typeof handoffs.$inferSelect;

/** Storage of the hosted page's runner: tokens, handoffs, transcript, node reports, passcodes. */
export class RunnerRepository {
	constructor(private readonly db: DbOrTx) {}

	async insertPageToken(row: typeof pageTokens.$inferInsert): Promise<void> {
		await this.db.insert(pageTokens).values(row);
	}

	async findPageToken(hash: string): Promise<PageTokenRow | null> {
		const [row] = await this.db.select().from(pageTokens).where(eq(pageTokens.hash, hash));
		return row ?? null;
	}

	/** After a handoff the old devices only watch. */
	async demoteOtherTokens(sessionId: string, keepHash: string): Promise<void> {
		await this.db
			.update(pageTokens)
			.set({ role: 'observer' })
			.where(and(eq(pageTokens.sessionId, sessionId), sql`${pageTokens.hash} <> ${keepHash}`));
	}

	async insertHandoff(row: typeof handoffs.$inferInsert): Promise<void> {
		await this.db.insert(handoffs).values(row);
	}

	/** Marks a handoff used if it still can be; returns its session, or null. */
	async redeemHandoff(hash: string, now: number, nonceHash: string | null = null): Promise<string | null> {
		const rows = await this.db
			.update(handoffs)
			.set({ usedAt: now, nonceHash })
			.where(and(eq(handoffs.hash, hash), isNull(handoffs.usedAt), gt(handoffs.expiresAt, now)))
			.returning({ sessionId: handoffs.sessionId });
		return rows[0]?.sessionId ?? null;
	}

	async findHandoff(hash: string): Promise<HandoffRow | null> {
		const [row] = await this.db.select().from(handoffs).where(eq(handoffs.hash, hash));
		return row ?? null;
	}

	async insertPhrase(row: typeof phrases.$inferInsert): Promise<void> {
		await this.db.insert(phrases).values(row);
	}

	async listPhrases(sessionId: string): Promise<PhraseRow[]> {
		return this.db.select().from(phrases).where(eq(phrases.sessionId, sessionId)).orderBy(asc(phrases.seq));
	}

	async insertNodeReport(row: typeof nodeReports.$inferInsert): Promise<void> {
		await this.db.insert(nodeReports).values(row);
	}

	async listNodeReports(sessionId: string): Promise<NodeReportRow[]> {
		return this.db.select().from(nodeReports).where(eq(nodeReports.sessionId, sessionId)).orderBy(asc(nodeReports.seq));
	}

	async findSubmission(sessionId: string, requestId: string) {
		const [row] = await this.db
			.select()
			.from(nodeSubmissions)
			.where(and(eq(nodeSubmissions.sessionId, sessionId), eq(nodeSubmissions.requestId, requestId)));
		return row ?? null;
	}

	async insertSubmission(row: typeof nodeSubmissions.$inferInsert): Promise<void> {
		await this.db.insert(nodeSubmissions).values(row).onConflictDoNothing();
	}

	async insertOtp(row: typeof otpCodes.$inferInsert): Promise<void> {
		await this.db.insert(otpCodes).values(row);
	}

	async latestOtp(sessionId: string, nodeId: string): Promise<OtpRow | null> {
		const [row] = await this.db
			.select()
			.from(otpCodes)
			.where(and(eq(otpCodes.sessionId, sessionId), eq(otpCodes.nodeId, nodeId)))
			.orderBy(desc(otpCodes.createdAt))
			.limit(1)
			.for('update');
		return row ?? null;
	}

	async updateOtp(id: string, values: Partial<OtpRow>): Promise<void> {
		await this.db.update(otpCodes).set(values).where(eq(otpCodes.id, id));
	}

	async insertSandboxMessage(row: typeof sandboxMessages.$inferInsert): Promise<void> {
		await this.db.insert(sandboxMessages).values(row);
	}

	async listSandboxMessages(accountId: string, sessionId?: string): Promise<SandboxMessageRow[]> {
		const where = sessionId
			? and(eq(sandboxMessages.accountId, accountId), eq(sandboxMessages.env, 'test'), eq(sandboxMessages.sessionId, sessionId))
			: and(eq(sandboxMessages.accountId, accountId), eq(sandboxMessages.env, 'test'));
		return this.db.select().from(sandboxMessages).where(where).orderBy(desc(sandboxMessages.createdAt)).limit(100);
	}
}

import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { faceTemplates } from '../db/schema.ts';
import type { Env } from './account.repository.ts';

/** What the recognition search needs of an enrolled face (the protected template stays encoded). */
export interface StoredFaceTemplate {
	seq: number;
	id: string;
	sessionId: string;
	clientReferenceId: string;
	template: Uint8Array;
	createdAt: number;
}

/** Enrolled faces of `recognition`, per account and environment. */
export class FaceTemplateRepository {
	constructor(private readonly db: DbOrTx) {}

	async insert(row: { id: string; accountId: string; env: Env; sessionId: string; clientReferenceId: string; template: Uint8Array; createdAt: number }): Promise<number> {
		const [inserted] = await this.db.insert(faceTemplates).values(row).returning({ seq: faceTemplates.seq });
		return inserted.seq;
	}

	/** Rows of the account's environment added after `afterSeq`, oldest first, at most `limit`. */
	async listSince(accountId: string, env: Env, afterSeq: number, limit = 10_000): Promise<StoredFaceTemplate[]> {
		return this.db
			.select({
				seq: faceTemplates.seq,
				id: faceTemplates.id,
				sessionId: faceTemplates.sessionId,
				clientReferenceId: faceTemplates.clientReferenceId,
				template: faceTemplates.template,
				createdAt: faceTemplates.createdAt
			})
			.from(faceTemplates)
			.where(and(eq(faceTemplates.accountId, accountId), eq(faceTemplates.env, env), gt(faceTemplates.seq, afterSeq)))
			.orderBy(asc(faceTemplates.seq))
			.limit(limit);
	}

	/** Which of `ids` still exist (another instance may have purged a session since we loaded). */
	async existing(ids: string[]): Promise<Set<string>> {
		if (!ids.length) return new Set();
		const rows = await this.db.select({ id: faceTemplates.id }).from(faceTemplates).where(inArray(faceTemplates.id, ids));
		return new Set(rows.map((r) => r.id));
	}

	async findById(id: string): Promise<StoredFaceTemplate | null> {
		const [row] = await this.db.select().from(faceTemplates).where(eq(faceTemplates.id, id));
		return row ?? null;
	}

	async countForSession(sessionId: string): Promise<number> {
		return (await this.db.select({ id: faceTemplates.id }).from(faceTemplates).where(eq(faceTemplates.sessionId, sessionId))).length;
	}

	async deleteForSession(sessionId: string): Promise<number> {
		return (await this.db.delete(faceTemplates).where(eq(faceTemplates.sessionId, sessionId)).returning({ id: faceTemplates.id })).length;
	}
}

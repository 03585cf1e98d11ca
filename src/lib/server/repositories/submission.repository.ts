import { and, eq } from 'drizzle-orm';
import type { SubmitResponse } from '#lib/domain/page/page.schema.ts';
import type { DbOrTx } from '../db/store.ts';
import { nodeSubmissions } from '../db/schema.ts';

/** The answer given to a node result, kept by the page's request id so a retried submit gets it again. */
export interface NodeSubmission {
	sessionId: string;
	requestId: string;
	step: number;
	nodeId: string;
	/** Hash of what was submitted: the same requestId with another result is refused. */
	requestHash: string;
	response: SubmitResponse;
	createdAt: number;
}

export class SubmissionRepository {
	constructor(private readonly db: DbOrTx) {}

	async find(sessionId: string, requestId: string): Promise<NodeSubmission | null> {
		const [row] = await this.db
			.select()
			.from(nodeSubmissions)
			.where(and(eq(nodeSubmissions.sessionId, sessionId), eq(nodeSubmissions.requestId, requestId)));
		return row ?? null;
	}

	async insert(submission: NodeSubmission): Promise<void> {
		await this.db.insert(nodeSubmissions).values(submission).onConflictDoNothing();
	}
}

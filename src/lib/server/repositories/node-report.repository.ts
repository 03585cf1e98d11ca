import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { nodeReports } from '../db/schema.ts';

/** One finished node as stored: what it ended with and what the server measured. */
export interface NodeReportRecord {
	sessionId: string;
	nodeId: string;
	type: string;
	outcome: string;
	/** Null when the node ended the session without moving on (the user left). */
	targetNodeId: string | null;
	createdAt: number;
	details: Record<string, unknown> | null;
}

/** Node reports, one per finished node, in the order the nodes finished. */
export class NodeReportRepository {
	constructor(private readonly db: DbOrTx) {}

	async insert(report: Omit<NodeReportRecord, 'targetNodeId' | 'details'> & Partial<Pick<NodeReportRecord, 'targetNodeId' | 'details'>>): Promise<void> {
		await this.db.insert(nodeReports).values(report);
	}

	async list(sessionId: string): Promise<NodeReportRecord[]> {
		return this.db.select().from(nodeReports).where(eq(nodeReports.sessionId, sessionId)).orderBy(asc(nodeReports.seq));
	}
}

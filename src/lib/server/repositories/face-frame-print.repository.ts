import { and, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { faceFramePrints } from '../db/schema.ts';

/** Digests of the frames each session's face nodes were sent, per account (replay detection). */
export class FaceFramePrintRepository {
	constructor(private readonly db: DbOrTx) {}

	/** How many of `digests` were sent before in another session of the account. */
	async countSeenElsewhere(accountId: string, sessionId: string, digests: Uint8Array[]): Promise<number> {
		if (!digests.length) return 0;
		const rows = await this.db
			.selectDistinct({ digest: faceFramePrints.digest })
			.from(faceFramePrints)
			.where(and(eq(faceFramePrints.accountId, accountId), inArray(faceFramePrints.digest, digests), ne(faceFramePrints.sessionId, sessionId)));
		return rows.length;
	}

	/** Records the digests for the session (one row per digest and session, whatever the retries). */
	async record(accountId: string, sessionId: string, digests: Uint8Array[], now: number): Promise<void> {
		if (!digests.length) return;
		await this.db
			.insert(faceFramePrints)
			.values(digests.map((digest) => ({ accountId, sessionId, digest, createdAt: now })))
			.onConflictDoNothing();
	}
}

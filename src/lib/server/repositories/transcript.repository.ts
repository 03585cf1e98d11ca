import { asc, eq } from 'drizzle-orm';
import type { Phrase } from '#lib/domain/session/session.schema.ts';
import type { DbOrTx } from '../db/store.ts';
import { phrases } from '../db/schema.ts';

/** A phrase as stored: the report's `Phrase`, with the node it was said on (null: before or after the flow). */
export interface TranscriptPhrase extends Phrase {
	sessionId: string;
	nodeId: string | null;
}

/** The transcript: every phrase of the avatar and of the user, in the order they were said. */
export class TranscriptRepository {
	constructor(private readonly db: DbOrTx) {}

	async insert(phrase: TranscriptPhrase): Promise<void> {
		await this.db.insert(phrases).values(phrase);
	}

	async list(sessionId: string): Promise<TranscriptPhrase[]> {
		return this.db.select().from(phrases).where(eq(phrases.sessionId, sessionId)).orderBy(asc(phrases.seq));
	}
}

import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { sandboxMessages } from '../db/schema.ts';
import type { Env } from './account.repository.ts';

/** A message not sent for real (no SMTP_URL / SMS_WEBHOOK_URL, or testMode), readable with a test key. */
export interface SandboxMessage {
	id: string;
	sessionId: string;
	accountId: string;
	env: Env;
	channel: 'email' | 'sms';
	to: string;
	subject: string | null;
	body: string;
	createdAt: number;
}

export class SandboxMessageRepository {
	constructor(private readonly db: DbOrTx) {}

	async insert(message: SandboxMessage): Promise<void> {
		await this.db.insert(sandboxMessages).values(message);
	}

	/** The newest 100 of an account's sandbox messages, of one session or all; never live ones. */
	async list(accountId: string, sessionId?: string): Promise<SandboxMessage[]> {
		const where = sessionId
			? and(eq(sandboxMessages.accountId, accountId), eq(sandboxMessages.env, 'test'), eq(sandboxMessages.sessionId, sessionId))
			: and(eq(sandboxMessages.accountId, accountId), eq(sandboxMessages.env, 'test'));
		return this.db.select().from(sandboxMessages).where(where).orderBy(desc(sandboxMessages.createdAt)).limit(100);
	}
}

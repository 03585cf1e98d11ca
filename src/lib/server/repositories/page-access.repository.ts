import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { handoffs, pageTokens } from '../db/schema.ts';

/** What the browser holds after the first open (the client secret is single use), stored hashed. */
export interface PageToken {
	hash: string;
	sessionId: string;
	/** `primary` drives the flow; `observer` follows it (a desktop after a phone handoff). */
	role: 'primary' | 'observer';
	createdAt: number;
	expiresAt: number;
	revokedAt: number | null;
}

/** A one-time, short-lived link that moves a session to another device, stored hashed. */
export interface Handoff {
	hash: string;
	sessionId: string;
	createdAt: number;
	expiresAt: number;
	usedAt: number | null;
	/** Hash of the redeeming tab's nonce (a retry after a lost answer is not "already used"). */
	nonceHash: string | null;
}

/** How the hosted page gets into a session after the client secret: page tokens and handoffs. */
export class PageAccessRepository {
	constructor(private readonly db: DbOrTx) {}

	async insertToken(token: Omit<PageToken, 'revokedAt'>): Promise<void> {
		await this.db.insert(pageTokens).values(token);
	}

	async findToken(hash: string): Promise<PageToken | null> {
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

	async insertHandoff(handoff: Pick<Handoff, 'hash' | 'sessionId' | 'createdAt' | 'expiresAt'>): Promise<void> {
		await this.db.insert(handoffs).values(handoff);
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

	async findHandoff(hash: string): Promise<Handoff | null> {
		const [row] = await this.db.select().from(handoffs).where(eq(handoffs.hash, hash));
		return row ?? null;
	}
}

import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { otpCodes } from '../db/schema.ts';

/** A one-time passcode of a two-factor node. The code itself is never stored, only its HMAC. */
export interface Passcode {
	id: string;
	sessionId: string;
	nodeId: string;
	channel: 'email' | 'sms';
	destination: string;
	/** HMAC of the code with the server key and the code id: useless without both. */
	codeHash: string;
	createdAt: number;
	expiresAt: number;
	attempts: number;
	maxAttempts: number;
	sentCount: number;
	lastSentAt: number;
	verifiedAt: number | null;
	/** Set when the attempts run out; nothing verifies afterwards. */
	lockedAt: number | null;
	deliveryError: string | null;
}

/** What can change on a passcode once issued. */
export type PasscodeChanges = Partial<Pick<Passcode, 'expiresAt' | 'attempts' | 'verifiedAt' | 'lockedAt' | 'deliveryError'>>;

export class PasscodeRepository {
	constructor(private readonly db: DbOrTx) {}

	async insert(passcode: Omit<Passcode, 'verifiedAt' | 'lockedAt' | 'deliveryError'>): Promise<void> {
		await this.db.insert(otpCodes).values(passcode);
	}

	/** The node's newest code, locked: concurrent tries of one code are counted one after another. */
	async latest(sessionId: string, nodeId: string): Promise<Passcode | null> {
		const [row] = await this.db
			.select()
			.from(otpCodes)
			.where(and(eq(otpCodes.sessionId, sessionId), eq(otpCodes.nodeId, nodeId)))
			.orderBy(desc(otpCodes.createdAt))
			.limit(1)
			.for('update');
		return row ?? null;
	}

	async update(id: string, changes: PasscodeChanges): Promise<void> {
		await this.db.update(otpCodes).set(changes).where(eq(otpCodes.id, id));
	}
}

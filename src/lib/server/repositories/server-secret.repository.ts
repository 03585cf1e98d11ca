import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { serverSecrets } from '../db/schema.ts';

/** Server-wide secrets kept in the store when SECRET_KEY is not set. */
export class ServerSecretRepository {
	constructor(private readonly db: DbOrTx) {}

	/**
	 * The secret called `name`, written with `value` if none is stored yet. Instances starting
	 * together on one database all read the one that got in first.
	 */
	async findOrCreate(name: string, value: string, at: number): Promise<string> {
		await this.db.insert(serverSecrets).values({ name, value, createdAt: at }).onConflictDoNothing();
		const [row] = await this.db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
		if (!row) throw new Error('Could not read the server secret');
		return row.value;
	}
}

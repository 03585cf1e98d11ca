import { asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { avatars, langs } from '../db/schema.ts';

export type AvatarRow = typeof avatars.$inferSelect;
export type LangRow = typeof langs.$inferSelect;

/** The avatar and language catalogues behind `GET /avatars` and `GET /langs`. */
export class CatalogueRepository {
	constructor(private readonly db: DbOrTx) {}

	async listAvatars(): Promise<AvatarRow[]> {
		return this.db.select().from(avatars).where(isNull(avatars.removedAt)).orderBy(asc(avatars.createdAt), asc(avatars.id));
	}

	async findAvatar(id: string): Promise<AvatarRow | null> {
		const [row] = await this.db.select().from(avatars).where(eq(avatars.id, id));
		return row ?? null;
	}

	async upsertAvatar(row: typeof avatars.$inferInsert): Promise<void> {
		await this.db
			.insert(avatars)
			.values(row)
			.onConflictDoUpdate({ target: avatars.id, set: { name: row.name, gender: row.gender, image: row.image, voice: row.voice, isDefault: row.isDefault, removedAt: null } });
	}

	async insertAvatarIfMissing(row: typeof avatars.$inferInsert): Promise<void> {
		await this.db.insert(avatars).values(row).onConflictDoNothing();
	}

	async removeAvatar(id: string, at: number): Promise<boolean> {
		const rows = await this.db.update(avatars).set({ removedAt: at }).where(eq(avatars.id, id)).returning({ id: avatars.id });
		return rows.length > 0;
	}

	async listLangs(includeDisabled = false): Promise<LangRow[]> {
		const rows = await this.db.select().from(langs).orderBy(asc(langs.createdAt), asc(langs.id));
		return includeDisabled ? rows : rows.filter((r) => r.enabled);
	}

	async insertLangIfMissing(row: typeof langs.$inferInsert): Promise<void> {
		await this.db.insert(langs).values(row).onConflictDoNothing();
	}

	async setLangEnabled(id: string, enabled: boolean): Promise<boolean> {
		const rows = await this.db.update(langs).set({ enabled }).where(eq(langs.id, id)).returning({ id: langs.id });
		return rows.length > 0;
	}
}

import { asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { avatars, langs } from '../db/schema.ts';

/** An avatar of the catalogue; a removed one stays for the sessions that chose it. */
export interface AvatarRecord {
	id: string;
	name: string;
	gender: 'male' | 'female' | 'unknown';
	/** Path under the app (`/avatars/…`) or an absolute URL. */
	image: string;
	/** BCP-47 voice hint for speech synthesis. */
	voice: string | null;
	isDefault: boolean;
	createdAt: number;
	removedAt: number | null;
}

/** A language of the catalogue; a disabled one is not offered by `GET /langs`. */
export interface LangRecord {
	id: string;
	title: string;
	enabled: boolean;
	createdAt: number;
}

/** The avatar and language catalogues behind `GET /avatars` and `GET /langs`. */
export class CatalogueRepository {
	constructor(private readonly db: DbOrTx) {}

	async listAvatars(): Promise<AvatarRecord[]> {
		return this.db.select().from(avatars).where(isNull(avatars.removedAt)).orderBy(asc(avatars.createdAt), asc(avatars.id));
	}

	async findAvatar(id: string): Promise<AvatarRecord | null> {
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

	async listLangs(includeDisabled = false): Promise<LangRecord[]> {
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

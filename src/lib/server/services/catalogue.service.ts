import type { Avatar, Language } from '#lib/domain/session/session.schema.ts';
import { LANG_TITLES, SUPPORTED_LANGS, type SupportedLang } from '#lib/domain/langs.ts';
import type { Repos, UnitOfWork } from '../repositories/index.ts';
import type { AvatarRecord, LangRecord } from '../repositories/catalogue.repository.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import { recordEvent } from './event.service.ts';

/** The built-in avatars: illustrations that ship in static/avatars. */
export const BUILT_IN_AVATARS = [
	{ id: 'ava', name: 'Ava', gender: 'female', image: '/avatars/ava.svg', voice: 'female', isDefault: true },
	{ id: 'leo', name: 'Leo', gender: 'male', image: '/avatars/leo.svg', voice: 'male', isDefault: false },
	{ id: 'sam', name: 'Sam', gender: 'unknown', image: '/avatars/sam.svg', voice: null, isDefault: false }
] as const satisfies readonly Omit<AvatarRecord, 'createdAt' | 'removedAt'>[];

/**
 * How long an instance may go on with the language catalogue as it was before a change made
 * elsewhere (another instance, or the CLI against PostgreSQL); a change through this service
 * takes effect here at once.
 */
export const CATALOGUE_CACHE_TTL_MS = 5_000;

/** `GET /langs` and `GET /avatars`, and their changes through the CLI (which fire settings.* events). */
export class CatalogueService {
	/** Every language with its switch: read by each create that names languages, changed by hand. */
	readonly #langs: TtlCache<'all', LangRecord[]>;

	constructor(private readonly deps: { uow: UnitOfWork; now: () => number; publicBaseUrl: string; cacheTtlMs?: number }) {
		this.#langs = new TtlCache(deps.cacheTtlMs ?? CATALOGUE_CACHE_TTL_MS, 1);
	}

	async #allLangs(): Promise<LangRecord[]> {
		return (await this.#langs.getOr('all', () => this.deps.uow.repos.catalogue.listLangs(true))) ?? [];
	}

	/** The ids `langs` and `defaultLang` of a create may name. */
	async enabledLangIds(): Promise<Set<string>> {
		return new Set((await this.#allLangs()).filter((l) => l.enabled).map((l) => l.id));
	}

	/** Inserts the built-in entries that are missing; never overrides an operator's change. */
	async seed(): Promise<void> {
		const at = this.deps.now();
		const repos = this.deps.uow.repos;
		for (const [i, avatar] of BUILT_IN_AVATARS.entries()) await repos.catalogue.insertAvatarIfMissing({ ...avatar, createdAt: at + i });
		for (const [i, id] of SUPPORTED_LANGS.entries()) await repos.catalogue.insertLangIfMissing({ id, title: LANG_TITLES[id], createdAt: at + i });
		this.#langs.clear();
	}

	async langs(): Promise<Language[]> {
		return (await this.#allLangs()).filter((l) => l.enabled).map((l) => ({ id: l.id as SupportedLang, title: l.title }));
	}

	/** Every language with its switch, disabled ones too (CLI `langs list`): read from the store, never cached. */
	async allLangs(): Promise<Array<Language & { enabled: boolean }>> {
		return (await this.deps.uow.repos.catalogue.listLangs(true)).map((l) => ({ id: l.id as SupportedLang, title: l.title, enabled: l.enabled }));
	}

	async avatars(): Promise<Avatar[]> {
		return (await this.deps.uow.repos.catalogue.listAvatars()).map((a) => this.toApiAvatar(a));
	}

	/**
	 * The avatar a session shows: its `avatarId`, else the catalogue's default. Pass the
	 * transaction's repositories when inside one (PGlite has a single connection).
	 */
	async avatarFor(avatarId?: string, repos: Repos = this.deps.uow.repos): Promise<Avatar | null> {
		const chosen = avatarId ? await repos.catalogue.findAvatar(avatarId) : null;
		if (chosen) return this.toApiAvatar(chosen);
		const all = await repos.catalogue.listAvatars();
		const fallback = all.find((a) => a.isDefault) ?? all[0];
		return fallback ? this.toApiAvatar(fallback) : null;
	}

	toApiAvatar(a: AvatarRecord): Avatar {
		const imageUrl = /^https?:\/\//.test(a.image) ? a.image : `${this.deps.publicBaseUrl}${a.image}`;
		return { id: a.id, name: a.name, gender: a.gender, imageUrl, createdAt: a.createdAt };
	}

	async putAvatar(avatar: { id: string; name: string; gender: 'male' | 'female' | 'unknown'; image: string; voice?: string | null; isDefault?: boolean }): Promise<void> {
		const at = this.deps.now();
		await this.deps.uow.transaction(async (repos) => {
			await repos.catalogue.upsertAvatar({ ...avatar, voice: avatar.voice ?? null, isDefault: avatar.isDefault ?? false, createdAt: at });
			await recordEvent(repos, { type: 'settings.avatars', sessionId: '', accountId: null, env: null, at });
		});
	}

	async removeAvatar(id: string): Promise<boolean> {
		const at = this.deps.now();
		return this.deps.uow.transaction(async (repos) => {
			const removed = await repos.catalogue.removeAvatar(id, at);
			if (removed) await recordEvent(repos, { type: 'settings.avatars', sessionId: '', accountId: null, env: null, at });
			return removed;
		});
	}

	async setLangEnabled(id: SupportedLang, enabled: boolean): Promise<boolean> {
		const at = this.deps.now();
		const changed = await this.deps.uow.transaction(async (repos) => {
			const changed = await repos.catalogue.setLangEnabled(id, enabled);
			if (changed) await recordEvent(repos, { type: 'settings.langs', sessionId: '', accountId: null, env: null, at });
			return changed;
		});
		this.forgetLangs();
		return changed;
	}

	/** Drops the cached language catalogue so the next read goes to the store. */
	forgetLangs(): void {
		this.#langs.clear();
	}
}

// 1:N search over an account's enrolled faces, kept in memory per account and environment and rebuilt
// from `face_templates` on demand. Several instances may enrol at once, so every search first pulls the
// rows added since this instance last looked (an indexed `seq > n` query, usually empty), and a hit is
// checked against the table before it is reported (another instance may have purged that session).
import { randomBytes } from 'node:crypto';
import { TemplateIndex } from '../../biometrics/template-index.ts';
import { decodeTemplate, protectTemplate, TEMPLATE_KEY_BYTES } from '../../biometrics/template-protection.ts';
import type { ServerKeys } from '../../crypto.ts';
import type { Env } from '../../repositories/account.repository.ts';
import type { Repos, UnitOfWork } from '../../repositories/index.ts';

export interface FaceMatch {
	templateId: string;
	sessionId: string;
	clientReferenceId: string;
	score: number;
}

interface Entry {
	index: TemplateIndex;
	lastSeq: number;
	owners: Map<string, { sessionId: string; clientReferenceId: string }>;
	/** Serialises refreshes of one entry. */
	queue: Promise<unknown>;
	usedAt: number;
}

const REFRESH_BATCH = 10_000;

export class FaceTemplateCache {
	readonly #entries = new Map<string, Entry>();
	readonly #keys = new Map<string, Uint8Array>();

	constructor(
		private readonly deps: { uow: UnitOfWork; keys: ServerKeys },
		/** Accounts whose index stays in memory (least recently used dropped; 100 000 faces ≈ 200 MB). */
		private readonly maxAccounts = 8
	) {}

	/** The account's 32-byte template key (created, sealed and stored if the account has none). */
	async accountKey(accountId: string, repos: Repos = this.deps.uow.repos): Promise<Uint8Array> {
		const cached = this.#keys.get(accountId);
		if (cached) return cached;
		let account = await repos.accounts.getAccount(accountId);
		if (!account) throw new Error(`No account '${accountId}'`);
		if (!account.templateKey) {
			await repos.accounts.setTemplateKeyIfMissing(accountId, this.deps.keys.seal(randomBytes(TEMPLATE_KEY_BYTES).toString('base64')));
			account = await repos.accounts.getAccount(accountId);
		}
		const key = new Uint8Array(Buffer.from(this.deps.keys.unseal(account!.templateKey!), 'base64'));
		if (key.length !== TEMPLATE_KEY_BYTES) throw new Error(`Account ${accountId} has a malformed template key`);
		this.#keys.set(accountId, key);
		return key;
	}

	/** The embedding as stored for this account: rotated by its key. */
	async protect(accountId: string, embedding: ArrayLike<number>): Promise<Float32Array> {
		return protectTemplate(embedding, await this.accountKey(accountId));
	}

	/** Best match of a protected probe among the account's enrolled faces, or null when none are enrolled. */
	async search(accountId: string, env: Env, probe: Float32Array): Promise<FaceMatch | null> {
		const entry = await this.#refresh(accountId, env);
		for (let tries = 0; tries < 3; tries++) {
			const hit = entry.index.search(probe);
			if (!hit) return null;
			const stillThere = await this.deps.uow.repos.faceTemplates.existing([hit.id]);
			if (stillThere.has(hit.id)) {
				const owner = entry.owners.get(hit.id)!;
				return { templateId: hit.id, sessionId: owner.sessionId, clientReferenceId: owner.clientReferenceId, score: hit.score };
			}
			entry.index.remove(hit.id);
			entry.owners.delete(hit.id);
		}
		return null;
	}

	/** Number of faces this instance holds for the account (after a refresh). */
	async size(accountId: string, env: Env): Promise<number> {
		return (await this.#refresh(accountId, env)).index.size;
	}

	/** Forgets what this instance holds (after a key rotation or a purge). */
	invalidate(accountId?: string): void {
		for (const key of [...this.#entries.keys()]) if (!accountId || key.startsWith(`${accountId}\u0000`)) this.#entries.delete(key);
		if (accountId) this.#keys.delete(accountId);
		else this.#keys.clear();
	}

	#refresh(accountId: string, env: Env): Promise<Entry> {
		const id = `${accountId}\u0000${env}`;
		let entry = this.#entries.get(id);
		if (!entry) {
			entry = { index: new TemplateIndex(), lastSeq: 0, owners: new Map(), queue: Promise.resolve(), usedAt: 0 };
			this.#entries.set(id, entry);
			while (this.#entries.size > this.maxAccounts) {
				const oldest = [...this.#entries.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt)[0][0];
				this.#entries.delete(oldest);
			}
		}
		const e = entry;
		e.usedAt = performance.now();
		const run = e.queue.then(async () => {
			for (;;) {
				const rows = await this.deps.uow.repos.faceTemplates.listSince(accountId, env, e.lastSeq, REFRESH_BATCH);
				for (const row of rows) {
					e.index.add(row.id, decodeTemplate(row.template));
					e.owners.set(row.id, { sessionId: row.sessionId, clientReferenceId: row.clientReferenceId });
					e.lastSeq = row.seq;
				}
				if (rows.length < REFRESH_BATCH) return e;
			}
		});
		e.queue = run.catch(() => undefined);
		return run;
	}
}

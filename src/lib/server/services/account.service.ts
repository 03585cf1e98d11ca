import { randomBytes } from 'node:crypto';
import { TtlCache } from '../cache/ttl-cache.ts';
import { newId, randomBase62, sha256Hex, type ServerKeys } from '../crypto.ts';
import type { ApiKeyInfo, ApiPrincipal, Env } from '../repositories/account.repository.ts';
import type { UnitOfWork } from '../repositories/index.ts';
import { checkWebhookUrl } from '../webhooks/webhook-url.ts';
import { standardWebhooksKey } from '../webhooks/webhook-signature.ts';

/** The name of the account the service makes for itself on an empty store (the demo's home). */
export const SANDBOX_ACCOUNT_NAME = 'Sandbox';

export interface WebhookEndpointInfo {
	id: string;
	accountId: string;
	url: string;
	env: Env | null;
	createdAt: number;
	disabledAt: number | null;
}

/**
 * How long an instance may go on accepting a key after it was revoked elsewhere (another instance,
 * or the CLI against PostgreSQL). A revocation made through this service takes effect here at once.
 */
export const KEY_CACHE_TTL_MS = 5_000;

interface CachedKey {
	principal: ApiPrincipal;
	lastUsedAt: number | null;
}

/** Accounts, API keys and webhook endpoints: what the CLI and start-up seeding manage. */
export class AccountService {
	/** Active keys by hash: a request needs no key lookup while its key is here. Unknown keys are not kept. */
	readonly #activeKeys: TtlCache<string, CachedKey>;

	constructor(private readonly deps: { uow: UnitOfWork; keys: ServerKeys; now: () => number; keyCacheTtlMs?: number }) {
		this.#activeKeys = new TtlCache(deps.keyCacheTtlMs ?? KEY_CACHE_TTL_MS);
	}

	/** The principal for a bearer key, or null. Keys are looked up by hash only. */
	async authenticate(key: string): Promise<ApiPrincipal | null> {
		if (!/^sk_(test|live)_[A-Za-z0-9]{16,128}$/.test(key)) return null;
		const hash = sha256Hex(key);
		const cached = await this.#activeKeys.getOr(hash, async () => {
			const found = await this.deps.uow.repos.accounts.findActiveKeyByHash(hash);
			if (!found || found.revokedAt !== null) return undefined;
			return { principal: { accountId: found.accountId, env: found.env, keyId: found.keyId }, lastUsedAt: found.lastUsedAt };
		});
		if (!cached) return null;
		// Last use to the minute is enough for an operator, and spares a write per request.
		const now = this.deps.now();
		if (cached.lastUsedAt === null || now - cached.lastUsedAt > 60_000) {
			cached.lastUsedAt = now; // before the write: concurrent requests do not all touch
			await this.deps.uow.repos.accounts.touchApiKey(cached.principal.keyId, now);
		}
		return { ...cached.principal };
	}

	/** Forgets cached keys (all, or one key id's) so the next request reads the store. */
	forgetKeys(keyId?: string): void {
		if (keyId === undefined) this.#activeKeys.clear();
		else this.#activeKeys.deleteWhere((v) => v.principal.keyId === keyId);
	}

	async createAccount(name: string): Promise<string> {
		const id = newId('acct');
		// The account's biometric template key (DESIGN.md): random, sealed with the server key.
		const templateKey = this.deps.keys.seal(randomBytes(32).toString('base64'));
		await this.deps.uow.repos.accounts.createAccount({ id, name, createdAt: this.deps.now(), templateKey });
		return id;
	}

	/** Creates a key and returns it in clear: the only time it is shown. */
	async createApiKey(accountId: string, env: Env, key = `sk_${env}_${randomBase62(32)}`): Promise<{ id: string; key: string }> {
		const account = await this.deps.uow.repos.accounts.getAccount(accountId);
		if (!account) throw new Error(`No account '${accountId}'`);
		const id = newId('key');
		await this.deps.uow.repos.accounts.insertApiKey({ id, accountId, env, hash: sha256Hex(key), prefix: key.slice(0, 12), createdAt: this.deps.now() });
		return { id, key };
	}

	listApiKeys(accountId?: string): Promise<ApiKeyInfo[]> {
		return this.deps.uow.repos.accounts.listApiKeys(accountId);
	}

	async revokeApiKey(keyId: string): Promise<boolean> {
		const revoked = await this.deps.uow.repos.accounts.revokeApiKey(keyId, this.deps.now());
		// After the write: a lookup that read the key as active before it is not stored (TtlCache).
		this.forgetKeys(keyId);
		return revoked;
	}

	listAccounts() {
		return this.deps.uow.repos.accounts.listAccounts();
	}

	/**
	 * Registers SEED_API_KEYS: each key not yet known gets an account of its own (and the seed
	 * webhook endpoint, if configured). Safe to run on every start.
	 */
	async seedKeys(keys: readonly string[], webhook?: { url: string; secret: string }): Promise<number> {
		let added = 0;
		for (const key of keys) {
			if (await this.deps.uow.repos.accounts.findActiveKeyByHash(sha256Hex(key))) continue;
			const env: Env = key.startsWith('sk_live_') ? 'live' : 'test';
			const accountId = await this.createAccount(`Seeded ${key.slice(0, 12)}…`);
			await this.createApiKey(accountId, env, key);
			if (webhook) await this.addWebhookEndpoint(accountId, webhook.url, { secret: webhook.secret });
			added++;
		}
		return added;
	}

	/** On a store without any key: a sandbox account and its first `sk_test_` key, to print. */
	async ensureSandbox(): Promise<{ accountId: string; key: string } | null> {
		if ((await this.deps.uow.repos.accounts.countApiKeys()) > 0) return null;
		const accountId = await this.createAccount(SANDBOX_ACCOUNT_NAME);
		const { key } = await this.createApiKey(accountId, 'test');
		return { accountId, key };
	}

	async addWebhookEndpoint(accountId: string, url: string, options: { env?: Env; secret?: string } = {}): Promise<{ id: string; secret: string }> {
		const checked = checkWebhookUrl(url);
		// Every delivery signs with it (both schemes): refuse a secret that could not sign.
		if (options.secret !== undefined) standardWebhooksKey(options.secret);
		if (!(await this.deps.uow.repos.accounts.getAccount(accountId))) throw new Error(`No account '${accountId}'`);
		const secret = options.secret ?? `whsec_${randomBytes(32).toString('base64')}`;
		const id = newId('whe');
		await this.deps.uow.repos.accounts.insertWebhookEndpoint({
			id,
			accountId,
			url: checked,
			secret: this.deps.keys.seal(secret),
			env: options.env ?? null,
			createdAt: this.deps.now()
		});
		return { id, secret };
	}

	async listWebhookEndpoints(accountId?: string): Promise<WebhookEndpointInfo[]> {
		const rows = await this.deps.uow.repos.accounts.listWebhookEndpoints(accountId);
		return rows.map(({ secret: _secret, ...rest }) => rest);
	}

	/** The endpoint's signing secret in clear, for the delivery worker. */
	unsealWebhookSecret(sealed: string): string {
		return this.deps.keys.unseal(sealed);
	}

	removeWebhookEndpoint(id: string): Promise<boolean> {
		return this.deps.uow.repos.accounts.disableWebhookEndpoint(id, this.deps.now());
	}

	setFrameAncestors(accountId: string, origins: string[]): Promise<boolean> {
		return this.deps.uow.repos.accounts.setFrameAncestors(accountId, origins);
	}
}

import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/store.ts';
import { accounts, apiKeys, webhookEndpoints } from '../db/schema.ts';

export type Env = 'test' | 'live';

/** Who a request acts for, once its API key is checked. */
export interface ApiPrincipal {
	accountId: string;
	env: Env;
	keyId: string;
}

export interface ApiKeyInfo {
	id: string;
	accountId: string;
	env: Env;
	prefix: string;
	createdAt: number;
	revokedAt: number | null;
	lastUsedAt: number | null;
}

export interface WebhookEndpointRow {
	id: string;
	accountId: string;
	url: string;
	/** Sealed; the service unseals it to sign. */
	secret: string;
	env: Env | null;
	createdAt: number;
	disabledAt: number | null;
}

export class AccountRepository {
	constructor(private readonly db: DbOrTx) {}

	async createAccount(row: { id: string; name: string; createdAt: number; templateKey?: string }): Promise<void> {
		await this.db.insert(accounts).values(row);
	}

	async getAccount(id: string) {
		const [row] = await this.db.select().from(accounts).where(eq(accounts.id, id));
		return row ?? null;
	}

	async listAccounts() {
		return this.db.select().from(accounts).orderBy(asc(accounts.createdAt));
	}

	async setFrameAncestors(accountId: string, origins: string[]): Promise<boolean> {
		const rows = await this.db.update(accounts).set({ frameAncestors: origins }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
		return rows.length > 0;
	}

	async setTemplateKey(accountId: string, sealedKey: string): Promise<void> {
		await this.db.update(accounts).set({ templateKey: sealedKey }).where(eq(accounts.id, accountId));
	}

	/** Sets the template key only where none is set yet (two instances racing keep the first). */
	async setTemplateKeyIfMissing(accountId: string, sealedKey: string): Promise<void> {
		await this.db.update(accounts).set({ templateKey: sealedKey }).where(and(eq(accounts.id, accountId), isNull(accounts.templateKey)));
	}

	async insertApiKey(row: { id: string; accountId: string; env: Env; hash: string; prefix: string; createdAt: number }): Promise<void> {
		await this.db.insert(apiKeys).values(row);
	}

	/** The principal of an active key, or null for unknown and revoked keys alike. */
	async findActiveKeyByHash(hash: string): Promise<(ApiPrincipal & { revokedAt: number | null; lastUsedAt: number | null }) | null> {
		const [row] = await this.db
			.select({ keyId: apiKeys.id, accountId: apiKeys.accountId, env: apiKeys.env, revokedAt: apiKeys.revokedAt, lastUsedAt: apiKeys.lastUsedAt })
			.from(apiKeys)
			.where(eq(apiKeys.hash, hash));
		return row ?? null;
	}

	async touchApiKey(keyId: string, at: number): Promise<void> {
		await this.db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId));
	}

	async listApiKeys(accountId?: string): Promise<ApiKeyInfo[]> {
		const query = this.db
			.select({
				id: apiKeys.id,
				accountId: apiKeys.accountId,
				env: apiKeys.env,
				prefix: apiKeys.prefix,
				createdAt: apiKeys.createdAt,
				revokedAt: apiKeys.revokedAt,
				lastUsedAt: apiKeys.lastUsedAt
			})
			.from(apiKeys)
			.orderBy(asc(apiKeys.createdAt));
		return accountId ? query.where(eq(apiKeys.accountId, accountId)) : query;
	}

	async revokeApiKey(keyId: string, at: number): Promise<boolean> {
		const rows = await this.db
			.update(apiKeys)
			.set({ revokedAt: at })
			.where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
			.returning({ id: apiKeys.id });
		return rows.length > 0;
	}

	async countApiKeys(): Promise<number> {
		return (await this.db.$count(apiKeys)) as number;
	}

	async insertWebhookEndpoint(row: Omit<WebhookEndpointRow, 'disabledAt'>): Promise<void> {
		await this.db.insert(webhookEndpoints).values(row);
	}

	async listWebhookEndpoints(accountId?: string): Promise<WebhookEndpointRow[]> {
		const query = this.db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.createdAt));
		return accountId ? query.where(eq(webhookEndpoints.accountId, accountId)) : query;
	}

	async findWebhookEndpointByUrl(accountId: string, url: string): Promise<WebhookEndpointRow | null> {
		const [row] = await this.db
			.select()
			.from(webhookEndpoints)
			.where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.url, url), isNull(webhookEndpoints.disabledAt)));
		return row ?? null;
	}

	async disableWebhookEndpoint(id: string, at: number): Promise<boolean> {
		const rows = await this.db
			.update(webhookEndpoints)
			.set({ disabledAt: at })
			.where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.disabledAt)))
			.returning({ id: webhookEndpoints.id });
		return rows.length > 0;
	}
}

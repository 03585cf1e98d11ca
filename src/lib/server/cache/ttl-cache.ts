/**
 * A small in-process cache whose entries live at most `ttlMs`. It exists to take lookups that
 * almost never change (API keys, the language catalogue) off the request path; whoever changes
 * the underlying rows deletes the entry here, and the TTL bounds how long another instance (which
 * this process cannot tell) may keep serving the old value.
 */
export class TtlCache<K, V> {
	readonly #entries = new Map<K, { value: V; expiresAt: number }>();
	/** Bumped by every deletion: a load that started before one must not store what it read. */
	#generation = 0;

	constructor(
		readonly ttlMs: number,
		private readonly maxEntries = 10_000,
		private readonly clock: () => number = () => performance.now()
	) {}

	get(key: K): V | undefined {
		const entry = this.#entries.get(key);
		if (!entry) return undefined;
		if (entry.expiresAt <= this.clock()) {
			this.#entries.delete(key);
			return undefined;
		}
		return entry.value;
	}

	set(key: K, value: V): void {
		// Oldest first out: a flood of distinct keys cannot grow the process without bound.
		if (!this.#entries.has(key) && this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
		this.#entries.set(key, { value, expiresAt: this.clock() + this.ttlMs });
	}

	/** Deletes the entries whose value matches (e.g. every cached hash of one revoked key id). */
	deleteWhere(test: (value: V, key: K) => boolean): void {
		this.#generation++;
		for (const [key, entry] of this.#entries) if (test(entry.value, key)) this.#entries.delete(key);
	}

	clear(): void {
		this.#generation++;
		this.#entries.clear();
	}

	/**
	 * The cached value, or the loader's, cached when it is not undefined and nothing was deleted
	 * while it loaded (a revocation racing the load must win). Concurrent misses each load.
	 */
	async getOr(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
		const hit = this.get(key);
		if (hit !== undefined) return hit;
		const generation = this.#generation;
		const value = await load();
		if (value !== undefined && generation === this.#generation) this.set(key, value);
		return value;
	}
}

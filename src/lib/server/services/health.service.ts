/** What `GET /healthz` says of the store. */
export type StoreHealth = { kind: 'pglite' | 'postgres'; ok: true; latencyMs: number } | { kind: 'pglite' | 'postgres'; ok: false };

/**
 * Which store this instance runs on and whether it answers: for `GET /healthz`, the start-up
 * lines, and the CLI socket (embedded store only). The store itself stays inside the app.
 */
export class HealthService {
	constructor(private readonly deps: { storeKind: 'pglite' | 'postgres'; ping: () => Promise<unknown> }) {}

	get storeKind(): 'pglite' | 'postgres' {
		return this.deps.storeKind;
	}

	/** One round trip to the store; a failure is an answer (ok: false), not an error. */
	async store(): Promise<StoreHealth> {
		const started = performance.now();
		try {
			await this.deps.ping();
			return { kind: this.deps.storeKind, ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
		} catch {
			return { kind: this.deps.storeKind, ok: false };
		}
	}
}

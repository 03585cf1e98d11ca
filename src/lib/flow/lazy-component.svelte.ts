/**
 * A screen whose code is fetched when first needed rather than with the page: `current` is null
 * until it has loaded. The loader must be browser only (`import.meta.env.SSR ? browserOnly() :
 * import(…)`): SvelteKit links into the first load's <head> the CSS of every dynamic import that
 * its server build also holds, so a lazy screen the server could import would still cost its CSS.
 */
export class LazyComponent<T> {
	current = $state.raw<T | null>(null);
	#pending: Promise<T> | null = null;
	readonly #load: () => Promise<{ default: T }>;

	constructor(load: () => Promise<{ default: T }>) {
		this.#load = load;
	}

	/** Fetches the code once; a failed fetch (a dropped connection on a phone) is forgotten, so the next call tries again. */
	load(): Promise<T> {
		this.#pending ??= this.#load().then(
			(m) => (this.current = m.default),
			(err: unknown) => {
				this.#pending = null;
				throw err;
			}
		);
		return this.#pending;
	}
}

/** The server-build side of a browser-only loader (the server renders none of these screens). */
export function browserOnly(): never {
	throw new Error('This screen is loaded in the browser only');
}

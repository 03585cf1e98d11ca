import { sveltekit } from '@sveltejs/kit/vite';
import adapter from './scripts/precompress-adapter.js';
import { firstLoadGroup } from './scripts/first-load-chunk.ts';
import { defineConfig } from 'vitest/config';

const SVELTE_LATER = /[\\/]svelte[\\/]src[\\/]internal[\\/]client[\\/]dom[\\/](blocks[\\/]each|elements[\\/]bindings[\\/](select|input))\.js$/;

export default defineConfig({
	plugins: [
		sveltekit({
			adapter: adapter({ out: 'build' }),
			// The API is called cross-origin by integrators' backends with a bearer key, never with
			// cookies, so SvelteKit's form-origin check would only get in their way on /api (it refuses
			// `curl -d`). hooks.server.ts applies the same check to every other path (the demo's form).
			csrf: { trustedOrigins: ['*'] },
			// The hosted page talks to its own origin only: this also blocks the telemetry POST that
			// @mediapipe/tasks-vision sends to a Google host on every task creation.
			csp: {
				mode: 'auto',
				directives: {
					'default-src': ['self'],
					'script-src': ['self', 'wasm-unsafe-eval'],
					'worker-src': ['self', 'blob:'],
					'connect-src': ['self'],
					'img-src': ['self', 'data:', 'blob:', 'https:'],
					'media-src': ['self', 'blob:'],
					'style-src': ['self', 'unsafe-inline'],
					'font-src': ['self'],
					'object-src': ['none'],
					'base-uri': ['self'],
					'form-action': ['self']
				}
			}
		})
	],
	server: { port: 5173 },
	environments: {
		client: {
			build: {
				rolldownOptions: {
					// Svelte's runtime is imported through one index module, so every part of it the app
					// uses anywhere lands in the one chunk every page loads first. Its list block and its
					// input and select bindings are used only by screens that come later (node screens,
					// the demo page): in chunks of their own they leave the hosted page's first load
					// (2 KB gzipped; `npm run bench -- page` shows what is left). They hold only function
					// declarations, so they are marked free of side effects: otherwise the runtime's chunk
					// would import them anyway, to run them in order.
					treeshake: { moduleSideEffects: (id) => (SVELTE_LATER.test(id) ? false : undefined) },
					// Needed by `includeDependenciesRecursively: false`: SvelteKit's entries keep the
					// exports they have (a chunk may gain some, never lose one).
					preserveEntrySignatures: 'allow-extension',
					output: {
						codeSplitting: {
							// Not their dependencies: those are the runtime's core, which stays shared. The
							// hosted page's first screen: its own modules in one chunk (first-load-chunk.ts).
							includeDependenciesRecursively: false,
							groups: [{ name: 'svelte-later', test: SVELTE_LATER }, firstLoadGroup('src/routes/verify/+page.svelte', 'verify-first')]
						}
					}
				}
			}
		}
	},
	test: {
		include: ['src/**/*.spec.ts', 'scripts/**/*.spec.ts', 'tests/integration/**/*.spec.ts', 'tests/dialog/**/*.spec.ts'],
		testTimeout: 30_000,
		hookTimeout: 120_000,
		pool: 'forks',
		// Fresh embedded stores start from one dumped empty store instead of running initdb each
		// time (about 4 s of CPU each; src/lib/server/db/pglite-template.ts).
		env: { PGLITE_TEMPLATE_DIR: 'tests/.tmp/pglite-template' },
		// Vitest's default on two cores is one worker; many suites mostly wait (a server starting, a
		// webhook lease running out, PostgreSQL), so a second worker overlaps them with the CPU-bound ones.
		maxWorkers: 2
	}
});

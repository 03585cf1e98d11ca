import { sveltekit } from '@sveltejs/kit/vite';
import adapter from './scripts/precompress-adapter.js';
import { defineConfig } from 'vitest/config';

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

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCycles, formatReport } from './check-cycles.js';

const trees: string[] = [];

/** A throw-away project: package.json with the `#lib/*` import map, and the given files. */
function tree(files: Record<string, string>): string {
	const root = mkdtempSync(path.join(tmpdir(), 'vf-cycles-'));
	trees.push(root);
	writeFileSync(path.join(root, 'package.json'), JSON.stringify({ type: 'module', imports: { '#lib/*': './src/lib/*', '#lib': './src/lib/index.ts' } }));
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
		writeFileSync(path.join(root, name), text);
	}
	return root;
}

const run = (root: string) => spawnSync(process.execPath, [path.resolve('scripts/check-cycles.js'), '--root', root], { encoding: 'utf8' });

afterAll(() => {
	for (const root of trees) rmSync(root, { recursive: true, force: true });
});

describe('check-cycles', () => {
	it('passes a tree without cycles, whatever the import style', () => {
		const root = tree({
			'src/lib/domain/rules.ts': `export const MAX = 3;`,
			'src/lib/flow/runner.svelte.ts': `import { MAX } from '#lib/domain/rules.ts';\nexport class Runner { max = MAX; }`,
			'src/lib/nodes/email/email-node.svelte': `<script lang="ts">\n\timport { Runner } from '$lib/flow/runner.svelte.ts';\n\timport type { PageData } from './$types';\n\tconst r = new Runner();\n</script>\n<p>{r.max}</p>`,
			'src/lib/nodes/node-registry.ts': `import EmailNode from './email/email-node.svelte';\nexport const NODES = { email: EmailNode };`,
			'src/routes/verify/+page.svelte': `<script lang="ts">\n\timport { NODES } from '#lib/nodes/node-registry.ts';\n\timport { page } from '$app/state';\n</script>`
		});
		const report = checkCycles({ root });
		expect(report).toMatchObject({ files: 5, fileCycles: [], folderCycles: [], layers: [], unresolved: [] });
		const result = run(root);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('File-level import cycles: none');
	});

	it('lists file cycles (type-only ones marked) and folder cycles, and fails', () => {
		const root = tree({
			// A run-time cycle through an extension-less relative import and a `.js` specifier.
			'src/lib/server/a.ts': `import { b } from './b';\nexport const a = () => b;`,
			'src/lib/server/b.ts': `import { a } from './a.js';\nexport const b = () => a;`,
			// A cycle that only a type import closes, through a .svelte file's module script.
			'src/lib/flow/node-registry.ts': `import Face from '#lib/nodes/face/face-node.svelte';\nexport const NODES = { face: Face };`,
			'src/lib/flow/node-props.ts': `import { NODES } from './node-registry.ts';\nexport type NodeProps = { kind: keyof typeof NODES };`,
			'src/lib/nodes/face/face-node.svelte': `<script lang="ts" module>\n\texport const NAME = 'face';\n</script>\n<script lang="ts">\n\timport type { NodeProps } from '$lib/flow/node-props.ts';\n\tlet { kind }: NodeProps = $props();\n</script>`,
			'src/lib/server/lazy.ts': `export const load = () => import('./a.ts');`
		});
		const report = checkCycles({ root });
		expect(report.fileCycles).toEqual([
			{ files: ['src/lib/server/a.ts', 'src/lib/server/b.ts'], kinds: ['static', 'static'] },
			{ files: ['src/lib/flow/node-props.ts', 'src/lib/flow/node-registry.ts', 'src/lib/nodes/face/face-node.svelte'], kinds: ['static', 'static', 'type'] }
		]);
		expect(report.folderCycles).toHaveLength(1);
		expect(report.folderCycles[0].folders).toEqual(['flow', 'nodes']);
		expect(report.folderCycles[0].hops.map((h) => h.edges)).toEqual([
			[{ from: 'src/lib/flow/node-registry.ts', to: 'src/lib/nodes/face/face-node.svelte', kind: 'static' }],
			[{ from: 'src/lib/nodes/face/face-node.svelte', to: 'src/lib/flow/node-props.ts', kind: 'type' }]
		]);
		const text = formatReport(report);
		expect(text).toContain('1. src/lib/server/a.ts → src/lib/server/b.ts → src/lib/server/a.ts');
		expect(text).toContain('2. [type-only] src/lib/flow/node-props.ts → src/lib/flow/node-registry.ts → src/lib/nodes/face/face-node.svelte → (type-only) src/lib/flow/node-props.ts');
		expect(text).toContain('1. flow → nodes → flow');
		const result = run(root);
		expect(result.status).toBe(1);
		expect(result.stdout).toContain('File-level import cycles: 2 (1 at run time, 1 through a type-only import)');
	});

	it('reports a local import that names no file instead of skipping it silently', () => {
		const root = tree({ 'src/lib/a.ts': `import { x } from './missing.ts';\nimport { y } from '#lib/nowhere.ts';\nexport const a = x + y;` });
		expect(checkCycles({ root }).unresolved).toEqual([
			{ file: 'src/lib/a.ts', specifier: './missing.ts' },
			{ file: 'src/lib/a.ts', specifier: '#lib/nowhere.ts' }
		]);
	});

	it('fails an import that points a layer the wrong way, and lets specs compare sides', () => {
		const root = tree({
			'src/lib/domain/rules.ts': `import { detect } from '#lib/face/detect.ts';\nexport const MAX = detect();`,
			'src/lib/face/detect.ts': `import type { Camera } from '#lib/camera/camera.ts';\nexport const detect = (c?: Camera) => 3;`,
			'src/lib/camera/camera.ts': `export type Camera = { on: boolean };`,
			'src/lib/server/secret.ts': `import type { Camera } from '#lib/camera/camera.ts';\nexport const KEY = 'k' as string & Partial<Camera>;`,
			'src/lib/server/parity.spec.ts': `import type { Camera } from '#lib/camera/camera.ts';\nexport const c: Camera = { on: true };`,
			'src/lib/nodes/email/email-node.svelte': `<script lang="ts">\n\timport { KEY } from '#lib/server/secret.ts';\n</script>\n<p>{KEY}</p>`
		});
		const report = checkCycles({ root });
		expect(report.fileCycles).toEqual([]);
		expect(report.layers).toEqual([
			{ rule: 'domain imports only domain', from: 'src/lib/domain/rules.ts', to: 'src/lib/face/detect.ts' },
			{ rule: 'face/ imports only domain and face', from: 'src/lib/face/detect.ts', to: 'src/lib/camera/camera.ts' },
			{ rule: 'page code does not import server code', from: 'src/lib/nodes/email/email-node.svelte', to: 'src/lib/server/secret.ts' },
			{ rule: 'server code does not import page code', from: 'src/lib/server/secret.ts', to: 'src/lib/camera/camera.ts' }
		]);
		const result = run(root);
		expect(result.status).toBe(1);
		expect(result.stdout).toContain('Imports against the layers: 4');
	});
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCasts } from './check-casts.js';

const roots: string[] = [];
function tree(files: Record<string, string>): string {
	const root = mkdtempSync(path.join(tmpdir(), 'vf-casts-'));
	roots.push(root);
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
		writeFileSync(path.join(root, name), text);
	}
	return root;
}
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

describe('check-casts', () => {
	it('finds a double cast in server and domain code, and leaves interop files, specs, comments and page code alone', () => {
		const root = tree({
			'src/lib/server/services/a.service.ts': `const x = 1;\nexport const row = x as unknown as { id: string };\n`,
			'src/lib/domain/b.ts': `// a comment may say 'as unknown as'\nexport const v = [] as unknown as [string];\n`,
			'src/lib/server/db/store.ts': `export const db = {} as unknown as { q(): void };\n`,
			'src/lib/server/services/a.service.spec.ts': `export const odd = 1 as unknown as string;\n`,
			'src/lib/camera/c.ts': `export const el = null as unknown as HTMLVideoElement;\n`
		});
		expect(findCasts(root)).toEqual([
			{ file: 'src/lib/server/services/a.service.ts', line: 2, text: 'export const row = x as unknown as { id: string };' },
			{ file: 'src/lib/domain/b.ts', line: 2, text: 'export const v = [] as unknown as [string];' }
		]);
	});
});

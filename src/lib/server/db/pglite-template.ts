// A ready-made empty embedded store: PGlite's initdb plus our migrations, dumped once and loaded
// into each new store instead of running initdb again. initdb costs about 4 s of CPU; loading the
// dump about 1 s. Only used where `PGLITE_TEMPLATE_DIR` names a folder to keep the dump in (the
// test suites, which open dozens of fresh stores): a single production start would pay initdb to
// make the template anyway, so it opens the store directly.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS } from './migrations.generated.ts';

let memo: { key: string; dump: Promise<Blob | null> } | null = null;

/** Which PGlite build this is (a dump is only good for the build that made it). */
function pgliteBuild(): string {
	try {
		const file = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
		const { size, mtimeMs } = statSync(file);
		return `${file}:${size}:${mtimeMs}`;
	} catch {
		return 'unknown';
	}
}

/** The template for this PGlite version and these migrations, or null when not configured. */
export function pgliteTemplate(apply: (client: PGlite) => Promise<void>, dir = process.env.PGLITE_TEMPLATE_DIR): Promise<Blob | null> {
	if (!dir) return Promise.resolve(null);
	const key = createHash('sha256')
		.update(pgliteBuild())
		.update(JSON.stringify(MIGRATIONS))
		.digest('hex')
		.slice(0, 16);
	if (memo?.key === key) return memo.dump;
	const file = path.join(path.resolve(dir), `pglite-${key}.tar`);
	const dump = (async () => {
		try {
			return new Blob([readFileSync(file)]);
		} catch {
			// not made yet
		}
		const client = await PGlite.create();
		try {
			await apply(client);
			const made = await client.dumpDataDir('none');
			const bytes = new Uint8Array(await made.arrayBuffer());
			mkdirSync(path.dirname(file), { recursive: true });
			// Another process may be making the same file: write aside, then rename (atomic).
			const aside = `${file}.${process.pid}.tmp`;
			writeFileSync(aside, bytes);
			renameSync(aside, file);
			return new Blob([bytes]);
		} finally {
			await client.close();
		}
	})().catch(() => null);
	memo = { key, dump };
	return dump;
}

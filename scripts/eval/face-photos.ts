// The face photos the face evaluations damage: ../shared/fixtures when it is there (more
// identities), else the redistributable subset in tests/fixtures. Single-person photos with an
// identity, variants left out (they are damaged copies already). Or a folder of photos never seen
// here, with a CSV of labelled pairs: `--dir DIR --pairs CSV` (face-pairs.ts).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EVAL_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = resolve(EVAL_ROOT, '..', 'shared', 'fixtures');
export const usesSharedFixtures = existsSync(join(shared, 'MANIFEST.json'));
/** Where the photos came from, for a report's first line. */
export const FIXTURE_SOURCE = cliArgs('dir')[0] ? `\`${cliArgs('dir')[0]}\`` : usesSharedFixtures ? '../shared/fixtures' : 'tests/fixtures';

export interface FacePhoto {
	file: string;
	identity: string;
}

export function facePhotos(): FacePhoto[] {
	// A folder of photos never seen here, with labelled pairs (`--dir DIR --pairs CSV`: face-pairs.ts).
	const dir = cliArgs('dir')[0];
	const csvs = cliArgs('pairs');
	if (dir && csvs.length) return [...identities(csvs.flatMap((f) => readPairs(readFileSync(f, 'utf8'))))].map(([file, id]) => ({ file: join(dir, file), identity: `person ${id}` }));
	const manifest = usesSharedFixtures ? join(shared, 'MANIFEST.json') : join(EVAL_ROOT, 'tests/fixtures/faces/manifest.json');
	const base = usesSharedFixtures ? shared : join(EVAL_ROOT, 'tests/fixtures');
	const m = JSON.parse(readFileSync(manifest, 'utf8')) as { files: { file: string; kind: string; identity?: string | null }[] };
	return m.files.filter((f) => f.kind === 'face' && f.identity && !f.file.includes('/variants/')).map((f) => ({ file: join(base, f.file), identity: f.identity! }));
}

/** The value after `--name` on the command line. */
export function cliArg(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Every value after `--name` on the command line (a flag given more than once). */
export function cliArgs(name: string): string[] {
	const out: string[] = [];
	process.argv.forEach((a, i) => a === `--${name}` && process.argv[i + 1] && out.push(process.argv[i + 1]));
	return out;
}

/** Labelled pairs of a CSV: the first two columns are files (paths cut to their base name), the third Yes or No. */
export function readPairs(text: string): { a: string; b: string; same: boolean }[] {
	const rows = text.trim().split(/\r?\n/).slice(1);
	return rows
		.map((row) => row.split(','))
		.filter((c) => c.length >= 3 && /^(yes|no)$/i.test(c[2].trim()))
		.map((c) => ({ a: basename(c[0].trim()), b: basename(c[1].trim()), same: /^yes$/i.test(c[2].trim()) }));
}

/** Groups of photos the genuine pairs join (union–find); a No pair within a group is an error in the labels. */
export function identities(pairs: readonly { a: string; b: string; same: boolean }[]): Map<string, number> {
	const parent = new Map<string, string>();
	const find = (x: string): string => {
		if (!parent.has(x)) parent.set(x, x);
		let r = x;
		while (parent.get(r) !== r) r = parent.get(r)!;
		parent.set(x, r);
		return r;
	};
	for (const p of pairs) {
		find(p.a);
		find(p.b);
		if (p.same) parent.set(find(p.a), find(p.b));
	}
	for (const p of pairs) if (!p.same && find(p.a) === find(p.b)) throw new Error(`labels disagree: ${p.a} and ${p.b} are joined by Yes pairs but labelled No`);
	const roots = [...new Set([...parent.keys()].map(find))].sort();
	return new Map([...parent.keys()].map((x) => [x, roots.indexOf(find(x))]));
}

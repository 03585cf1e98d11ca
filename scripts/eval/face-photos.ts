// The face photos the face evaluations damage: ../shared/fixtures when it is there (more
// identities), else the redistributable subset in tests/fixtures. Single-person photos with an
// identity, variants left out (they are damaged copies already).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EVAL_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = resolve(EVAL_ROOT, '..', 'shared', 'fixtures');
export const usesSharedFixtures = existsSync(join(shared, 'MANIFEST.json'));
/** Where the photos came from, for a report's first line. */
export const FIXTURE_SOURCE = usesSharedFixtures ? '../shared/fixtures' : 'tests/fixtures';

export interface FacePhoto {
	file: string;
	identity: string;
}

export function facePhotos(): FacePhoto[] {
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

// `npm run eval`: accuracy evaluations (faces: same/different with ROC points, PAD, reference photos
// and camera frames under damage; documents:
// read rate and field accuracy, also after synthetic camera damage). They read the full fixture
// set from ../shared/fixtures when it is there, else the redistributable subset in tests/fixtures.
// Results print as Markdown and are written to bench/results/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
let failed = 0;
for (const name of ['faces', 'face-damage', 'capture-damage', 'documents', 'documents-synthetic', 'dialog']) {
	if (only.length && !only.includes(name)) continue;
	const file = path.join('scripts/eval', `${name}.ts`);
	if (!existsSync(path.join(root, file))) continue;
	console.log(`\n## ${name}\n`);
	if (spawnSync('npx', ['tsx', file], { cwd: root, stdio: 'inherit' }).status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

// `npm run bench`: every benchmark under bench/ (files *.bench.ts), one after another, after a
// production build. Results print as Markdown tables and are written to bench/results/.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
if (spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
let failed = 0;
for (const file of readdirSync(path.join(root, 'bench')).filter((f) => f.endsWith('.bench.ts')).sort()) {
	if (only.length && !only.some((o) => file.includes(o))) continue;
	console.log(`\n## ${file}\n`);
	const status = spawnSync('npx', ['tsx', path.join('bench', file)], { cwd: root, stdio: 'inherit' }).status;
	if (status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

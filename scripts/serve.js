// `npm run serve`: build when the sources are newer than the last build, then start it.
import { execSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const newest = (dir) => {
	let t = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
		const p = path.join(dir, entry.name);
		t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
	}
	return t;
};
const built = existsSync(path.join(root, 'build/index.js')) ? statSync(path.join(root, 'build/index.js')).mtimeMs : 0;
const sources = Math.max(newest(path.join(root, 'src')), newest(path.join(root, 'static')), statSync(path.join(root, 'package-lock.json')).mtimeMs);
if (sources > built) {
	console.log('› building (npm run build)…');
	execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
const child = spawn(process.execPath, ['build'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

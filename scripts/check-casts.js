// `as unknown as` in server or domain code: a double cast says "these types do not meet", which in
// our own code means a shape is invented at the cast. The store driver and onnxruntime-node types are
// the interop exceptions, named here with their reason; specs are exempt (they build odd inputs).
//
//   node scripts/check-casts.js [--root DIR]
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SCOPES = ['src/lib/server', 'src/lib/domain'];
/** Files whose double casts bridge a library's own types; the reason is printed with them. */
export const INTEROP = {
	'src/lib/server/db/store.ts': 'drizzle: one Db type over the PGlite and node-postgres drivers',
	'src/lib/server/biometrics/face-engine.ts': 'onnxruntime-node: its InferenceSession to our OrtSession port'
};

/**
 * Every `as unknown as` in server and domain code outside the interop files.
 * @param {string} root
 * @returns {Array<{ file: string, line: number, text: string }>}
 */
export function findCasts(root) {
	/** @type {Array<{ file: string, line: number, text: string }>} */
	const found = [];
	for (const scope of SCOPES) {
		for (const file of walk(path.join(root, scope))) {
			const rel = path.relative(root, file).split(path.sep).join('/');
			if (!rel.endsWith('.ts') || /\.(spec|test)\.ts$/.test(rel) || rel in INTEROP) continue;
			readFileSync(file, 'utf8')
				.split('\n')
				.forEach((text, i) => {
					if (/\bas unknown as\b/.test(text) && !/^\s*(\/\/|\*)/.test(text)) found.push({ file: rel, line: i + 1, text: text.trim() });
				});
		}
	}
	return found;
}

/** @param {string} dir @returns {string[]} */
function walk(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const args = process.argv.slice(2);
	const at = args.indexOf('--root');
	const root = at >= 0 && args[at + 1] ? path.resolve(args[at + 1]) : path.resolve(import.meta.dirname, '..');
	const casts = findCasts(root);
	if (casts.length) {
		console.log(`'as unknown as' in server or domain code: ${casts.length}`);
		for (const c of casts) console.log(`  ${c.file}:${c.line}: ${c.text}`);
		process.exitCode = 1;
	} else console.log(`check-casts: no 'as unknown as' in server or domain code (interop: ${Object.keys(INTEROP).length} files)`);
}

// `npm run check:cycles`: the import cycles in src/, file by file and folder by folder (src/lib/*),
// and imports that point a layer the wrong way (LAYER_RULES).
// madge does the file part, but it is another dependency and it does not read `#lib/…` (package.json
// "imports") or the <script> blocks of .svelte files the way this project writes them; the
// TypeScript compiler that is already installed parses both. Exit 1 when a file-level cycle exists.
//
//   node scripts/check-cycles.js [--root DIR] [--json] [--quiet]
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** @typedef {'static' | 'dynamic' | 'type'} EdgeKind */
/** @typedef {{ from: string, to: string, kind: EdgeKind }} Edge */
/** @typedef {{ files: string[], kinds: EdgeKind[] }} Cycle */
/**
 * @typedef {{ folders: string[], hops: Array<{ from: string, to: string, edges: Edge[] }> }} FolderCycle
 * @typedef {{ rule: string, from: string, to: string }} LayerViolation
 * @typedef {{ root: string, files: number, fileCycles: Cycle[], folderCycles: FolderCycle[], layers: LayerViolation[], unresolved: Array<{ file: string, specifier: string }>, truncated: boolean }} CycleReport
 */

/** A static import outweighs a dynamic one, which outweighs a type-only one (erased at build time). */
const STRENGTH = { static: 2, dynamic: 1, type: 0 };
/** Enough to read; a tangle past this is listed by its strongly connected parts instead. */
const MAX_CYCLES = 500;
const EXTENSIONS = ['.ts', '.js', '.svelte', '.svelte.ts', '.svelte.js', '/index.ts', '/index.js'];
const SCRIPT_BLOCK = /<script\b[^>]*>([\s\S]*?)<\/script>/g;

/** @param {string} file */
const isSpec = (file) => /\.(spec|test)\.ts$/.test(file);
/** Code the browser runs: it must never reach server modules (secrets, the store, native engines). */
const PAGE_FOLDERS = ['src/lib/camera/', 'src/lib/nodes/', 'src/lib/flow/', 'src/lib/components/'];

/**
 * Which way the layers point. domain/ is the bottom (pure, isomorphic: schemas and rules); face/ is the
 * face pipeline both sides run; server/ and the page folders sit on top and never import each other.
 * Specs are exempt (a parity test may compare the browser's runtime with the server's).
 * @type {Array<{ name: string, applies: (file: string) => boolean, allows: (target: string) => boolean }>}
 */
export const LAYER_RULES = [
	{ name: 'domain imports only domain', applies: (f) => f.startsWith('src/lib/domain/'), allows: (t) => t.startsWith('src/lib/domain/') },
	{ name: 'face/ imports only domain and face', applies: (f) => f.startsWith('src/lib/face/'), allows: (t) => t.startsWith('src/lib/domain/') || t.startsWith('src/lib/face/') },
	{ name: 'server code does not import page code', applies: (f) => f.startsWith('src/lib/server/'), allows: (t) => !PAGE_FOLDERS.some((p) => t.startsWith(p)) },
	{ name: 'page code does not import server code', applies: (f) => PAGE_FOLDERS.some((p) => f.startsWith(p)) || /^src\/routes\/.*\.svelte$/.test(f), allows: (t) => !t.startsWith('src/lib/server/') }
];

/**
 * Imports that break a layer rule (type-only ones too: a type names what a layer depends on).
 * @param {Map<string, Map<string, EdgeKind>>} graph
 * @param {string} root
 * @returns {LayerViolation[]}
 */
function layerViolations(graph, root) {
	/** @type {LayerViolation[]} */
	const out = [];
	for (const [file, targets] of graph) {
		const from = rel(root, file);
		if (isSpec(from)) continue;
		for (const rule of LAYER_RULES.filter((r) => r.applies(from))) {
			for (const target of targets.keys()) {
				const to = rel(root, target);
				if (!rule.allows(to)) out.push({ rule: rule.name, from, to });
			}
		}
	}
	return out.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/**
 * The project's file and folder import cycles under `root/src`.
 * @param {{ root: string, src?: string }} options
 * @returns {CycleReport}
 */
export function checkCycles({ root, src = 'src' }) {
	const srcDir = path.resolve(root, src);
	const files = walk(srcDir).filter((f) => (f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.svelte'));
	const known = new Set(files);
	const aliases = packageImports(root);
	/** @type {Map<string, Map<string, EdgeKind>>} */
	const graph = new Map();
	/** @type {Array<{ file: string, specifier: string }>} */
	const unresolved = [];
	for (const file of files) {
		/** @type {Map<string, EdgeKind>} */
		const targets = new Map();
		for (const { specifier, kind } of importsOf(file)) {
			const target = resolve(specifier, file, { root, srcDir, aliases, known });
			if (target === null) continue;
			if (target === undefined) {
				unresolved.push({ file: rel(root, file), specifier });
				continue;
			}
			const before = targets.get(target);
			if (!before || STRENGTH[kind] > STRENGTH[before]) targets.set(target, kind);
		}
		graph.set(file, targets);
	}

	const found = elementaryCycles(graph, MAX_CYCLES);
	const fileCycles = found.cycles.map((c) => ({ files: c.map((f) => rel(root, f)), kinds: c.map((f, i) => /** @type {EdgeKind} */ (graph.get(f)?.get(c[(i + 1) % c.length]))) }));
	return { root, files: files.length, fileCycles: sortCycles(fileCycles), folderCycles: folderCycles(graph, path.join(srcDir, 'lib'), root), layers: layerViolations(graph, root), unresolved, truncated: found.truncated };
}

/**
 * Cycles among the folders directly under src/lib: `flow → nodes → flow` when a file of flow/
 * imports one of nodes/ and a file of nodes/ imports one of flow/. Each hop keeps its file imports.
 * @param {Map<string, Map<string, EdgeKind>>} graph
 * @param {string} libDir
 * @param {string} root
 * @returns {FolderCycle[]}
 */
function folderCycles(graph, libDir, root) {
	/** @param {string} file */
	const folderOf = (file) => {
		const inLib = path.relative(libDir, file);
		if (inLib.startsWith('..') || path.isAbsolute(inLib)) return null;
		const parts = inLib.split(path.sep);
		return parts.length > 1 ? parts[0] : null;
	};
	/** @type {Map<string, Map<string, Edge[]>>} */
	const folders = new Map();
	for (const [from, targets] of graph) {
		const a = folderOf(from);
		if (!a) continue;
		if (!folders.has(a)) folders.set(a, new Map());
		for (const [to, kind] of targets) {
			const b = folderOf(to);
			if (!b || b === a) continue;
			const hops = /** @type {Map<string, Edge[]>} */ (folders.get(a));
			if (!hops.has(b)) hops.set(b, []);
			hops.get(b)?.push({ from: rel(root, from), to: rel(root, to), kind });
		}
	}
	/** @type {Map<string, Map<string, EdgeKind>>} */
	const folderGraph = new Map([...folders].map(([a, hops]) => [a, new Map([...hops.keys()].map((b) => [b, /** @type {EdgeKind} */ ('static')]))]));
	return elementaryCycles(folderGraph, MAX_CYCLES)
		.cycles.map((c) => ({
			folders: c,
			hops: c.map((a, i) => {
				const b = c[(i + 1) % c.length];
				const edges = [...(folders.get(a)?.get(b) ?? [])].sort((x, y) => STRENGTH[y.kind] - STRENGTH[x.kind] || x.from.localeCompare(y.from) || x.to.localeCompare(y.to));
				return { from: a, to: b, edges };
			})
		}))
		.sort((x, y) => x.folders.length - y.folders.length || x.folders.join().localeCompare(y.folders.join()));
}

/**
 * Every elementary cycle of a directed graph (Johnson's algorithm, per strongly connected part),
 * each rotated to start at its smallest node; stops after `limit`.
 * @param {Map<string, Map<string, unknown>>} graph
 * @param {number} limit
 * @returns {{ cycles: string[][], truncated: boolean }}
 */
export function elementaryCycles(graph, limit) {
	const nodes = [...graph.keys()].sort();
	const order = new Map(nodes.map((n, i) => [n, i]));
	/** @param {string} n */
	const next = (n) => [...(graph.get(n)?.keys() ?? [])].filter((m) => order.has(m));
	/** @type {string[][]} */
	const cycles = [];
	let truncated = false;
	for (let s = 0; s < nodes.length && !truncated; s++) {
		// The part of the graph from node s on that s can reach and that reaches s back.
		const allowed = new Set(nodes.slice(s));
		const part = stronglyConnected(nodes[s], (n) => next(n).filter((m) => allowed.has(m)));
		if (part.size < 2 && !next(nodes[s]).includes(nodes[s])) continue;
		const start = nodes[s];
		const blocked = new Set();
		/** @type {Map<string, Set<string>>} */
		const blockedBy = new Map();
		/** @type {string[]} */
		const stack = [];
		/** @param {string} n */
		const unblock = (n) => {
			blocked.delete(n);
			for (const m of blockedBy.get(n) ?? []) if (blocked.has(m)) unblock(m);
			blockedBy.delete(n);
		};
		/** @param {string} n @returns {boolean} */
		const circuit = (n) => {
			let closed = false;
			stack.push(n);
			blocked.add(n);
			for (const m of next(n)) {
				if (!part.has(m) || truncated) continue;
				if (m === start) {
					cycles.push([...stack]);
					if (cycles.length >= limit) truncated = true;
					closed = true;
				} else if (!blocked.has(m) && circuit(m)) closed = true;
			}
			if (closed) unblock(n);
			else for (const m of next(n)) if (part.has(m)) blockedBy.set(m, (blockedBy.get(m) ?? new Set()).add(n));
			stack.pop();
			return closed;
		};
		circuit(start);
	}
	return { cycles, truncated };
}

/**
 * The nodes on a cycle through `start` (its strongly connected component), by two reachability
 * walks: forwards from start, and backwards to it.
 * @param {string} start
 * @param {(n: string) => string[]} next
 * @returns {Set<string>}
 */
function stronglyConnected(start, next) {
	const forward = new Set([start]);
	/** @type {Map<string, string[]>} */
	const reverse = new Map();
	const todo = [start];
	while (todo.length) {
		const n = /** @type {string} */ (todo.pop());
		for (const m of next(n)) {
			if (!reverse.has(m)) reverse.set(m, []);
			reverse.get(m)?.push(n);
			if (!forward.has(m)) {
				forward.add(m);
				todo.push(m);
			}
		}
	}
	const both = new Set([start]);
	const back = [start];
	while (back.length) {
		const n = /** @type {string} */ (back.pop());
		for (const m of reverse.get(n) ?? []) {
			if (!both.has(m)) {
				both.add(m);
				back.push(m);
			}
		}
	}
	return both;
}

/**
 * The module specifiers a file imports, and how: `import type` / `export type` and `import('…')`
 * in a type position are type-only; an `import(…)` call is dynamic.
 * @param {string} file
 * @returns {Array<{ specifier: string, kind: EdgeKind }>}
 */
function importsOf(file) {
	const text = readFileSync(file, 'utf8');
	const scripts = file.endsWith('.svelte') ? [...text.matchAll(SCRIPT_BLOCK)].map((m) => m[1]) : [text];
	/** @type {Array<{ specifier: string, kind: EdgeKind }>} */
	const found = [];
	for (const script of scripts) {
		const source = ts.createSourceFile(file.endsWith('.svelte') ? `${file}.ts` : file, script, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
		/** @param {ts.Node} node */
		const visit = (node) => {
			if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
				const clause = node.importClause;
				const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
				const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
				found.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? 'type' : 'static' });
			} else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
				const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
				const typeOnly = node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly));
				found.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? 'type' : 'static' });
			} else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
				found.push({ specifier: node.moduleReference.expression.text, kind: node.isTypeOnly ? 'type' : 'static' });
			} else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
				found.push({ specifier: node.arguments[0].text, kind: 'dynamic' });
			} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
				found.push({ specifier: node.argument.literal.text, kind: 'type' });
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

/**
 * The file a specifier names, null for what is not ours (packages, `$app/…`, `./$types`, files
 * outside src), undefined for one of ours that names no file.
 * @param {string} specifier
 * @param {string} from
 * @param {{ root: string, srcDir: string, aliases: Array<[string, string]>, known: Set<string> }} ctx
 * @returns {string | null | undefined}
 */
function resolve(specifier, from, { root, srcDir, aliases, known }) {
	// SvelteKit's generated route types live in .svelte-kit, not in src.
	if (/(^|\/)\$types(\.js|\.ts)?$/.test(specifier)) return null;
	let base;
	if (specifier.startsWith('./') || specifier.startsWith('../')) base = path.resolve(path.dirname(from), specifier);
	else if (specifier === '$lib' || specifier.startsWith('$lib/')) base = path.join(srcDir, 'lib', specifier.slice(4));
	else if (specifier.startsWith('#')) {
		for (const [pattern, target] of aliases) {
			const star = pattern.indexOf('*');
			if (star < 0 ? specifier === pattern : specifier.startsWith(pattern.slice(0, star)) && specifier.endsWith(pattern.slice(star + 1))) {
				const middle = star < 0 ? '' : specifier.slice(star, specifier.length - (pattern.length - star - 1));
				base = path.resolve(root, target.replace('*', middle));
				break;
			}
		}
		if (!base) return undefined;
	} else return null;
	const candidates = [base, base.replace(/\.js$/, '.ts'), ...EXTENSIONS.map((ext) => base + ext)];
	const hit = candidates.find((c) => known.has(c));
	if (hit) return hit;
	// Ours but outside the walked files (package.json, tests/…): not part of src's graph.
	if (!base.startsWith(srcDir + path.sep) || candidates.some((c) => existsSync(c) && statSync(c).isFile())) return null;
	return undefined;
}

/**
 * package.json "imports" entries that map to one path (`"#lib/*": "./src/lib/*"`).
 * @param {string} root
 * @returns {Array<[string, string]>}
 */
function packageImports(root) {
	const file = path.join(root, 'package.json');
	if (!existsSync(file)) return [];
	const imports = JSON.parse(readFileSync(file, 'utf8')).imports ?? {};
	/** @type {Array<[string, string]>} */
	const entries = [];
	for (const [pattern, target] of Object.entries(imports)) {
		const plain = typeof target === 'string' ? target : (target?.default ?? target?.import ?? target?.node);
		if (typeof plain === 'string') entries.push([pattern, plain]);
	}
	// The longest pattern first, as Node resolves them.
	return entries.sort((a, b) => b[0].length - a[0].length);
}

/**
 * @param {string} dir
 * @returns {string[]}
 */
function walk(dir) {
	if (!existsSync(dir)) return [];
	/** @type {string[]} */
	const out = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...walk(full));
		else if (entry.isFile()) out.push(full);
	}
	return out.sort();
}

/** @param {string} root @param {string} file */
const rel = (root, file) => path.relative(root, file).split(path.sep).join('/');

/** @param {Cycle[]} cycles */
function sortCycles(cycles) {
	return cycles.sort((a, b) => a.files.length - b.files.length || a.files.join().localeCompare(b.files.join()));
}

/** @param {Cycle} cycle */
export const isTypeOnly = (cycle) => cycle.kinds.includes('type');

/** @param {EdgeKind} kind */
const arrow = (kind) => (kind === 'static' ? ' → ' : kind === 'type' ? ' → (type-only) ' : ' → (dynamic import) ');

/**
 * The report for a person.
 * @param {CycleReport} report
 * @returns {string}
 */
export function formatReport(report) {
	const lines = [];
	const { fileCycles, folderCycles } = report;
	const typeOnly = fileCycles.filter(isTypeOnly).length;
	lines.push(`${report.files} files under src/.`);
	lines.push('');
	lines.push(fileCycles.length ? `File-level import cycles: ${fileCycles.length}${report.truncated ? '+ (listing stopped)' : ''} (${fileCycles.length - typeOnly} at run time, ${typeOnly} through a type-only import)` : 'File-level import cycles: none');
	fileCycles.forEach((c, i) => {
		const chain = c.files.map((f, j) => (j === 0 ? f : arrow(c.kinds[j - 1]) + f)).join('') + arrow(c.kinds[c.kinds.length - 1]) + c.files[0];
		lines.push(`  ${i + 1}. ${isTypeOnly(c) ? '[type-only] ' : ''}${chain}`);
	});
	lines.push('');
	lines.push(folderCycles.length ? `Folder-level cycles among src/lib/*: ${folderCycles.length}` : 'Folder-level cycles among src/lib/*: none');
	folderCycles.forEach((c, i) => {
		lines.push(`  ${i + 1}. ${[...c.folders, c.folders[0]].join(' → ')}`);
		for (const hop of c.hops) {
			const [first] = hop.edges;
			const more = hop.edges.length > 1 ? ` (+${hop.edges.length - 1} more)` : '';
			lines.push(`       ${hop.from} → ${hop.to}: ${first.from}${arrow(first.kind)}${first.to}${more}`);
		}
	});
	lines.push('');
	lines.push(report.layers.length ? `Imports against the layers: ${report.layers.length}` : 'Imports against the layers: none');
	for (const v of report.layers) lines.push(`  ${v.from} → ${v.to} (${v.rule})`);
	if (report.unresolved.length) {
		lines.push('');
		lines.push(`Imports of project files that name no file: ${report.unresolved.length}`);
		for (const u of report.unresolved) lines.push(`  ${u.file}: '${u.specifier}'`);
	}
	return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const args = process.argv.slice(2);
	const at = args.indexOf('--root');
	const root = at >= 0 && args[at + 1] ? path.resolve(args[at + 1]) : path.resolve(import.meta.dirname, '..');
	const report = checkCycles({ root });
	const failed = report.fileCycles.length > 0 || report.layers.length > 0;
	// --quiet (npm run check): one line when all is well, the whole report when not.
	if (args.includes('--quiet') && !failed) console.log(`check-cycles: ${report.files} files, no import cycle, no import against the layers`);
	else console.log(args.includes('--json') ? JSON.stringify(report, null, 2) : formatReport(report));
	process.exitCode = failed ? 1 : 0;
}

// adapter-node with a compression step that reuses variants made ahead of time: the model files
// in static/models arrive with their .br/.gz (scripts/build-models.js, brotli quality 9), so the
// build only compresses the app's own assets (small: quality 11 is cheap there). Also serves the
// .onnx/.tflite weights compressed, which the stock step skips (it only knows text and wasm).
import { createReadStream, createWriteStream, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import nodeAdapter from '@sveltejs/adapter-node';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.json', '.css', '.svg', '.xml', '.wasm', '.txt', '.md', '.onnx', '.tflite']);

/** @param {string} dir @param {string} [base] @returns {Generator<string>} */
function* walk(dir, base = dir) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) yield* walk(full, base);
		else yield path.relative(base, full).split(path.sep).join('/');
	}
}

/** @param {string} file */
async function compressFile(file) {
	const size = statSync(file).size;
	await Promise.all([
		pipeline(createReadStream(file), zlib.createGzip({ level: 9 }), createWriteStream(`${file}.gz`)),
		pipeline(
			createReadStream(file),
			zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: size > 1_000_000 ? 9 : 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } }),
			createWriteStream(`${file}.br`)
		)
	]);
}

/**
 * adapter-node reads BODY_SIZE_LIMIT with a default of 512K, smaller than a session with a
 * reference photo in providedData or a document photo upload. Our handlers cap each body
 * themselves (8 MB JSON, per-kind media caps), so the server-wide default becomes 16M; the
 * variable still overrides it.
 * @param {string} file
 */
function raiseBodySizeLimit(file) {
	const source = readFileSync(file, 'utf8');
	const patched = source.replace('env("BODY_SIZE_LIMIT", "512K")', 'env("BODY_SIZE_LIMIT", "16M")');
	if (patched === source) throw new Error(`adapter-node changed: BODY_SIZE_LIMIT default not found in ${file}`);
	writeFileSync(file, patched);
}

/** @param {import('@sveltejs/adapter-node').AdapterOptions} options */
export default function adapter(options = {}) {
	const node = nodeAdapter({ ...options, precompress: true });
	return {
		...node,
		name: 'veriflow-adapter-node',
		/** @param {import('@sveltejs/kit').Builder} builder */
		async adapt(builder) {
			/** @param {string} directory */
			builder.compress = async (directory) => {
				if (!existsSync(directory)) return [];
				/** @type {string[]} */
				const out = [];
				/** @type {string[]} */
				const todo = [];
				for (const file of walk(directory)) {
					if (file.endsWith('.br') || file.endsWith('.gz') || !COMPRESSIBLE.has(path.extname(file))) continue;
					const abs = path.join(directory, file);
					out.push(file);
					// The output directory is new on every build: a variant already there came from static/ with its file.
					const fresh = existsSync(`${abs}.br`) && existsSync(`${abs}.gz`);
					if (!fresh) todo.push(abs);
				}
				let i = 0;
				await Promise.all(Array.from({ length: 4 }, async () => { while (i < todo.length) await compressFile(todo[i++]); }));
				return out;
			};
			await node.adapt(builder);
			raiseBodySizeLimit(path.join(options.out ?? 'build', 'server', 'adapter-node-handler.js'));
		}
	};
}

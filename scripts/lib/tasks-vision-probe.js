#!/usr/bin/env node
// Creates a tasks-vision FaceDetector in Node (no browser) with a given .tflite, to prove that the model's
// metadata is accepted. Node has no WebGL, so graph start-up always ends at MediaPipe's GPU service;
// what matters is whether it gets that far: a model without NormalizationOptions fails earlier, while
// the graph is configured. Prints one JSON line: { created, stage, error }.
// Usage: node scripts/lib/tasks-vision-probe.js path/to/model.tflite
// Run it in its own process: it installs browser-like globals.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const vision = join(root, 'node_modules', '@mediapipe', 'tasks-vision');
const g = /** @type {any} */ (globalThis);
g.self = globalThis;
g.require = createRequire(import.meta.url);
g.importScripts = (/** @type {string} */ url) => vm.runInThisContext(readFileSync(url, 'utf8'), { filename: url });
g.OffscreenCanvas = class {
	/** @param {number} width @param {number} height */
	constructor(width, height) {
		this.width = width;
		this.height = height;
	}
	getContext() {
		return null;
	}
};
g.WebGLRenderingContext = class {};
g.WebGL2RenderingContext = class {};

const model = new Uint8Array(readFileSync(process.argv[2]));
const { FaceDetector } = await import(join(vision, 'vision_bundle.mjs'));
const fileset = {
	wasmLoaderPath: join(vision, 'wasm', 'vision_wasm_internal.js'),
	wasmBinaryPath: join(vision, 'wasm', 'vision_wasm_internal.wasm')
};
// The wasm runtime logs every failure with a long trace on stderr; keep our one line readable.
const quiet = process.stderr.write.bind(process.stderr);
process.stderr.write = () => true;
let result;
try {
	await FaceDetector.createFromOptions(fileset, {
		baseOptions: { modelAssetBuffer: model, delegate: 'CPU' },
		runningMode: 'IMAGE'
	});
	result = { created: true, stage: 'created', error: null };
} catch (e) {
	const error = String(e instanceof Error ? e.message : e).split('\n')[0].slice(0, 400);
	const stage = /kGpuService|webgl/i.test(error) ? 'gpu-service' : /NormalizationOptions/.test(error) ? 'metadata' : 'other';
	result = { created: false, stage, error };
}
process.stderr.write = quiet;
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);

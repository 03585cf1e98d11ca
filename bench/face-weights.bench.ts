/**
 * `npm run bench face-weights`: the face models as the package ships them (float32) against the
 * float16 copies page and server run (face-model-weights.js), and an int8 copy (per-channel,
 * symmetric) for comparison: bytes (raw and brotli, as served), session creation and inference in
 * onnxruntime-web (wasm, one thread, SIMD: what the page's worker runs) and onnxruntime-node, each
 * the median of interleaved runs in the same process; then accuracy on tests/fixtures/faces (min
 * embedding cosine to float32, largest liveness change, largest landmark shift).
 * Writes bench/results/face-weights.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web/wasm';
import { cosineSimilarity } from '../src/lib/face/embedding.ts';
import { FacePipeline, type FaceAnalysis } from '../src/lib/face/face-pipeline.ts';
import type { FaceSessions, OrtSession } from '../src/lib/face/ort-runtime.ts';
import { webRuntime } from '../src/lib/camera/ort-web.ts';
import { faceModelBytes } from '../src/lib/server/biometrics/face-engine.ts';
import { decodeImage } from '../src/lib/server/biometrics/image-decode.ts';
import { compressWeights } from '../src/lib/server/biometrics/onnx-weights.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results');
const RUNS = Number(process.env.BENCH_FW_RUNS ?? 30);
mkdirSync(RESULTS, { recursive: true });
const require = createRequire(import.meta.url);
ortWeb.env.wasm.numThreads = 1;
ortWeb.env.wasm.wasmBinary = readFileSync(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'));

const MODELS = [
	{ name: 'fr_landmark', dims: [1, 1, 64, 64] },
	{ name: 'fr_feature', dims: [1, 3, 112, 112] },
	{ name: 'fr_liveness', dims: [1, 3, 128, 128] }
] as const;
type Variant = 'float32' | 'float16' | 'int8';
const VARIANTS: Variant[] = ['float32', 'float16', 'int8'];

const bytesOf = (name: string, v: Variant): Uint8Array => {
	const original = faceModelBytes(name, { weights: 'original' });
	return v === 'float32' ? original : v === 'float16' ? faceModelBytes(name) : compressWeights(original, { format: 'int8' }).bytes;
};
const brotli = (b: Uint8Array) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// Web options as the page's worker (ort-web.ts): graph optimisation 'all', wasm EP.
const webSession = (b: Uint8Array) => ortWeb.InferenceSession.create(b, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
const nodeSession = (name: string, b: Uint8Array) => ortNode.InferenceSession.create(b, { intraOpNumThreads: 1, graphOptimizationLevel: name === 'fr_feature' ? 'extended' : 'all' });

interface Timing {
	createWeb: number;
	web: number[];
	node: number[];
}
const rows: { name: string; variant: Variant; raw: number; br: number; t: Timing }[] = [];
// The runtime's own start (compiling its wasm) belongs to no model: pay it before timing creations.
await webSession(faceModelBytes('fr_detect'));
for (const { name, dims } of MODELS) {
	const size = dims.reduce((a: number, b: number) => a * b, 1);
	const input = new Float32Array(size).map((_, i) => ((i * 7919) % 255) / 128 - 1);
	const sessions = [];
	for (const v of VARIANTS) {
		const b = bytesOf(name, v);
		const t0 = performance.now();
		const web = await webSession(b);
		const createWeb = performance.now() - t0;
		const node = await nodeSession(name, b);
		const row = { name, variant: v, raw: b.length, br: brotli(b), t: { createWeb, web: [] as number[], node: [] as number[] } };
		rows.push(row);
		sessions.push({ row, web, node });
	}
	// Interleaved: every variant's run i happens in the same moment of this shared machine's load.
	for (let i = 0; i < RUNS + 3; i++) {
		for (const s of sessions) {
			let t = performance.now();
			await s.web.run({ [s.web.inputNames[0]]: new ortWeb.Tensor('float32', input, [...dims]) });
			const web = performance.now() - t;
			t = performance.now();
			await s.node.run({ [s.node.inputNames[0]]: new ortNode.Tensor('float32', input, [...dims]) });
			const node = performance.now() - t;
			if (i >= 3) {
				s.row.t.web.push(web);
				s.row.t.node.push(node);
			}
		}
	}
}

// Accuracy on the fixtures, with the page's runtime (onnxruntime-web).
const PHOTOS = ['barack_obama_1.jpg', 'barack_obama_2.jpg', 'joe_biden_2_800w.jpg', 'eileen_collins_1.jpg', 'codait_luciano_1.jpg', 'group_obama_family_2011.jpg', 'live_minivision_1.jpg', 'spoof_screen_minivision_1.jpg'];
const images = await Promise.all(PHOTOS.map((p) => decodeImage(readFileSync(path.join(ROOT, 'tests/fixtures/faces', p)))));
const analyses: Record<Variant, FaceAnalysis[]> = { float32: [], float16: [], int8: [] };
for (const v of VARIANTS) {
	const s = async (name: string) => (await webSession(name === 'fr_detect' ? faceModelBytes('fr_detect') : bytesOf(name, v))) as unknown as OrtSession;
	const sessions: FaceSessions = { detect: await s('fr_detect'), landmark: await s('fr_landmark'), feature: await s('fr_feature'), liveness: await s('fr_liveness') };
	const pipeline = new FacePipeline(webRuntime(ortWeb), sessions);
	for (const image of images) analyses[v].push(...(await pipeline.analyse(image)));
}
const accuracy = (v: Variant) => {
	const base = analyses.float32;
	const got = analyses[v];
	if (got.length !== base.length) return `faces found ${got.length} vs ${base.length}`;
	const cos = Math.min(...base.map((a, i) => cosineSimilarity(a.embedding!, got[i].embedding!)));
	const live = Math.max(...base.map((a, i) => Math.abs(a.liveness! - got[i].liveness!)));
	const lm = Math.max(...base.flatMap((a, i) => [...a.landmarks].map((x, k) => Math.abs(x - got[i].landmarks[k]))));
	return `min cosine ${cos.toFixed(5)}, max |Δ liveness| ${live.toFixed(4)}, max landmark shift ${lm.toFixed(2)} px (${base.length} faces)`;
};

const kb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const lines = [
	`Face model weights, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}: medians of ${RUNS} interleaved runs per model and variant, onnxruntime-web ${ortWeb.env.versions.web} (wasm, 1 thread) and onnxruntime-node (1 thread), same process.`,
	'',
	'| model | weights | bytes | brotli | ort-web create | ort-web inference | ort-node inference |',
	'|---|---|---:|---:|---:|---:|---:|',
	...rows.map((r) => `| ${r.name} | ${r.variant} | ${kb(r.raw)} | ${kb(r.br)} | ${ms(r.t.createWeb)} | ${ms(median(r.t.web))} | ${ms(median(r.t.node))} |`),
	...VARIANTS.map((v) => {
		const of = rows.filter((r) => r.variant === v);
		return `| **three models** | ${v} | ${kb(of.reduce((a, r) => a + r.raw, 0))} | ${kb(of.reduce((a, r) => a + r.br, 0))} | ${ms(of.reduce((a, r) => a + r.t.createWeb, 0))} | ${ms(of.reduce((a, r) => a + median(r.t.web), 0))} | ${ms(of.reduce((a, r) => a + median(r.t.node), 0))} |`;
	}),
	'',
	`Accuracy against float32 on tests/fixtures/faces (onnxruntime-web): float16 — ${accuracy('float16')}; int8 — ${accuracy('int8')}.`,
	'',
	`Load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' / ')}.`
];
const table = lines.join('\n') + '\n';
console.log(`\n${table}`);
writeFileSync(path.join(RESULTS, 'face-weights.md'), table);

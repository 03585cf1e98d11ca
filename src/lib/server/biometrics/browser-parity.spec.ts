// The browser (onnxruntime-web, WebAssembly) and the server (onnxruntime-node) run the same
// FacePipeline; the server's verdict on uploaded evidence must agree with what the browser saw.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as ortWeb from 'onnxruntime-web/wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import { FacePipeline, type FaceAnalysis } from '#lib/face/face-pipeline.ts';
import { MODEL_FILES } from '#lib/camera/model-files.ts';
import { createWebFaceSessions, webRuntime } from '#lib/camera/ort-web.ts';
import { FaceEngine, faceModelBytes } from './face-engine.ts';
import { decodeImage } from './image-decode.ts';

const require = createRequire(import.meta.url);
// The package's exports hide package.json; its .wasm is exported by name.
const ortWasm = require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm');
const photos = ['barack_obama_2.jpg', 'live_minivision_1.jpg', 'spoof_screen_minivision_1.jpg'];
const results: Array<{ node: FaceAnalysis[]; web: FaceAnalysis[] }> = [];

beforeAll(async () => {
	const sessions = await createWebFaceSessions(ortWeb, {
		wasmBinary: readFileSync(ortWasm),
		// static/models/faceplugin/x.onnx: the package's model/x.onnx as the server converts it
		// (face-model-weights.spec.ts checks that the build writes these very bytes)
		load: async (url) => faceModelBytes((url.split('/').at(-1) as string).replace(/\.onnx$/, ''))
	});
	const web = new FacePipeline(webRuntime(ortWeb), sessions);
	const engine = await FaceEngine.create();
	for (const name of photos) {
		const image = await decodeImage(readFileSync(new URL(`../../../../tests/fixtures/faces/${name}`, import.meta.url)));
		results.push({ node: await engine.pipeline.analyse(image), web: await web.analyse(image) });
	}
}, 120_000);

describe('browser and server pipelines', () => {
	it('load the models from the URLs the app serves', () => {
		expect(MODEL_FILES.frFeature).toBe('/models/faceplugin/fr_feature.onnx');
	});

	it.each(photos.map((p, i) => [p, i] as const))('agree on %s: same box, landmarks, embedding and liveness', (_, i) => {
		const { node, web } = results[i];
		expect(web).toHaveLength(node.length);
		const [a, b] = [node[0], web[0]];
		expect(Math.abs(a.box.x - b.box.x)).toBeLessThan(0.5);
		expect(Math.abs(a.box.width - b.box.width)).toBeLessThan(0.5);
		for (let k = 0; k < 136; k++) expect(Math.abs(a.landmarks[k] - b.landmarks[k])).toBeLessThan(0.5);
		expect(cosineSimilarity(a.embedding!, b.embedding!)).toBeGreaterThan(0.999);
		expect(Math.abs(a.liveness! - b.liveness!)).toBeLessThan(0.01);
	});
});

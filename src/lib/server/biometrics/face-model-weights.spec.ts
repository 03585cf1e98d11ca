// The float16 face models (face-model-weights.js) against the package's float32 ones on the fixture
// photos: the same faces, embeddings, liveness and quality verdicts. Fails when a conversion drifts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_THRESHOLD } from '#lib/domain/face/thresholds.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import type { FaceAnalysis } from '#lib/face/face-pipeline.ts';
import { LIVENESS_THRESHOLD } from '#lib/face/face-thresholds.ts';
import { qualityGate } from '#lib/face/quality-gate.ts';
import { buildModels } from '../../../../scripts/build-models.js';
import { FACE_MODEL_WEIGHTS } from './face-model-weights.js';
import { FaceEngine, faceModelBytes } from './face-engine.ts';

const PHOTOS = ['barack_obama_1.jpg', 'barack_obama_2.jpg', 'joe_biden_2_800w.jpg', 'eileen_collins_1.jpg', 'codait_luciano_1.jpg', 'group_obama_family_2011.jpg', 'live_minivision_1.jpg', 'spoof_screen_minivision_1.jpg'];
const fixture = (name: string) => readFileSync(new URL(`../../../../tests/fixtures/faces/${name}`, import.meta.url));

const original: FaceAnalysis[] = [];
const served: FaceAnalysis[] = [];
const outDir = mkdtempSync(join(tmpdir(), 'veriflow-models-'));

beforeAll(async () => {
	const engines = [await FaceEngine.create({ weights: 'original' }), await FaceEngine.create()];
	for (const name of PHOTOS) {
		original.push(...(await engines[0].analyseBytes(fixture(name))).faces);
		served.push(...(await engines[1].analyseBytes(fixture(name))).faces);
	}
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('float16 face models', () => {
	it('are the files the page downloads, byte for byte, and half the size of the originals', () => {
		buildModels({ outDir, compress: false, log: () => {} });
		for (const name of Object.keys(FACE_MODEL_WEIGHTS)) {
			const page = readFileSync(join(outDir, 'faceplugin', `${name}.onnx`));
			const server = faceModelBytes(name);
			expect(Buffer.compare(page, server), name).toBe(0);
			expect(server.length / faceModelBytes(name, { weights: 'original' }).length, name).toBeLessThan(0.55);
		}
	});

	it('find the same faces at the same places', () => {
		expect(original.length).toBe(11);
		expect(served).toHaveLength(original.length);
		for (const [i, a] of original.entries()) {
			const b = served[i];
			expect(Math.abs(a.box.x - b.box.x) + Math.abs(a.box.width - b.box.width)).toBeLessThan(0.01);
			// 68 landmarks (fr_landmark is float16 too): within a fifth of a pixel.
			for (let k = 0; k < 136; k++) expect(Math.abs(a.landmarks[k] - b.landmarks[k])).toBeLessThan(0.2);
		}
	});

	it('keep every embedding within cosine 0.999 of the float32 one, and every match decision', () => {
		for (const [i, a] of original.entries()) expect(cosineSimilarity(a.embedding!, served[i].embedding!)).toBeGreaterThanOrEqual(0.999);
		for (let i = 0; i < original.length; i++) {
			for (let j = i + 1; j < original.length; j++) {
				const before = cosineSimilarity(original[i].embedding!, original[j].embedding!);
				const after = cosineSimilarity(served[i].embedding!, served[j].embedding!);
				expect(Math.abs(before - after)).toBeLessThan(0.002);
				expect(after >= MATCH_THRESHOLD).toBe(before >= MATCH_THRESHOLD);
			}
		}
	});

	it('keep liveness within 0.01 and every live/spoof and quality verdict', () => {
		for (const [i, a] of original.entries()) {
			const b = served[i];
			expect(Math.abs(a.liveness! - b.liveness!)).toBeLessThan(0.01);
			expect(b.liveness! >= LIVENESS_THRESHOLD).toBe(a.liveness! >= LIVENESS_THRESHOLD);
			const gate = (f: FaceAnalysis) => qualityGate({ faceCount: 1, face: f.quality });
			expect(gate(b).reasons).toEqual(gate(a).reasons);
			expect(Math.abs(gate(b).score - gate(a).score)).toBeLessThan(0.01);
		}
	});
});

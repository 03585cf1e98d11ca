// Age and sex estimate of a detected face with face-api's AgeGenderNet (TinyXception, 112×112 input),
// on tfjs's WebAssembly backend: no native tfjs-node build. Not wired into the app: the evaluation in
// scripts/eval/age-sex.ts decides whether it is worth shipping (see bench/results/age-sex-eval.md).
// Its packages (@vladmandic/face-api, @tensorflow/tfjs, @tensorflow/tfjs-backend-wasm) are
// devDependencies; shipping it would move them to dependencies.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { shiftInside, squareBox } from '../../src/lib/face/box.ts';
import type { Box, RgbaImage } from '../../src/lib/face/image.ts';
import { cropResize } from '../../src/lib/face/sample.ts';

type FaceApi = typeof import('@vladmandic/face-api/dist/face-api.node-wasm.js');
type Tf = typeof import('@tensorflow/tfjs');

const require = createRequire(import.meta.url);
const INPUT = 112;

export interface AgeSex {
	/** Years (a point estimate: mean absolute error ≈ 6 years on the fixtures). */
	age: number;
	sex: 'male' | 'female';
	/** Probability of the returned sex, 0.5–1. */
	sexProbability: number;
}

export interface AgeSexEstimator {
	/** Estimates from the face in `box` (a detector box in image pixels). */
	estimate(image: RgbaImage, box: Box): Promise<AgeSex>;
}

/** Loads the network once; `backend` 'wasm' (default, ~30 ms a face here) or 'cpu' (~20× slower). */
export async function createAgeSexEstimator({ backend = 'wasm' }: { backend?: 'wasm' | 'cpu' } = {}): Promise<AgeSexEstimator> {
	const tf = require('@tensorflow/tfjs') as Tf;
	require('@tensorflow/tfjs-backend-wasm');
	const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
	await tf.setBackend(backend);
	await tf.ready();
	const net = new faceapi.AgeGenderNet();
	await net.loadFromDisk(join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model'));
	const chw = new Float32Array(3 * INPUT * INPUT);
	const hwc = new Float32Array(3 * INPUT * INPUT);
	return {
		async estimate(image, box) {
			// The square box measured best (MAE 6.3 vs 6.5 for the raw box, 6.4 for ×1.2).
			const crop = shiftInside(squareBox(box), image.width, image.height);
			cropResize(image, crop, INPUT, INPUT, { channels: 'rgb', mean: 0, scale: 1 }, chw);
			for (let i = 0; i < INPUT * INPUT; i++) {
				hwc[3 * i] = chw[i];
				hwc[3 * i + 1] = chw[INPUT * INPUT + i];
				hwc[3 * i + 2] = chw[2 * INPUT * INPUT + i];
			}
			const input = tf.tensor3d(hwc, [INPUT, INPUT, 3]);
			try {
				const result = (await net.predictAgeAndGender(input as unknown as Parameters<typeof net.predictAgeAndGender>[0])) as { age: number; gender: string; genderProbability: number };
				return { age: result.age, sex: result.gender === 'male' ? 'male' : 'female', sexProbability: result.genderProbability };
			} finally {
				input.dispose();
			}
		}
	};
}

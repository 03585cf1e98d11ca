// Age and sex of a detected face: face-api's AgeGenderNet (TinyXception, 112×112 input) on
// TensorFlow.js's WebAssembly backend, the best estimator measured among the installed packages
// (scripts/eval/age-sex.ts; faceplugin's fr_age/fr_gender, already a dependency, were off by 12–16
// years whatever the input convention: scripts/eval/age-sex-faceplugin.ts).
//
// Loaded lazily, on the first estimate, and through a runtime require so the build does not bundle
// TensorFlow.js: @vladmandic/face-api, @tensorflow/tfjs and @tensorflow/tfjs-backend-wasm are
// devDependencies today. Where they are not installed (`npm ci --omit=dev`), there is no estimator
// and the report leaves age and sex out rather than guessing them.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { shiftInside, squareBox } from '#lib/face/box.ts';
import type { Box, RgbaImage } from '#lib/face/image.ts';
import { cropResize } from '#lib/face/sample.ts';
import { logger } from '../logger.ts';

const require = createRequire(import.meta.url);
const INPUT = 112;

/** What the network produced for one face: nothing here is derived or defaulted. */
export interface AgeSex {
	/** Years, the network's point estimate. */
	age: number;
	sex: 'male' | 'female';
	/** The network's probability of `sex`, 0.5–1. */
	sexProbability: number;
}

export interface AgeSexEstimator {
	/** Estimates from the face in `box` (a detector box in image pixels). */
	estimate(image: RgbaImage, box: Box): Promise<AgeSex>;
}

// The few members of TensorFlow.js and face-api used here, typed by hand: the packages are loaded at
// run time (see the file comment), and face-api's bundled tfjs types differ from @tensorflow/tfjs's.
interface Tensor3D {
	dispose(): void;
}
interface Tf {
	setBackend(name: string): Promise<boolean>;
	ready(): Promise<void>;
	tensor3d(values: Float32Array, shape: [number, number, number]): Tensor3D;
}
interface AgeGenderNet {
	loadFromDisk(dir: string): Promise<void>;
	predictAgeAndGender(input: Tensor3D): Promise<{ age: number; gender: string; genderProbability: number }>;
}
interface FaceApi {
	AgeGenderNet: new () => AgeGenderNet;
}

/** Loads the network; throws when its packages are not installed. */
export async function createAgeSexEstimator(): Promise<AgeSexEstimator> {
	const tf: Tf = require('@tensorflow/tfjs');
	require('@tensorflow/tfjs-backend-wasm');
	const faceapi: FaceApi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
	await tf.setBackend('wasm');
	await tf.ready();
	const net = new faceapi.AgeGenderNet();
	await net.loadFromDisk(join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model'));
	const chw = new Float32Array(3 * INPUT * INPUT);
	const hwc = new Float32Array(3 * INPUT * INPUT);
	let queue: Promise<unknown> = Promise.resolve();
	const estimate = async (image: RgbaImage, box: Box): Promise<AgeSex> => {
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
			const result = await net.predictAgeAndGender(input);
			return { age: result.age, sex: result.gender === 'male' ? 'male' : 'female', sexProbability: result.genderProbability };
		} finally {
			input.dispose();
		}
	};
	return {
		// One set of input buffers: estimates run one after another.
		estimate(image, box) {
			const run = queue.then(() => estimate(image, box));
			queue = run.catch(() => undefined);
			return run;
		}
	};
}

let shared: Promise<AgeSexEstimator | null> | undefined;

/**
 * The process-wide estimator, loaded on first use (≈2 s); null, and said once in the log, when its
 * packages are not installed or fail to load.
 */
export function getAgeSexEstimator(): Promise<AgeSexEstimator | null> {
	shared ??= createAgeSexEstimator().catch((error: unknown) => {
		logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'age and sex estimator unavailable: aiAnalysis leaves ageMin, ageMax and sex out');
		return null;
	});
	return shared;
}

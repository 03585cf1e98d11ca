// The server's face engine: the isomorphic FacePipeline on onnxruntime-node, models loaded from the
// npm package (not static/, so it works without a build), sessions created once and reused.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { FacePipeline, type AnalyseOptions, type FaceAnalysis } from '#lib/vision/face-pipeline.ts';
import type { FaceSessions, OrtRuntime, OrtSession } from '#lib/vision/ort-runtime.ts';
import { decodeImage, type DecodedImage } from './image-decode.ts';

const require = createRequire(import.meta.url);

/** Directory of the faceplugin ONNX models inside node_modules. */
export function faceModelDir(): string {
	return join(dirname(require.resolve('faceplugin-face-recognition-js/package.json')), 'model');
}

export const nodeRuntime: OrtRuntime = {
	tensor: (data, dims) => new ort.Tensor('float32', data, [...dims])
};

export interface FaceEngineOptions {
	/** Threads per inference (default 1: the server handles requests in parallel rather than one op wider). */
	threads?: number;
	modelDir?: string;
}

/**
 * Graph optimisation per model, measured: ORT's NCHWc layout ('all') makes fr_detect and fr_landmark
 * 3× faster, but fr_feature 2.5× slower (a layout reorder around each of its 33 PRelu), so that one
 * stays at 'extended'.
 */
const OPTIMIZATION: Record<string, 'extended' | 'all'> = {
	fr_detect: 'all',
	fr_landmark: 'all',
	fr_feature: 'extended',
	fr_liveness: 'all'
};

async function createSessions({ threads = 1, modelDir = faceModelDir() }: FaceEngineOptions): Promise<FaceSessions> {
	const load = async (name: string): Promise<OrtSession> =>
		(await ort.InferenceSession.create(join(modelDir, `${name}.onnx`), {
			intraOpNumThreads: threads,
			interOpNumThreads: 1,
			graphOptimizationLevel: OPTIMIZATION[name] ?? 'all',
			executionMode: 'sequential'
		})) as unknown as OrtSession;
	const [detect, landmark, feature, liveness] = await Promise.all(
		['fr_detect', 'fr_landmark', 'fr_feature', 'fr_liveness'].map(load)
	);
	return { detect, landmark, feature, liveness };
}

export class FaceEngine {
	readonly pipeline: FacePipeline;
	// One pipeline owns one set of input buffers: serialise its runs so that concurrent requests
	// never refill a tensor that an inference is still reading.
	#queue: Promise<unknown> = Promise.resolve();

	private constructor(sessions: FaceSessions) {
		this.pipeline = new FacePipeline(nodeRuntime, sessions);
	}

	static async create(options: FaceEngineOptions = {}): Promise<FaceEngine> {
		return new FaceEngine(await createSessions(options));
	}

	/** Runs `task` after every task queued before it. */
	exclusive<T>(task: (pipeline: FacePipeline) => Promise<T>): Promise<T> {
		const run = this.#queue.then(() => task(this.pipeline));
		this.#queue = run.catch(() => undefined);
		return run;
	}

	/** Decodes an uploaded image and analyses every face in it. */
	async analyseBytes(bytes: Uint8Array, options?: AnalyseOptions): Promise<{ image: DecodedImage; faces: FaceAnalysis[] }> {
		const image = await decodeImage(bytes);
		return { image, faces: await this.exclusive((p) => p.analyse(image, options)) };
	}
}

let shared: Promise<FaceEngine> | undefined;

/** The process-wide engine, created on first use. */
export function getFaceEngine(): Promise<FaceEngine> {
	shared ??= FaceEngine.create().catch((error: unknown) => {
		shared = undefined;
		throw error;
	});
	return shared;
}

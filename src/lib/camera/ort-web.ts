// The face pipeline's sessions on onnxruntime-web (browser worker). Takes the onnxruntime-web module
// as an argument, so the caller picks the bundle: `onnxruntime-web/wasm` (CPU, SIMD, one thread: works
// without cross-origin isolation, which an embedded iframe rarely has) or `onnxruntime-web` (adds
// WebGPU). Model and WASM files come from our own origin (static/models, see model-files.ts).
import type * as OrtWeb from 'onnxruntime-web';
import type { FaceSessions, OrtRuntime, OrtSession } from '#lib/face/ort-runtime.ts';
import { MODEL_FILES } from './model-files.ts';

export interface WebFaceSessionOptions {
	/** Fetches a model file (default: fetch() from our origin). */
	load?: (url: string) => Promise<Uint8Array>;
	/** The runtime's .wasm bytes, when the caller has them (tests, or a worker that prefetched). */
	wasmBinary?: Uint8Array;
	/** Execution providers in order of preference (default ['wasm']). */
	executionProviders?: string[];
	/** Threads; more than one needs cross-origin isolation (default 1). */
	threads?: number;
}

/** A runtime over the given onnxruntime-web module. */
export function webRuntime(ort: typeof OrtWeb): OrtRuntime {
	return { tensor: (data, dims) => new ort.Tensor('float32', data, [...dims]) };
}

async function fetchBytes(url: string): Promise<Uint8Array> {
	const response = await fetch(url);
	if (!response.ok) throw new Error(`could not load ${url}: HTTP ${response.status}`);
	return new Uint8Array(await response.arrayBuffer());
}

/** Creates the four face sessions with onnxruntime-web (fr_detect on first use). */
export async function createWebFaceSessions(ort: typeof OrtWeb, options: WebFaceSessionOptions = {}): Promise<FaceSessions> {
	const { load = fetchBytes, wasmBinary, executionProviders = ['wasm'], threads = 1 } = options;
	ort.env.wasm.numThreads = threads;
	if (wasmBinary) ort.env.wasm.wasmBinary = wasmBinary;
	else ort.env.wasm.wasmPaths = MODEL_FILES.ortWasmDir;
	const create = async (url: string): Promise<OrtSession> =>
		(await ort.InferenceSession.create(await load(url), {
			executionProviders,
			graphOptimizationLevel: 'all'
		})) as unknown as OrtSession;
	const [landmark, feature, liveness] = await Promise.all([create(MODEL_FILES.frLandmark), create(MODEL_FILES.frFeature), create(MODEL_FILES.frLiveness)]);
	return { detect: lazySession(() => create(MODEL_FILES.frDetect), FR_DETECT_IO), landmark, feature, liveness };
}

/** fr_detect's input and outputs (MODELS.md), known before the model is loaded. */
const FR_DETECT_IO = { inputNames: ['input'], outputNames: ['scores', 'boxes'] } as const;

/**
 * A session created on its first run. In the browser the page's detector (MediaPipe) hands the worker
 * a face box, so fr_detect (1 MB brotli) runs only when a frame comes without one: most sessions
 * never download it.
 */
export function lazySession(create: () => Promise<OrtSession>, io: { inputNames: readonly string[]; outputNames: readonly string[] }): OrtSession {
	let session: Promise<OrtSession> | null = null;
	return {
		inputNames: io.inputNames,
		outputNames: io.outputNames,
		async run(feeds) {
			session ??= create().catch((err) => {
				session = null; // a failed download may be retried by the next frame
				throw err;
			});
			return (await session).run(feeds);
		}
	};
}

// What the face pipeline uses of onnxruntime, so that the same code runs on onnxruntime-node (server)
// and onnxruntime-web (browser worker). Both packages' InferenceSession and Tensor fit these shapes.

export interface OrtTensor {
	readonly data: unknown;
	readonly dims: readonly number[];
}

export interface OrtSession {
	readonly inputNames: readonly string[];
	readonly outputNames: readonly string[];
	run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
}

export interface OrtRuntime {
	/** A float32 tensor over `data` (not a copy: the pipeline refills `data` and runs again). */
	tensor(data: Float32Array, dims: readonly number[]): OrtTensor;
}

/** The four sessions of the face pipeline. */
export interface FaceSessions {
	detect: OrtSession;
	landmark: OrtSession;
	feature: OrtSession;
	liveness: OrtSession;
}

/** The output's data as float32 (all our models output float32). */
export function floatData(tensor: OrtTensor | undefined, name: string): Float32Array {
	if (!tensor || !(tensor.data instanceof Float32Array)) throw new TypeError(`model output ${name} is not float32`);
	return tensor.data;
}

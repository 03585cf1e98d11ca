// The page's side of face.worker.ts (browser only). One worker per page, created early (the
// permissions page preloads it, so its ~10 MB of models download while the user reads).
import type { Box } from '#lib/face/image.ts';
import type { EncodeResult, FrameResult, FrameWants, InitResult, WorkerRequest, WorkerResponse } from './face-worker-protocol.ts';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** What the capture machine needs of the worker (a fake implements it in tests). */
export interface FaceAnalyser {
	ready(): Promise<InitResult>;
	analyse(frameId: number, bitmap: ImageBitmap, box: Box | null, want: FrameWants, keep: boolean): Promise<FrameResult>;
	/** Keeps a frame for upload without analysing it. */
	keep(frameId: number, bitmap: ImageBitmap): Promise<void>;
	/** Embedding of a kept frame's face (null when it has none). */
	embed(frameId: number): Promise<Float32Array | null>;
	encode(frameIds: number[], aligned: number | null, quality?: number): Promise<EncodeResult>;
	drop(frameIds: number[] | 'all'): Promise<void>;
}

export class FaceWorkerClient implements FaceAnalyser {
	readonly #worker: Worker;
	readonly #pending = new Map<number, Pending>();
	#next = 1;
	#ready: Promise<InitResult> | null = null;

	constructor(worker: Worker = new Worker(new URL('./face.worker.ts', import.meta.url), { type: 'module' })) {
		this.#worker = worker;
		worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
			const p = this.#pending.get(e.data.id);
			if (!p) return;
			this.#pending.delete(e.data.id);
			if (e.data.ok) p.resolve(e.data.result);
			else p.reject(new Error(e.data.error));
		};
		worker.onerror = (e) => {
			for (const p of this.#pending.values()) p.reject(new Error(e.message || 'face worker failed'));
			this.#pending.clear();
		};
	}

	#call<T>(msg: WorkerRequest, transfer: Transferable[] = []): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			this.#pending.set(msg.id, { resolve: resolve as (v: unknown) => void, reject });
			this.#worker.postMessage(msg, transfer);
		});
	}

	ready(): Promise<InitResult> {
		this.#ready ??= this.#call<InitResult>({ type: 'init', id: this.#next++ });
		return this.#ready;
	}

	analyse(frameId: number, bitmap: ImageBitmap, box: Box | null, want: FrameWants, keep: boolean): Promise<FrameResult> {
		return this.#call({ type: 'frame', id: this.#next++, frameId, bitmap, box, want, keep }, [bitmap]);
	}

	async keep(frameId: number, bitmap: ImageBitmap): Promise<void> {
		await this.#call({ type: 'keep', id: this.#next++, frameId, bitmap }, [bitmap]);
	}

	embed(frameId: number): Promise<Float32Array | null> {
		return this.#call({ type: 'embed', id: this.#next++, frameId });
	}

	encode(frameIds: number[], aligned: number | null, quality = 0.9): Promise<EncodeResult> {
		return this.#call({ type: 'encode', id: this.#next++, frameIds, aligned, quality });
	}

	async drop(frameIds: number[] | 'all'): Promise<void> {
		await this.#call({ type: 'drop', id: this.#next++, frameIds });
	}

	terminate(): void {
		this.#worker.terminate();
		for (const p of this.#pending.values()) p.reject(new Error('face worker stopped'));
		this.#pending.clear();
	}
}

let shared: FaceWorkerClient | null = null;

/** The page's face worker (created on first use). */
export function sharedFaceWorker(): FaceWorkerClient {
	shared ??= new FaceWorkerClient();
	return shared;
}

/**
 * Builds the detector (main thread; the face nodes' default, WebGL allowed), then starts the worker's
 * models loading once it is built (or after 8 s, whatever became of it). The first guidance needs the
 * detector and nothing else; the worker's models are needed only for the frames taken during the
 * hold, seconds later. Side by side they shared a phone's link (at 10 Mbit/s the first guidance came
 * 6.5 s after the picture, 1.7 s with the worker waiting) and its cores (the worker's 14 MB of
 * WebAssembly compiling beside the detector's graph: built 0.5 s later with the CPU slowed 4×).
 * Safe to call more than once; errors are left for the face node to report.
 */
export function preloadFaceModels(): void {
	if (typeof window === 'undefined' || typeof Worker === 'undefined') return;
	const detector = import('./shared-detector.ts').then((m) => m.sharedDetector(true));
	const patience = new Promise((resolve) => setTimeout(resolve, 8000));
	void Promise.race([detector, patience])
		.catch(() => undefined)
		.then(() => sharedFaceWorker().ready())
		.catch(() => undefined);
}

// Messages between the page and face.worker.ts (embedding, passive liveness and landmarks off the main
// thread, so the camera preview never waits for a model).
import type { Box, Point } from '#lib/face/image.ts';
import type { HiddenFeature } from '#lib/face/occlusion.ts';

export interface FrameWants {
	/** 68 landmarks → pose and eye state (the challenge). Always done when a face is found. */
	embed?: boolean;
	liveness?: boolean;
}

export type WorkerRequest =
	| { type: 'init'; id: number }
	| { type: 'frame'; id: number; frameId: number; bitmap: ImageBitmap; box: Box | null; want: FrameWants; keep: boolean }
	| { type: 'keep'; id: number; frameId: number; bitmap: ImageBitmap }
	| { type: 'embed'; id: number; frameId: number }
	| { type: 'encode'; id: number; frameIds: number[]; quality: number; aligned: number | null }
	| { type: 'drop'; id: number; frameIds: number[] | 'all' };

export interface FrameFace {
	/** fr_detect-like box, frame pixels. */
	box: Box;
	yaw: number;
	pitch: number;
	roll: number;
	/** Mean eye aspect ratio. */
	ear: number;
	landmarks5: [Point, Point, Point, Point, Point];
	/** Features dark glasses or a mask hide (occlusion.ts, as the server measures them); absent when none. */
	hidden?: HiddenFeature[];
}

export interface FrameResult {
	frameId: number;
	width: number;
	height: number;
	face: FrameFace | null;
	embedding: Float32Array | null;
	liveness: number | null;
	/** 16×16 grey thumbnail of the whole frame (frozen / looped frame checks). */
	signature: Float32Array;
	ms: number;
}

export interface EncodeResult {
	frames: { frameId: number; jpeg: ArrayBuffer }[];
	/** The 112×112 aligned face of the `aligned` frame, as the embedding saw it. */
	aligned: ArrayBuffer | null;
}

export interface InitResult {
	ms: number;
	backend: string;
}

export type WorkerResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/// <reference lib="webworker" />
// Web Worker (browser only): the faceplugin models on onnxruntime-web (one thread, SIMD), the same
// FacePipeline the server runs. Frames arrive as ImageBitmaps (transferred, not copied); the worker
// keeps the ones it is told to keep until the page asks for their JPEGs or drops them.
import * as ort from 'onnxruntime-web/wasm';
import { alignFace } from '#lib/face/align.ts';
import { FEATURE_SIZE } from '#lib/face/face-thresholds.ts';
import { FacePipeline } from '#lib/face/face-pipeline.ts';
import type { Box, RgbaImage } from '#lib/face/image.ts';
import { frameSignature } from '#lib/face/injection.ts';
import { fivePoints, type Landmarks5 } from '#lib/face/landmarks.ts';
import { hiddenFeatures, hiddenList } from '#lib/face/occlusion.ts';
import { eyeAspectRatio, headPose } from '#lib/face/quality.ts';
import { frBoxFromBlaze, frBoxFromLandmarks } from './box-from.ts';
import type { EncodeResult, FrameResult, InitResult, WorkerRequest, WorkerResponse } from './face-worker-protocol.ts';
import { createWebFaceSessions, webRuntime } from './ort-web.ts';

let pipeline: Promise<FacePipeline> | null = null;
const kept = new Map<number, { bitmap: ImageBitmap; five: Landmarks5 | null }>();
let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;

function init(): Promise<FacePipeline> {
	pipeline ??= createWebFaceSessions(ort).then((sessions) => new FacePipeline(webRuntime(ort), sessions));
	return pipeline;
}

/** The bitmap's pixels (one canvas reused across frames). */
function pixels(bitmap: ImageBitmap): RgbaImage {
	const { width, height } = bitmap;
	if (!canvas || canvas.width !== width || canvas.height !== height) {
		canvas = new OffscreenCanvas(width, height);
		ctx = canvas.getContext('2d', { willReadFrequently: true });
	}
	ctx!.drawImage(bitmap, 0, 0);
	return ctx!.getImageData(0, 0, width, height);
}

async function analyseFrame(msg: Extract<WorkerRequest, { type: 'frame' }>): Promise<FrameResult> {
	const started = performance.now();
	const p = await init();
	const image = pixels(msg.bitmap);
	const signature = frameSignature(image);
	let box: Box | null = msg.box ? frBoxFromBlaze(msg.box) : null;
	if (!box) {
		const found = (await p.detect(image)).sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height)[0];
		box = found?.box ?? null;
	}
	let face: FrameResult['face'] = null;
	let embedding: Float32Array | null = null;
	let liveness: number | null = null;
	if (box) {
		// Two passes: the detector's box is only roughly where fr_detect would put it; the box from the
		// first landmarks is close enough that the second pass matches the server's.
		let landmarks = await p.landmarks(image, box);
		box = frBoxFromLandmarks(landmarks);
		landmarks = await p.landmarks(image, box);
		const pose = headPose(landmarks);
		const five = fivePoints(landmarks);
		const hidden = hiddenList(hiddenFeatures(image, landmarks));
		face = { box, ...pose, ear: (eyeAspectRatio(landmarks, 36) + eyeAspectRatio(landmarks, 42)) / 2, landmarks5: five, ...(hidden.length ? { hidden } : {}) };
		if (msg.want.embed) embedding = await p.embedAsIs(image, five);
		if (msg.want.liveness) liveness = await p.liveness(image, box);
	}
	if (msg.keep) kept.set(msg.frameId, { bitmap: msg.bitmap, five: face?.landmarks5 ?? null });
	else msg.bitmap.close();
	return { frameId: msg.frameId, width: image.width, height: image.height, face, embedding, liveness, signature, ms: performance.now() - started };
}

/**
 * The embedding of a kept frame's face (computed only for the frame the page picked as best). Single
 * pass, without the server's flip test (face-pipeline.ts embed): on the page it only feeds the
 * similarity the page claims and compares with its own earlier capture, both page-made; the verdict
 * is the server's. The mirror's second run would cost the chosen frame ~20 ms in onnxruntime-web,
 * past its 45 ms budget, and moves the similarity by about 0.01.
 */
async function embedKept(frameId: number): Promise<Float32Array | null> {
	const k = kept.get(frameId);
	if (!k?.five) return null;
	return (await init()).embedAsIs(pixels(k.bitmap), k.five);
}

async function jpeg(source: ImageBitmap | ImageData, quality: number): Promise<ArrayBuffer> {
	const c = new OffscreenCanvas(source.width, source.height);
	const g = c.getContext('2d')!;
	if (source instanceof ImageData) g.putImageData(source, 0, 0);
	else g.drawImage(source, 0, 0);
	return (await c.convertToBlob({ type: 'image/jpeg', quality })).arrayBuffer();
}

async function encode(msg: Extract<WorkerRequest, { type: 'encode' }>): Promise<EncodeResult> {
	const frames: EncodeResult['frames'] = [];
	for (const frameId of msg.frameIds) {
		const k = kept.get(frameId);
		if (k) frames.push({ frameId, jpeg: await jpeg(k.bitmap, msg.quality) });
	}
	let aligned: ArrayBuffer | null = null;
	const a = msg.aligned !== null ? kept.get(msg.aligned) : undefined;
	if (a?.five) {
		const chw = alignFace(pixels(a.bitmap), a.five, new Float32Array(3 * FEATURE_SIZE * FEATURE_SIZE), { channels: 'rgb', mean: 0, scale: 1 });
		const plane = FEATURE_SIZE * FEATURE_SIZE;
		const data = new ImageData(FEATURE_SIZE, FEATURE_SIZE);
		for (let i = 0; i < plane; i++) data.data.set([chw[i], chw[plane + i], chw[2 * plane + i], 255], 4 * i);
		aligned = await jpeg(data, 0.95);
	}
	return { frames, aligned };
}

function drop(ids: number[] | 'all'): void {
	for (const id of ids === 'all' ? [...kept.keys()] : ids) {
		kept.get(id)?.bitmap.close();
		kept.delete(id);
	}
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
	const msg = event.data;
	const reply = (r: WorkerResponse, transfer: Transferable[] = []) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(r, transfer);
	try {
		switch (msg.type) {
			case 'init': {
				const started = performance.now();
				await init();
				reply({ id: msg.id, ok: true, result: { ms: performance.now() - started, backend: 'wasm' } satisfies InitResult });
				break;
			}
			case 'frame': {
				const result = await analyseFrame(msg);
				reply({ id: msg.id, ok: true, result }, [result.signature.buffer, ...(result.embedding ? [result.embedding.buffer] : [])]);
				break;
			}
			case 'keep':
				// Kept for upload only (the light challenge's frames): the server measures them.
				kept.set(msg.frameId, { bitmap: msg.bitmap, five: null });
				reply({ id: msg.id, ok: true, result: null });
				break;
			case 'embed': {
				const result = await embedKept(msg.frameId);
				reply({ id: msg.id, ok: true, result }, result ? [result.buffer] : []);
				break;
			}
			case 'encode': {
				const result = await encode(msg);
				reply({ id: msg.id, ok: true, result }, [...result.frames.map((f) => f.jpeg), ...(result.aligned ? [result.aligned] : [])]);
				break;
			}
			case 'drop':
				drop(msg.frameIds);
				reply({ id: msg.id, ok: true, result: null });
				break;
		}
	} catch (err) {
		if (msg.type === 'frame' || msg.type === 'keep') msg.bitmap.close?.();
		reply({ id: msg.id, ok: false, error: err instanceof Error ? err.message : String(err) });
	}
};

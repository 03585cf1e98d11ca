import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import { crop, resize, type Raster } from '#lib/documents/raster.ts';

const require = createRequire(import.meta.url);
const INPUT_W = 320;
const INPUT_H = 240;
const SCORE_MIN = 0.65;
const NMS_IOU = 0.4;

export interface FaceBox {
	x: number;
	y: number;
	width: number;
	height: number;
	score: number;
}

function iou(a: FaceBox, b: FaceBox): number {
	const x0 = Math.max(a.x, b.x), y0 = Math.max(a.y, b.y);
	const x1 = Math.min(a.x + a.width, b.x + b.width), y1 = Math.min(a.y + a.height, b.y + b.height);
	const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
	return inter / (a.width * a.height + b.width * b.height - inter);
}

/**
 * Faces on a document image with `fr_detect.onnx` of faceplugin-face-recognition-js (an
 * Ultra-Light-Fast-style detector): input 320×240 RGB, (v − 127) / 128; outputs class scores and
 * corner boxes in 0–1. Kept small and private to document reading; the face feature has its own.
 */
export class PortraitFinder {
	private constructor(private readonly session: ort.InferenceSession) {}

	static async load(): Promise<PortraitFinder> {
		const path = join(dirname(require.resolve('faceplugin-face-recognition-js/package.json')), 'model', 'fr_detect.onnx');
		return new PortraitFinder(await ort.InferenceSession.create(path, { intraOpNumThreads: 1 }));
	}

	async detect(image: Raster): Promise<FaceBox[]> {
		const small = resize(image, INPUT_W, INPUT_H);
		const plane = INPUT_W * INPUT_H;
		const input = new Float32Array(3 * plane);
		const c = small.channels;
		for (let i = 0; i < plane; i++) for (let ch = 0; ch < 3; ch++) input[ch * plane + i] = (small.data[i * c + (c === 1 ? 0 : ch)] - 127) / 128;
		const out = await this.session.run({ input: new ort.Tensor('float32', input, [1, 3, INPUT_H, INPUT_W]) });
		const scores = out.scores.data as Float32Array;
		const boxes = out.boxes.data as Float32Array;
		const found: FaceBox[] = [];
		for (let i = 0; i < scores.length / 2; i++) {
			const score = scores[i * 2 + 1];
			if (score < SCORE_MIN) continue;
			const x0 = Math.max(0, boxes[i * 4]) * image.width;
			const y0 = Math.max(0, boxes[i * 4 + 1]) * image.height;
			const x1 = Math.min(1, boxes[i * 4 + 2]) * image.width;
			const y1 = Math.min(1, boxes[i * 4 + 3]) * image.height;
			if (x1 > x0 && y1 > y0) found.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, score });
		}
		found.sort((a, b) => b.score - a.score);
		const kept: FaceBox[] = [];
		for (const f of found) if (kept.every((k) => iou(k, f) < NMS_IOU)) kept.push(f);
		return kept;
	}

	/**
	 * The document's portrait: the largest face found (a document's secondary "ghost" image is
	 * smaller), cropped with a margin so later alignment sees the whole head. Null when none.
	 */
	async findPortrait(image: Raster): Promise<{ box: FaceBox; crop: Raster } | null> {
		const faces = await this.detect(image);
		if (faces.length === 0) return null;
		const box = faces.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
		const mx = box.width * 0.35, my = box.height * 0.35;
		return { box, crop: crop(image, box.x - mx, box.y - my, box.width + 2 * mx, box.height + 2 * my) };
	}
}

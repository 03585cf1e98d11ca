// The server's face engine: the isomorphic FacePipeline on onnxruntime-node, models loaded from the
// npm package (not static/, so it works without a build) and converted as the build converts the
// page's copies (face-model-weights.js), sessions created once and reused.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { CLOSER_LOOK_SCORE, MIN_LUMINANCE, SURE_DETECTION_SCORE } from '#lib/face/face-thresholds.ts';
import { FacePipeline, type AnalyseOptions, type FaceAnalysis } from '#lib/face/face-pipeline.ts';
import type { Box, RgbaImage } from '#lib/face/image.ts';
import type { FaceSessions, OrtRuntime, OrtSession } from '#lib/face/ort-runtime.ts';
import { loadInTurn } from '../event-loop.ts';
import { faceModelForRuntime } from './face-model-weights.js';
import { ORIENTATION_MARGIN, uprightness } from './face-orientation.ts';
import { decodeImage, type DecodedImage } from './image-decode.ts';
import { cutByEdge, featuresInside } from './face-edges.ts';
import { hiddenFeatures, type HiddenFeatures } from '#lib/face/occlusion.ts';
import { faceSharpnessBalance } from '#lib/face/quality.ts';
import { sharedDocumentReader } from '../documents/document-reader.service.ts';
import { OcrEngine } from '../documents/ocr-engine.ts';
import { textAcrossFace, type TextEngine } from './overprint.ts';

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
	/**
	 * `served` (default): the models as the page runs them (float16 weights where
	 * face-model-weights.js says so). `original`: the package's float32 files, for comparisons.
	 */
	weights?: 'served' | 'original';
	/**
	 * What reads text across a reference face (overprint.ts); loaded on the first reference. Default:
	 * an OCR engine of the engine's own. The server's engine shares the document reader's.
	 */
	text?: () => Promise<TextEngine>;
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

/** A model's bytes as the server runs them (see FaceEngineOptions.weights). */
export function faceModelBytes(name: string, { modelDir = faceModelDir(), weights = 'served' }: Pick<FaceEngineOptions, 'modelDir' | 'weights'> = {}): Uint8Array {
	const bytes = new Uint8Array(readFileSync(join(modelDir, `${name}.onnx`)));
	return weights === 'served' ? faceModelForRuntime(name, bytes) : bytes;
}

async function createSessions({ threads = 1, modelDir, weights }: FaceEngineOptions): Promise<FaceSessions> {
	const load = async (name: string): Promise<OrtSession> =>
		(await ort.InferenceSession.create(faceModelBytes(name, { modelDir, weights }), {
			intraOpNumThreads: threads,
			interOpNumThreads: 1,
			graphOptimizationLevel: OPTIMIZATION[name] ?? 'all',
			executionMode: 'sequential'
		})) as unknown as OrtSession;
	// In turn with yields between: each creation holds the event loop (event-loop.ts).
	const [detect, landmark, feature, liveness] = await loadInTurn(['fr_detect', 'fr_landmark', 'fr_feature', 'fr_liveness'].map((name) => () => load(name)));
	return { detect, landmark, feature, liveness };
}

export class FaceEngine {
	readonly pipeline: FacePipeline;
	// One pipeline owns one set of input buffers: serialise its runs so that concurrent requests
	// never refill a tensor that an inference is still reading.
	#queue: Promise<unknown> = Promise.resolve();

	readonly #text: () => Promise<TextEngine>;

	private constructor(sessions: FaceSessions, text: () => Promise<TextEngine>) {
		this.pipeline = new FacePipeline(nodeRuntime, sessions);
		this.#text = text;
	}

	static async create(options: FaceEngineOptions = {}): Promise<FaceEngine> {
		let own: Promise<TextEngine> | undefined;
		// Loaded once; a failed load is tried again on the next reference.
		const text =
			options.text ??
			(() =>
				(own ??= OcrEngine.load({ threads: 1 }).catch((error: unknown) => {
					own = undefined;
					throw error;
				})));
		return new FaceEngine(await createSessions(options), text);
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

	/**
	 * The subject of a reference photo (an ID photo, a profile picture), with the care a reference
	 * deserves: when the detector finds nothing, the photo gets a second look (padded, for a face
	 * cropped tight to its edges; zoomed, for a face small in a large photo); among several faces, the
	 * subject is the sharpest of those near the largest in size, not simply the largest (a blurred face
	 * in the background can be bigger). A photo stored sideways or upside down without EXIF is read the
	 * way up its face is (face-orientation.ts): the detector finds turned faces too, and one read the
	 * wrong way up matched no one. Null: no face in any look.
	 */
	async analyseReference(bytes: Uint8Array, notes: ReferenceNotes = { cutOff: false }, options: { readText?: boolean } = {}): Promise<AnalysedReference | null> {
		let stored: RgbaImage = await decodeImage(bytes);
		let found = await this.#subjectIn(stored, 'asIs', notes);
		// A dark photo is read with its levels stretched: the detector misses faces in it, and the
		// embedding of a dark face drifts from the person's (face-damage eval: a face at a sixth of its
		// light was not found, or matched its owner at 0.04; levelled, found at 1.000 and 0.45).
		if (!found || found.face.quality.luminance < MIN_LUMINANCE) {
			const levelled = levelRgba(stored);
			const again = levelled && (await this.#subjectIn(levelled, 'levelled', notes));
			if (levelled && again && (!found || again.face.quality.luminance > found.face.quality.luminance)) {
				stored = levelled;
				found = again;
			}
		}
		if (!found) {
			// The face must be in the photo, not made up of its mirrored edges (featuresInside).
			const { view, photo } = await paddedView(bytes);
			found = await this.#subjectIn(view, 'padded', notes, photo);
		}
		// Every way up is looked at, also when the photo's own found a face: which is upright is decided
		// between them (a sideways face is found as such, and only the comparison tells).
		const ways = found ? [found] : [];
		for (const [look, degrees] of TURNS) {
			const turned = await this.#subjectIn(turnRgba(stored, degrees), look, notes);
			if (turned) ways.push(turned);
		}
		let best: ReferenceSubject | null = ways[0] ?? null;
		if (ways.length > 1) {
			const scored: (ReferenceSubject & { upright: number })[] = [];
			for (const way of ways) {
				const { upright, embedding } = await this.exclusive((p) => uprightness(p, way.image, way.face));
				scored.push({ ...way, face: { ...way.face, embedding }, upright });
			}
			let top = scored[0];
			for (const way of scored.slice(1)) {
				// The photo as stored (or padded) stays unless another way up is clearly more upright.
				const margin = found && top === scored[0] ? ORIENTATION_MARGIN : 0;
				if (way.upright > top.upright + margin) top = way;
			}
			best = top;
		}
		const subject = best ?? (await this.#subjectIn(zoomedViews(await decodeImage(bytes, ZOOM_DECODE_SIDE)), 'zoomed', notes));
		if (!subject) return null;
		// Embed the subject only (the others were only candidates), on the pixels it was found in;
		// comparing the ways up has embedded it already.
		const embedding = subject.face.embedding ?? (await this.exclusive((p) => p.embed(subject.image, subject.face.landmarks5)));
		return {
			face: { ...subject.face, embedding },
			look: subject.look,
			cutByEdge: await this.#cutByEdge(subject),
			hidden: hiddenFeatures(subject.image, subject.face.landmarks),
			sharpnessBalance: faceSharpnessBalance(subject.image, subject.face.box),
			image: subject.image,
			overprint: options.readText === false ? null : await this.textAcross(subject)
		};
	}

	/** Text printed across a reference subject's face, as read (overprint.ts); null: none. */
	async textAcross(subject: Pick<AnalysedReference, 'image' | 'face'>): Promise<string | null> {
		return textAcrossFace(await this.#text(), subject.image, subject.face.box);
	}

	/** Whether the photo's edge cuts a reference subject's face (face-edges.ts). */
	async #cutByEdge(subject: ReferenceSubject): Promise<boolean> {
		// A zoomed look's tile is not the photo's edge, and a face found there is whole in some tile.
		if (subject.look === 'zoomed') return false;
		const photo = subject.photo ?? { x: 0, y: 0, width: subject.image.width, height: subject.image.height };
		return cutByEdge((view) => this.exclusive((p) => p.analyse(view, { liveness: false, embed: false, maxFaces: 4 })), subject.image, photo, subject.face);
	}

	/** The subject of one look at a reference photo (null: no face the look may count). */
	async #subjectIn(view: RgbaImage | Iterable<RgbaImage>, look: ReferenceLook, notes: ReferenceNotes, photo?: Box): Promise<ReferenceSubject | null> {
		const views = 'data' in view ? [view] : view;
		const candidates: { face: FaceAnalysis; image: RgbaImage }[] = [];
		// Zoomed, a tile is cut when its turn comes and kept only while it holds a candidate.
		for (const image of views) {
			let faces = await this.exclusive((p) => p.analyse(image, { liveness: false, embed: false, maxFaces: 4 }));
			// Every extra look is another chance for the detector to see a face in a cup: a second look
			// only counts a detection as sure as real faces are (they score 0.999–1.000 on the fixtures;
			// the coffee cup turned upside down 0.955).
			if (look !== 'asIs') faces = faces.filter((f) => f.score >= SECOND_LOOK_MIN_SCORE);
			// A texture the detector found at one scale is not the subject (evidence-analysis.ts does the same).
			faces = faces.filter((f) => {
				if (featuresInside(f.landmarks5, photo ?? { x: 0, y: 0, width: image.width, height: image.height }, f.box.width)) return true;
				if (f.score >= SECOND_LOOK_MIN_SCORE) notes.cutOff = true;
				return false;
			});
			for (const f of faces) if (f.score >= SURE_DETECTION_SCORE || (await this.exclusive((p) => p.closerLook(image, f.box))) >= CLOSER_LOOK_SCORE) candidates.push({ face: f, image });
		}
		// Tiles are crops at one scale, so their boxes compare; a face two tiles share is one candidate twice.
		const subject = subjectOf(candidates.map((c) => ({ ...c, box: c.face.box, quality: c.face.quality })));
		return subject ? { face: subject.face, image: subject.image, look, ...(photo ? { photo } : {}) } : null;
	}
}

/** A reference photo's subject as analyseReference found it, with what the server measured of it. */
export interface AnalysedReference {
	face: FaceAnalysis;
	look: ReferenceLook;
	cutByEdge: boolean;
	hidden: HiddenFeatures;
	sharpnessBalance: number;
	/** The pixels the face was found in (the photo as stored, levelled, padded or turned). */
	image: RgbaImage;
	/**
	 * Text printed across the face (a watermark, a `COPY` stamp), as read; null: none, or not looked
	 * for (`readText: false`: FaceEngine.textAcross reads it later, where it can change a verdict).
	 */
	overprint: string | null;
}

/** What analyseReference saw besides its answer, for the reason a reference is refused. */
export interface ReferenceNotes {
	/** A sure face was passed over because its eyes, nose or mouth lie outside the photo (featuresInside). */
	cutOff: boolean;
}

interface ReferenceSubject {
	face: FaceAnalysis;
	image: RgbaImage;
	look: ReferenceLook;
	/** Where the photo lies in a padded look's view (absent: the whole view). */
	photo?: Box;
}

export type ReferenceLook = 'asIs' | 'levelled' | 'padded' | 'turned90' | 'turned180' | 'turned270' | 'zoomed';
const TURNS = [
	['turned90', 90],
	['turned180', 180],
	['turned270', 270]
] as const satisfies readonly (readonly [ReferenceLook, 90 | 180 | 270])[];

/**
 * The zoomed look decodes the photo this large: a face of 120 px in a 4000-px photo keeps its pixels
 * for the embedding (the other looks see at most 2048).
 */
const ZOOM_DECODE_SIDE = 4096;
/** Tiles a third of the photo's longer side (no smaller than this), overlapping by a third. */
const ZOOM_MIN_TILE = 512;

/**
 * The detector sees a whole photo at 320×240, so a face under ~4 % of its width is too small to be
 * found (a portrait 340 px wide in a 4000-px phone photo, 200–260 px in a 2000-px one, measured).
 * Here the photo is cut into overlapping tiles a third of its longer side, each seen at 320×240: about
 * three times closer. A photo no larger than two tiles gains nothing and gets none.
 */
export function* zoomedViews(image: RgbaImage): Generator<RgbaImage> {
	const long = Math.max(image.width, image.height);
	const tile = Math.max(ZOOM_MIN_TILE, Math.ceil(long / 3));
	if (long < 2 * tile) return;
	// Evenly spread, each tile overlapping the next by about a third (a face on a seam is whole in one).
	const starts = (size: number) => {
		if (size <= tile) return [0];
		const steps = Math.ceil((size - tile) / ((tile * 2) / 3) - 0.05);
		return Array.from({ length: steps + 1 }, (_, i) => Math.round((i * (size - tile)) / steps));
	};
	for (const y of starts(image.height)) for (const x of starts(image.width)) yield cropRgba(image, x, y, Math.min(tile, image.width), Math.min(tile, image.height));
}

function cropRgba(image: RgbaImage, x: number, y: number, width: number, height: number): RgbaImage {
	const data = new Uint8Array(width * height * 4);
	for (let row = 0; row < height; row++) data.set(image.data.subarray(((y + row) * image.width + x) * 4, ((y + row) * image.width + x + width) * 4), row * width * 4);
	return { data, width, height };
}

/**
 * The photo padded by 30 % of its longer side (mirrored edges), for a face cropped tight to its edges,
 * with where the photo itself lies in it.
 */
async function paddedView(bytes: Uint8Array): Promise<{ view: RgbaImage; photo: Box }> {
	const { width = 0, height = 0 } = await sharp(bytes).metadata();
	const long = Math.max(width, height);
	const pad = Math.round(long * 0.3);
	const view = await decodeImage(await sharp(bytes).rotate().extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: 'mirror' }).png().toBuffer());
	// The decoder may have scaled the padded photo down: the padding's share of its longer side stays.
	const inView = (pad / (long + 2 * pad)) * Math.max(view.width, view.height);
	return { view, photo: { x: inView, y: inView, width: view.width - 2 * inView, height: view.height - 2 * inView } };
}


/**
 * The image with its levels stretched: the 1st and 99th percentiles of luminance become 0 and 255,
 * every channel scaled alike (colours keep their balance). Null when the photo already spans most of
 * the range (nothing to stretch).
 */
export function levelRgba(image: RgbaImage): RgbaImage | null {
	const { data, width, height } = image;
	const histogram = new Uint32Array(256);
	for (let i = 0; i < width * height * 4; i += 4) histogram[(data[i] * 77 + data[i + 1] * 150 + data[i + 2] * 29) >> 8]++;
	const pixels = width * height;
	const percentile = (share: number) => {
		let seen = 0;
		for (let v = 0; v < 256; v++) if ((seen += histogram[v]) >= share * pixels) return v;
		return 255;
	};
	const low = percentile(0.01);
	const high = percentile(0.99);
	if (high - low >= 200 || high <= low) return null;
	const scale = 255 / (high - low);
	const lut = new Uint8Array(256);
	for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round((v - low) * scale)));
	const out = new Uint8Array(pixels * 4);
	for (let i = 0; i < pixels * 4; i += 4) {
		out[i] = lut[data[i]];
		out[i + 1] = lut[data[i + 1]];
		out[i + 2] = lut[data[i + 2]];
		out[i + 3] = 255;
	}
	return { data: out, width, height };
}

/** The image turned clockwise by 90, 180 or 270 degrees (as sharp's rotate turns it). */
export function turnRgba(image: RgbaImage, degrees: 90 | 180 | 270): RgbaImage {
	const { width: w, height: h, data: src } = image;
	const width = degrees === 180 ? w : h;
	const height = degrees === 180 ? h : w;
	const data = new Uint8Array(w * h * 4);
	// Whole pixels at a time (a view needs a 4-aligned offset; copied when the decoder's is not).
	const px = src.byteOffset % 4 === 0 ? new Uint32Array(src.buffer, src.byteOffset, w * h) : new Uint32Array(Uint8Array.from(src.subarray(0, w * h * 4)).buffer);
	const out = new Uint32Array(data.buffer);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			// The source pixel that lands on (x, y).
			const sx = degrees === 90 ? y : degrees === 180 ? w - 1 - x : w - 1 - y;
			const sy = degrees === 90 ? h - 1 - x : degrees === 180 ? h - 1 - y : x;
			out[y * width + x] = px[sy * w + sx];
		}
	}
	return { data, width, height };
}

const SECOND_LOOK_MIN_SCORE = 0.99;
/** Faces at least this share of the largest one's area may be the subject instead of it… */
const SUBJECT_AREA_SHARE = 0.2;
/** …when they are this many times sharper (the largest is out of focus: a face in the background). */
const OUT_OF_FOCUS_RATIO = 4;

/**
 * The subject among detected faces: the largest, unless it is out of focus and a face not much
 * smaller is sharp (on the fixtures, a blurred background face measures 4 and the subject 380).
 */
export function subjectOf<T extends { box: { width: number; height: number }; quality: { sharpness: number } }>(faces: readonly T[]): T | null {
	if (!faces.length) return null;
	const area = (f: T) => f.box.width * f.box.height;
	const largest = faces.reduce((a, b) => (area(b) > area(a) ? b : a));
	const sharpest = faces.filter((f) => area(f) >= SUBJECT_AREA_SHARE * area(largest)).reduce((a, b) => (b.quality.sharpness > a.quality.sharpness ? b : a));
	return sharpest.quality.sharpness >= OUT_OF_FOCUS_RATIO * Math.max(1, largest.quality.sharpness) ? sharpest : largest;
}

let shared: Promise<FaceEngine> | undefined;

/** The process-wide engine, created on first use. */
export function getFaceEngine(): Promise<FaceEngine> {
	// The document reader's OCR engine reads text across reference faces: one copy of its models.
	shared ??= FaceEngine.create({ text: async () => (await sharedDocumentReader()).text }).catch((error: unknown) => {
		shared = undefined;
		throw error;
	});
	return shared;
}

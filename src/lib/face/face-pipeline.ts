// Detection → landmarks → alignment → embedding and liveness, with the faceplugin ONNX models.
// Isomorphic: the server runs it on onnxruntime-node over uploaded evidence, the browser worker on
// onnxruntime-web, so both compute the same numbers from the same pixels.
import { alignFace } from './align.ts';
import { squareBox } from './box.ts';
import { decodeDetections, type Detection } from './detect.ts';
import { l2Normalize } from './embedding.ts';
import {
	DETECT_HEIGHT,
	DETECT_WIDTH,
	EMBEDDING_LENGTH,
	FEATURE_SIZE,
	LANDMARK_SIZE,
	LIVENESS_SIZE
} from './face-thresholds.ts';
import type { Box, RgbaImage } from './image.ts';
import { decodeLandmarks, fivePoints, type Landmarks5, type Landmarks68 } from './landmarks.ts';
import { livenessCropBox, liveProbability } from './liveness.ts';
import { floatData, type FaceSessions, type OrtRuntime, type OrtTensor } from './ort-runtime.ts';
import { createQualityScratch, measureFace, type FaceQualityMetrics } from './quality.ts';
import { cropResize, DETECT_FORMAT, LANDMARK_FORMAT, LIVENESS_FORMAT } from './sample.ts';

export interface FaceAnalysis {
	/** Face box from the detector, in image pixels. */
	box: Box;
	score: number;
	landmarks: Landmarks68;
	landmarks5: Landmarks5;
	/** L2-normalised 512-d embedding (null when not requested). */
	embedding: Float32Array | null;
	/** Live probability 0–1 (null when not requested). */
	liveness: number | null;
	quality: FaceQualityMetrics;
}

export interface AnalyseOptions {
	/** Compute embeddings (default true). */
	embed?: boolean;
	/** Compute liveness (default true). */
	liveness?: boolean;
	/** Analyse at most this many faces, largest first (default: all). */
	maxFaces?: number;
}

interface Input {
	data: Float32Array;
	tensor: OrtTensor;
}

export class FacePipeline {
	readonly #sessions: FaceSessions;
	readonly #detect: Input;
	readonly #landmark: Input;
	readonly #feature: Input;
	readonly #liveness: Input;
	readonly #quality = createQualityScratch();

	constructor(runtime: OrtRuntime, sessions: FaceSessions) {
		this.#sessions = sessions;
		const input = (dims: number[]): Input => {
			const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
			return { data, tensor: runtime.tensor(data, dims) };
		};
		this.#detect = input([1, 3, DETECT_HEIGHT, DETECT_WIDTH]);
		this.#landmark = input([1, 1, LANDMARK_SIZE, LANDMARK_SIZE]);
		this.#feature = input([1, 3, FEATURE_SIZE, FEATURE_SIZE]);
		this.#liveness = input([1, 3, LIVENESS_SIZE, LIVENESS_SIZE]);
	}

	/** Faces in the image, best score first. */
	async detect(image: RgbaImage): Promise<Detection[]> {
		cropResize(image, { x: 0, y: 0, width: image.width, height: image.height }, DETECT_WIDTH, DETECT_HEIGHT, DETECT_FORMAT, this.#detect.data);
		const out = await this.#run('detect', this.#detect);
		return decodeDetections(floatData(out.scores, 'scores'), floatData(out.boxes, 'boxes'), image.width, image.height);
	}

	/**
	 * The detector's closer look at a detection: the score of the face it finds again in a crop centred
	 * on `box`, twice its size (0 when none). The detector's frame is 320×240 of the whole picture, so
	 * a texture can line up with its priors at one position and scale; a real face is found again at
	 * another (CLOSER_LOOK_SCORE has the figures).
	 */
	async closerLook(image: RgbaImage, box: Box): Promise<number> {
		const side = 2 * Math.max(box.width, box.height);
		const crop = { x: box.x + box.width / 2 - (side * 2) / 3, y: box.y + box.height / 2 - side / 2, width: (side * 4) / 3, height: side };
		cropResize(image, crop, DETECT_WIDTH, DETECT_HEIGHT, DETECT_FORMAT, this.#detect.data);
		const out = await this.#run('detect', this.#detect);
		let best = 0;
		for (const d of decodeDetections(floatData(out.scores, 'scores'), floatData(out.boxes, 'boxes'), DETECT_WIDTH, DETECT_HEIGHT)) {
			// The same face: its centre in the middle half of the crop, where the first box's centre is.
			const cx = d.box.x + d.box.width / 2, cy = d.box.y + d.box.height / 2;
			if (Math.abs(cx - DETECT_WIDTH / 2) <= DETECT_WIDTH / 4 && Math.abs(cy - DETECT_HEIGHT / 2) <= DETECT_HEIGHT / 4) best = Math.max(best, d.score);
		}
		return best;
	}

	/** 68 landmarks of the face in `box` (a detector box), in image pixels. */
	async landmarks(image: RgbaImage, box: Box): Promise<Landmarks68> {
		// The crop stays on the face where the box runs past the photo's edge (black beyond it). Moved
		// inside, it showed the model a face off centre: the 11 fixture faces cut through the eyes by
		// the photo's top edge matched their whole selves at 0.14 at worst (0.44 now; median 0.56
		// either way; cut at the brows, 0.86 either way).
		const crop = squareBox(box);
		cropResize(image, crop, LANDMARK_SIZE, LANDMARK_SIZE, LANDMARK_FORMAT, this.#landmark.data);
		const out = await this.#run('landmark', this.#landmark);
		return decodeLandmarks(floatData(out.output, 'output'), crop);
	}

	/**
	 * L2-normalised embedding of the face aligned on its five points: the mean of the aligned face's
	 * embedding and its left–right mirror's (the "flip test" ArcFace-style models are evaluated with).
	 * Measured on the 11 fixture faces under 28 reference damages (scripts/eval/face-damage.ts,
	 * 2026-11-29): the lowest genuine pair rose by 0.01–0.03 under nearly every damage and the highest
	 * impostor fell by up to 0.03; no false match or non-match more anywhere, one fewer cut at the
	 * brows. The cost is a second run of fr_feature (21.0 → 38.4 ms an embedding on the server here). The
	 * page's worker uses `embedAsIs` (face.worker.ts says why).
	 */
	async embed(image: RgbaImage, five: Landmarks5): Promise<Float32Array> {
		return (await this.embedViews(image, five)).embedding;
	}

	/** `embed`, with the aligned face's own embedding (not mirrored) as well. */
	async embedViews(image: RgbaImage, five: Landmarks5): Promise<{ embedding: Float32Array; asIs: Float32Array }> {
		alignFace(image, five, this.#feature.data);
		const asIs = await this.#embedAligned();
		// The aligned face mirrored in place: each row of each channel plane reversed.
		const plane = this.#feature.data;
		for (let row = 0; row < 3 * FEATURE_SIZE; row++) plane.subarray(row * FEATURE_SIZE, (row + 1) * FEATURE_SIZE).reverse();
		const mirrored = await this.#embedAligned();
		const sum = new Float32Array(EMBEDDING_LENGTH);
		for (let i = 0; i < EMBEDDING_LENGTH; i++) sum[i] = asIs[i] + mirrored[i];
		return { embedding: l2Normalize(sum), asIs: l2Normalize(asIs) };
	}

	/** The face's embedding without the mirror (face-orientation.ts compares it with the mirrored photo's). */
	async embedAsIs(image: RgbaImage, five: Landmarks5): Promise<Float32Array> {
		alignFace(image, five, this.#feature.data);
		return l2Normalize(await this.#embedAligned());
	}

	/** fr_feature on the face already aligned into its input, raw (a copy: the next run reuses the output). */
	async #embedAligned(): Promise<Float32Array> {
		const out = await this.#run('feature', this.#feature);
		const embedding = floatData(out.output, 'output');
		if (embedding.length !== EMBEDDING_LENGTH) throw new RangeError(`embedding has ${embedding.length} values`);
		return Float32Array.from(embedding);
	}

	/** Live probability (0–1) of the face in `box` (a detector box). */
	async liveness(image: RgbaImage, box: Box): Promise<number> {
		const crop = livenessCropBox(squareBox(box), image.width, image.height);
		cropResize(image, crop, LIVENESS_SIZE, LIVENESS_SIZE, LIVENESS_FORMAT, this.#liveness.data);
		const out = await this.#run('liveness', this.#liveness);
		return liveProbability(floatData(out.output, 'output'));
	}

	/** Everything about every face (largest first). */
	async analyse(image: RgbaImage, options: AnalyseOptions = {}): Promise<FaceAnalysis[]> {
		const { embed = true, liveness = true, maxFaces = Infinity } = options;
		const detections = (await this.detect(image))
			.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height)
			.slice(0, maxFaces);
		const faces: FaceAnalysis[] = [];
		for (const { box, score } of detections) {
			const landmarks = await this.landmarks(image, box);
			const landmarks5 = fivePoints(landmarks);
			faces.push({
				box,
				score,
				landmarks,
				landmarks5,
				embedding: embed ? await this.embed(image, landmarks5) : null,
				liveness: liveness ? await this.liveness(image, box) : null,
				quality: measureFace(image, box, landmarks, this.#quality)
			});
		}
		return faces;
	}

	async #run(model: keyof FaceSessions, input: Input): Promise<Record<string, OrtTensor>> {
		const session = this.#sessions[model];
		return session.run({ [session.inputNames[0]]: input.tensor });
	}
}

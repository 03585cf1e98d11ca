// The server's own look at a face node's evidence: every uploaded frame is decoded and searched for
// faces with onnxruntime-node (the models the browser used), pose and eye state come from 68
// landmarks, passive liveness runs on several frames and embeddings on the best frame and a few
// others (the same person throughout). Nothing the browser measured is reused.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { MATCH_THRESHOLD } from '#lib/domain/face/thresholds.ts';
import { alignFace, ARCFACE_REFERENCE } from '#lib/face/align.ts';
import { distinctFaces } from '#lib/face/distinct-faces.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import { CLOSER_LOOK_SCORE, FEATURE_SIZE, LIVENESS_THRESHOLD, SURE_DETECTION_SCORE } from '#lib/face/face-thresholds.ts';
import type { FacePipeline } from '#lib/face/face-pipeline.ts';
import type { Detection } from '#lib/face/detect.ts';
import type { Box } from '#lib/face/image.ts';
import { frameSignature, LOOP_PIXEL_DIFF, motionSignals, pixelDistance, timingSignals, type MotionSignals, type TimingSignals } from '#lib/face/injection.ts';
import { fivePoints, type Landmarks5 } from '#lib/face/landmarks.ts';
import { measureLight, type LightMeasure } from '#lib/face/light-response.ts';
import { createQualityScratch, measureFace, type FaceQualityMetrics } from '#lib/face/quality.ts';
import { hiddenFeatures, hiddenList, type HiddenFeature } from '#lib/face/occlusion.ts';
import { looksLikeSkin } from '#lib/face/skin-tone.ts';
import { qualityGate, type QualitySettings, type QualityVerdict } from '#lib/face/quality-gate.ts';
import type { FaceEngine } from '../../biometrics/face-engine.ts';
import { decodeImage, type DecodedImage } from '../../biometrics/image-decode.ts';
import { MAX_FRAME_PIXELS } from '../../media/image-limits.ts';
import { subjectFrames } from './subject-frames.ts';

export interface EvidenceFrame {
	bytes: Uint8Array;
	/** Milliseconds since the node opened, as the page stamped it. */
	t: number;
}

export interface AnalysedFace {
	box: Box;
	score: number;
	landmarks5: Landmarks5;
	quality: FaceQualityMetrics;
	gate: QualityVerdict;
	liveness: number | null;
	embedding: Float32Array | null;
	/** Features dark glasses or a mask hide (occlusion.ts); absent when none. */
	hidden?: HiddenFeature[];
}

export interface AnalysedFrame {
	index: number;
	t: number;
	width: number;
	height: number;
	/** People the detector found (boxes nested in the main face or far smaller than it not counted). */
	faceCount: number;
	/** The largest face (null when none). */
	face: AnalysedFace | null;
	/** Face skin and background colour, for the light challenge (null without a face). */
	light: LightMeasure | null;
	/** Why the frame could not be read (then faceCount is 0). */
	error?: string;
}

export interface EvidenceAnalysis {
	frames: AnalysedFrame[];
	/**
	 * Each frame's digest (SHA-256 of its decoded pixels, first 16 bytes; of its bytes when it could not
	 * be decoded): the same picture posted again, whatever its metadata or trailing bytes, gives the same.
	 */
	frameDigests: Uint8Array[];
	/** Frame with one face that the quality gate likes best (frontal, sharp, well lit), or -1. */
	bestIndex: number;
	framesWithFace: number;
	framesWithSeveralFaces: number;
	/** Detections the detector's closer look did not find again (textures), left out of faceCount. */
	detectionsNotConfirmed: number;
	liveness: { scores: number[]; median: number | null; live: boolean };
	/** Lowest similarity between the best frame's face and the other embedded frames (null: one frame). */
	identity: { minSimilarity: number | null; consistent: boolean };
	motion: MotionSignals;
	timing: TimingSignals;
	/** Embedding of the best frame's face. */
	embedding: Float32Array | null;
	/** Aligned face of the best frame, 224×224 JPEG: the user photo of a capture. */
	faceJpeg: Uint8Array | null;
	/** The best frame as uploaded (the node's screenshot). */
	bestFrame: Uint8Array | null;
	/** The browser's aligned crop against the server's embedding of the best frame, when one was sent. */
	alignedCrop: { similarity: number } | null;
	ms: number;
}

export interface AnalysisPlan {
	/** The node's gate settings (face_scan), loosened a little: JPEG loses some sharpness. */
	quality?: Partial<QualitySettings>;
	/** Frames on which passive liveness runs (default 5). */
	livenessFrames?: number;
	/** Frames embedded besides the best one, to check it is one person throughout (default 2). */
	identityFrames?: number;
	/** The browser's 112×112 aligned crop (JPEG), checked against the frames. */
	alignedCrop?: Uint8Array;
	/**
	 * When the light challenge's colours began (frames' clock). Frames before it are preferred for the
	 * best frame and passive liveness: the user photo should not be tinted, and the passive model was
	 * not trained on faces lit by a coloured screen.
	 */
	litFrom?: number;
}

const PHOTO_SIZE = 224;
/** How much the server forgives JPEG's softening when it re-applies the gate. */
const SERVER_BLUR_FACTOR = 0.5;

/** The gate as the server applies it to evidence: centring is the user's framing, not a property of the face. */
export function serverGate(quality: FaceQualityMetrics, faceCount: number, settings: Partial<QualitySettings> = {}): QualityVerdict {
	const s = { ...settings };
	if (s.blurThreshold !== undefined) s.blurThreshold *= SERVER_BLUR_FACTOR;
	else s.blurThreshold = 50 * SERVER_BLUR_FACTOR;
	s.minFaceSize = (s.minFaceSize ?? 100) * 0.7;
	s.maxFaceSize = (s.maxFaceSize ?? 400) * 1.5;
	s.qualityThreshold = 0;
	const verdict = qualityGate({ faceCount, face: { ...quality, centreOffset: 0 } }, s);
	return verdict;
}

/** The median of each of a box's numbers, over boxes (null when there are none). */
function medianBox(boxes: readonly Box[]): Box | null {
	if (boxes.length === 0) return null;
	const mid = (k: keyof Box) => boxes.map((b) => b[k]).sort((a, b) => a - b)[(boxes.length - 1) >> 1];
	return { x: mid('x'), y: mid('y'), width: mid('width'), height: mid('height') };
}

const digest = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest().subarray(0, 16));

/** Runs the server's analysis on the uploaded frames (in time order). */
export async function analyseEvidence(engine: FaceEngine, input: readonly EvidenceFrame[], plan: AnalysisPlan = {}): Promise<EvidenceAnalysis> {
	const started = performance.now();
	const frames = [...input].sort((a, b) => a.t - b.t);
	// All at once: sharp decodes on libuv's threads, so the frames decode side by side (14 frames of
	// 1280×720: 100 ms one after another on a quiet 2-core machine).
	const images: (DecodedImage | null)[] = await Promise.all(frames.map((frame) => decodeImage(frame.bytes, 1280, MAX_FRAME_PIXELS).catch(() => null)));
	const analysed: AnalysedFrame[] = [];
	const frameDigests = frames.map((frame, i) => digest(images[i]?.data ?? frame.bytes));
	const signatures: Float32Array[] = [];
	const signed: DecodedImage[] = [];
	const scratch = createQualityScratch();
	let bestIndex = -1;
	let notConfirmed = 0;
	await engine.exclusive(async (pipeline) => {
		for (const [index, frame] of frames.entries()) {
			const image = images[index];
			if (!image) {
				analysed.push({ index, t: frame.t, width: 0, height: 0, faceCount: 0, face: null, light: null, error: 'not a readable image' });
				continue;
			}
			signatures.push(frameSignature(image));
			signed.push(image);
			// Boxes nested in the face or specks far smaller than it are not another person; a shape
			// coloured as no skin is (Chromium's green test-pattern disc) is not a face at all, nor is one
			// the detector does not find again when it looks closer (a coffee cup at one position).
			const detections: Detection[] = [];
			let unconfirmed = 0;
			for (const d of distinctFaces((await pipeline.detect(image)).filter((d) => looksLikeSkin(image, d.box)))) {
				if (d.score >= SURE_DETECTION_SCORE || (await pipeline.closerLook(image, d.box)) >= CLOSER_LOOK_SCORE) detections.push(d);
				else unconfirmed++;
			}
			notConfirmed += unconfirmed;
			const largest = detections[0];
			let face: AnalysedFace | null = null;
			if (largest) {
				const landmarks = await pipeline.landmarks(image, largest.box);
				const quality = measureFace(image, largest.box, landmarks, scratch);
				const hidden = hiddenList(hiddenFeatures(image, landmarks));
				face = {
					box: largest.box,
					score: largest.score,
					landmarks5: fivePoints(landmarks),
					quality,
					gate: serverGate(quality, detections.length, plan.quality),
					liveness: null,
					embedding: null,
					...(hidden.length ? { hidden } : {})
				};
			}
			analysed.push({ index, t: frame.t, width: image.width, height: image.height, faceCount: detections.length, face, light: null });
		}
		// The light, cheap (a few thousand pixels): measured on every frame with a face, judged only when a
		// light challenge ran and only where the face is the subject's (subject-frames.ts). The skin is
		// each frame's; the background is what lies around the subject's median box, the same pixels in
		// every frame: around each frame's own box, the detector's jitter (box widths 323–362 px on a
		// head that did not move) moved the background region over a room's objects, and that alone
		// swung its colour as much as a weak screen lights a face (rig frames with no light at all:
		// background-relative SD 0.0155 → 0.0086 and 0.0217 → 0.0143 in ln B/G).
		const around = medianBox(subjectFrames(analysed).map((f) => f.face!.box));
		for (const f of analysed) if (f.face && around) f.light = measureLight(images[f.index]!, f.face.box, around);
		const single = analysed.filter((f) => f.faceCount === 1 && f.face);
		// Best: passes the gate if any does, then the highest gate score, then the most frontal.
		const litFrom = plan.litFrom ?? Infinity;
		const rank = (f: AnalysedFrame) => (f.face!.gate.pass ? 10 : 0) + (f.t < litFrom ? 5 : 0) + f.face!.gate.score - Math.abs(f.face!.quality.yaw) / 90;
		const ordered = [...single].sort((a, b) => rank(b) - rank(a));
		for (const f of ordered.slice(0, plan.livenessFrames ?? 5)) f.face!.liveness = await pipeline.liveness(images[f.index]!, f.face!.box);
		const best = ordered[0];
		if (best) {
			bestIndex = best.index;
			best.face!.embedding = await pipeline.embed(images[best.index]!, best.face!.landmarks5);
			// The others farthest in time from the best one: a face swapped mid-way shows there.
			const others = single
				.filter((f) => f !== best && Math.abs(f.face!.quality.yaw) <= 35)
				.sort((a, b) => Math.abs(b.t - best.t) - Math.abs(a.t - best.t))
				.slice(0, plan.identityFrames ?? 2);
			for (const f of others) f.face!.embedding = await pipeline.embed(images[f.index]!, f.face!.landmarks5);
		}
	});

	const bestFace = bestIndex >= 0 ? analysed[bestIndex] : undefined;
	const scores = analysed.flatMap((f) => (f.face?.liveness != null ? [f.face.liveness] : []));
	const median = scores.length ? [...scores].sort((a, b) => a - b)[(scores.length - 1) >> 1] : null;
	const embedding = bestFace?.face?.embedding ?? null;
	let minSimilarity: number | null = null;
	for (const f of analysed) {
		if (!embedding || f === bestFace || !f.face?.embedding) continue;
		const s = cosineSimilarity(embedding, f.face.embedding);
		minSimilarity = minSimilarity === null ? s : Math.min(minSimilarity, s);
	}
	let faceJpeg: Uint8Array | null = null;
	let alignedCrop: EvidenceAnalysis['alignedCrop'] = null;
	if (bestFace?.face) {
		faceJpeg = await alignedJpeg(images[bestFace.index]!, bestFace.face.landmarks5);
		if (plan.alignedCrop && embedding) {
			alignedCrop = await checkAlignedCrop(engine, plan.alignedCrop, embedding);
		}
	}
	return {
		frames: analysed,
		bestIndex: bestFace?.index ?? -1,
		framesWithFace: analysed.filter((f) => f.faceCount > 0).length,
		framesWithSeveralFaces: analysed.filter((f) => f.faceCount > 1).length,
		detectionsNotConfirmed: notConfirmed,
		liveness: { scores, median, live: median !== null && median >= LIVENESS_THRESHOLD },
		identity: { minSimilarity, consistent: minSimilarity === null || minSimilarity >= MATCH_THRESHOLD },
		frameDigests,
		motion: motionSignals(signatures, undefined, (i, j) => pixelDistance(signed[i]!, signed[j]!) < LOOP_PIXEL_DIFF),
		timing: timingSignals(frames.map((f) => f.t)),
		embedding,
		faceJpeg,
		bestFrame: bestFace ? frames[bestFace.index].bytes : null,
		alignedCrop,
		ms: Math.round(performance.now() - started)
	};
}

/** The face aligned on its five points at 224×224 (twice the embedding crop), as a JPEG. */
async function alignedJpeg(image: DecodedImage, five: Landmarks5): Promise<Uint8Array> {
	const chw = alignFace(image, five, new Float32Array(3 * PHOTO_SIZE * PHOTO_SIZE), { channels: 'rgb', mean: 0, scale: 1 }, PHOTO_SIZE);
	const plane = PHOTO_SIZE * PHOTO_SIZE;
	const rgb = Buffer.alloc(3 * plane);
	for (let i = 0; i < plane; i++) {
		rgb[3 * i] = chw[i];
		rgb[3 * i + 1] = chw[plane + i];
		rgb[3 * i + 2] = chw[2 * plane + i];
	}
	return new Uint8Array(await sharp(rgb, { raw: { width: PHOTO_SIZE, height: PHOTO_SIZE, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
}

/**
 * The browser uploads the 112×112 crop it embedded. Embedding it here and comparing with the server's
 * embedding of the best frame shows whether the crop came from these frames (it is logged, not trusted).
 */
async function checkAlignedCrop(engine: FaceEngine, bytes: Uint8Array, embedding: Float32Array): Promise<{ similarity: number } | null> {
	let image: DecodedImage;
	try {
		// A 112×112 crop: refuse anything far larger from its header rather than inflate it.
		image = await decodeImage(bytes, 512, 1024 * 1024);
	} catch {
		return null;
	}
	if (image.width < 32 || image.height < 32) return null;
	// The crop is already on the ArcFace template: its five points are the template's, scaled.
	const s = image.width / FEATURE_SIZE;
	const five = ARCFACE_REFERENCE.map((p) => ({ x: p.x * s, y: p.y * s })) as Landmarks5;
	const other = await engine.exclusive((p: FacePipeline) => p.embed(image, five));
	return { similarity: cosineSimilarity(embedding, other) };
}

// The page's quick look at a camera frame (runs every few hundred ms on a downscaled copy): is there
// a document, is it large enough, is it sharp, is there glare? The same code the server uses
// (src/lib/documents); the page only uses it for guidance and to pick the moment to capture.
import { assessCapture, type CaptureQuality } from '#lib/documents/capture-quality.ts';
import { findDocumentQuad } from '#lib/documents/document-quad.ts';
import { quadSize } from '#lib/documents/homography.ts';
import type { Quad, Raster } from '#lib/documents/raster.ts';
import { warpQuad } from '#lib/documents/warp.ts';

/** What the guidance line says (keys under `document:`). */
/** `otherDocument`: the document in view is the one the server refused for its type (the page repeats why). */
export type DocumentGuidance = 'fitInFrame' | 'moveCloser' | 'moveBack' | 'glare' | 'blur' | 'holdFlat' | 'capturing' | 'flip' | 'otherDocument';

export interface FrameCheck {
	quad: Quad | null;
	/** Share of the frame the document covers. */
	coverage: number;
	quality: CaptureQuality | null;
	guidance: DocumentGuidance;
	/** Document found, large enough, sharp and without glare: a frame worth capturing. */
	good: boolean;
	ms: number;
}

/** Smallest share of the frame the document must cover (the MRZ needs pixels); above MAX it is cut off. */
export const MIN_COVERAGE = 0.3;
export const MAX_COVERAGE = 0.95;
/** Side of the rectified copy the blur and glare are measured on. */
const CHECK_SIDE = 640;
/** Corners this close to the frame edge (share of the side) suggest the document is cut off. */
const EDGE_MARGIN = 0.005;

/** Checks one (downscaled) frame. `now` is a clock for the timing only. */
export function checkFrame(frame: Raster, now: () => number = () => performance.now()): FrameCheck {
	const t0 = now();
	const found = findDocumentQuad(frame);
	if (!found) return { quad: null, coverage: 0, quality: null, guidance: 'fitInFrame', good: false, ms: now() - t0 };
	const { quad, coverage } = found;
	const touches = quad.some(([x, y]) => x < frame.width * EDGE_MARGIN || y < frame.height * EDGE_MARGIN || x > frame.width * (1 - EDGE_MARGIN) || y > frame.height * (1 - EDGE_MARGIN));
	let guidance: DocumentGuidance | null = coverage < MIN_COVERAGE ? 'moveCloser' : coverage > MAX_COVERAGE || touches ? 'moveBack' : null;
	const size = quadSize(quad);
	const scale = Math.min(1, CHECK_SIDE / Math.max(size.width, size.height));
	const flat = warpQuad(frame, quad, Math.max(8, Math.round(size.width * scale)), Math.max(8, Math.round(size.height * scale)));
	const quality = assessCapture(flat);
	guidance ??= quality.glary ? 'glare' : quality.blurry ? 'blur' : 'holdFlat';
	return { quad, coverage, quality, guidance, good: guidance === 'holdFlat', ms: now() - t0 };
}

/** Size of a side's signature: a tiny grey copy of the rectified document. */
const SIG_W = 32;
const SIG_H = 20;
/**
 * Below this distance two signatures show the same side (MULTI_SIDE: the user has not turned the
 * card over yet). Fixtures: the same side moved and brightened 0.07, two passports of the same layout
 * 0.25, front vs back of the TD1 card 0.74.
 */
export const SAME_SIDE_MAX = 0.45;

/** A side's signature: the rectified document at 32×20, grey, normalised to zero mean and unit variance. */
export function sideSignature(frame: Raster, quad: Quad): Float32Array {
	const flat = warpQuad(frame, quad, SIG_W, SIG_H);
	const c = flat.channels;
	const out = new Float32Array(SIG_W * SIG_H);
	for (let i = 0; i < out.length; i++) {
		const k = i * c;
		out[i] = c === 1 ? flat.data[k] : (flat.data[k] * 77 + flat.data[k + 1] * 150 + flat.data[k + 2] * 29) / 256;
	}
	let mean = 0;
	for (const v of out) mean += v;
	mean /= out.length;
	let variance = 0;
	for (const v of out) variance += (v - mean) ** 2;
	const sd = Math.sqrt(variance / out.length) || 1;
	for (let i = 0; i < out.length; i++) out[i] = (out[i] - mean) / sd;
	return out;
}

/** Mean absolute difference of two signatures (0: identical; ~1.1 for unrelated images). */
export function signatureDistance(a: Float32Array, b: Float32Array): number {
	let sum = 0;
	for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
	return sum / a.length;
}

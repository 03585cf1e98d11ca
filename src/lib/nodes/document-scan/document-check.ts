// The page's quick look at a camera frame (runs every few hundred ms on a downscaled copy): is there
// a document, is it large enough, is it sharp, is there glare? The same code the server uses
// (src/lib/documents); the page only uses it for guidance and to pick the moment to capture.
import { assessCapture, type CaptureQuality } from '#lib/documents/capture-quality.ts';
import { findDocumentQuad } from '#lib/documents/document-quad.ts';
import { quadSize } from '#lib/documents/homography.ts';
import type { Quad, Raster } from '#lib/documents/raster.ts';
import { warpQuad } from '#lib/documents/warp.ts';

/** What the guidance line says (keys under `document:`). */
export type DocumentGuidance = 'fitInFrame' | 'moveCloser' | 'moveBack' | 'glare' | 'blur' | 'holdFlat' | 'capturing';

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

/**
 * Video plumbing measurements over decoded frames (pure, no I/O): frozen picture, repeated
 * footage and timing gaps. They say what the pixels and timestamps show, not who is in front of
 * the camera; face-based criteria come from the face models. Frames are 8-bit grey, row-major.
 */

export interface GreyFrames {
	width: number;
	height: number;
	/** Sampling rate the frames were taken at (uniform in time). */
	fps: number;
	frames: Uint8Array[];
}

export interface VideoCriterion {
	id: string;
	title: string;
	detected: boolean;
	/** How far the measurement is from the decision threshold, 0.5 (at it) to 1 (far); not a calibrated probability. */
	confidence: number;
	details?: string;
}

/** Mean absolute difference of two equal-sized grey frames, 0–255. */
export function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
	let sum = 0;
	for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
	return sum / a.length;
}

/**
 * Consecutive samples closer than this are "the same picture". A live camera's sensor noise and
 * the user's small movements keep consecutive frames well above it even at 64×48; a still image
 * fed through a virtual camera, or a stalled stream, decodes to (near-)identical frames.
 */
export const FROZEN_MAD = 0.2;
export const FROZEN_MIN_SECONDS = 3;
export const FROZEN_MAX_SHARE = 0.5;

export function frozenPicture(video: GreyFrames): { longestSeconds: number; share: number } {
	const { frames, fps } = video;
	if (frames.length < 2) return { longestSeconds: 0, share: 0 };
	let run = 0;
	let longest = 0;
	let still = 0;
	for (let i = 1; i < frames.length; i++) {
		if (meanAbsDiff(frames[i], frames[i - 1]) <= FROZEN_MAD) {
			still++;
			run++;
			longest = Math.max(longest, run);
		} else run = 0;
	}
	return { longestSeconds: longest / fps, share: still / (frames.length - 1) };
}

/** Downscales by averaging `f`×`f` blocks: cheap signatures for the all-pairs loop search. */
export function blockSignature(frame: Uint8Array, width: number, height: number, f = 4): Uint8Array {
	const w = Math.floor(width / f);
	const h = Math.floor(height / f);
	const out = new Uint8Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			let s = 0;
			for (let dy = 0; dy < f; dy++) for (let dx = 0; dx < f; dx++) s += frame[(y * f + dy) * width + x * f + dx];
			out[y * w + x] = Math.round(s / (f * f));
		}
	}
	return out;
}

/** Signatures this close are the same picture (allowing re-encoding noise). */
export const LOOP_MATCH_MAD = 2;
/** The repeated stretch must show real change, so a still scene does not count as a loop. */
export const LOOP_MIN_CHANGE_MAD = 6;
export const LOOP_MIN_SECONDS = 1;

/**
 * The longest stretch of moving picture that appears again later (a looped or replayed clip): for
 * every lag of at least a second, the longest run of samples i where frame i matches frame i+lag
 * and the run itself changes noticeably. O(n²) over 192-value signatures: ~35 M operations at
 * the 600-frame cap.
 */
export function repeatedFootage(video: GreyFrames): { longestSeconds: number; firstAt?: number; repeatAt?: number } {
	const { frames, fps, width, height } = video;
	const sigs = frames.map((f) => blockSignature(f, width, height));
	const minLag = Math.max(1, Math.round(LOOP_MIN_SECONDS * fps));
	let best = { run: 0, i: -1, j: -1 };
	for (let lag = minLag; lag < sigs.length; lag++) {
		let start = -1;
		let change = 0;
		for (let i = 0; i + lag < sigs.length; i++) {
			const match = meanAbsDiff(sigs[i], sigs[i + lag]) <= LOOP_MATCH_MAD;
			if (match) {
				if (start < 0) {
					start = i;
					change = 0;
				} else change = Math.max(change, meanAbsDiff(sigs[start], sigs[i]));
				const run = i - start + 1;
				if (change >= LOOP_MIN_CHANGE_MAD && run > best.run) best = { run, i: start, j: start + lag };
			} else start = -1;
		}
	}
	if (best.run === 0) return { longestSeconds: 0 };
	return { longestSeconds: best.run / fps, firstAt: best.i / fps, repeatAt: best.j / fps };
}

export const GAP_MS = 1000;

/** Gaps between consecutive frame timestamps longer than a second (stall, hidden tab, switched stream). */
export function timingGaps(ptsMs: number[]): { maxGapMs: number; gaps: number; averageFps: number | null } {
	const pts = [...ptsMs].filter(Number.isFinite).sort((a, b) => a - b);
	let maxGapMs = 0;
	let gaps = 0;
	for (let i = 1; i < pts.length; i++) {
		const d = pts[i] - pts[i - 1];
		maxGapMs = Math.max(maxGapMs, d);
		if (d > GAP_MS) gaps++;
	}
	const span = pts.length > 1 ? pts[pts.length - 1] - pts[0] : 0;
	return { maxGapMs, gaps, averageFps: span > 0 ? ((pts.length - 1) * 1000) / span : null };
}

/** 0.5 at the threshold, rising to 1 as the measurement moves a threshold's width away from it. */
export function confidenceFrom(value: number, threshold: number): number {
	return Math.round((0.5 + 0.5 * Math.min(1, Math.abs(value - threshold) / threshold)) * 100) / 100;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The plumbing criteria of `videoAIAnalysis`. */
export function plumbingCriteria(video: GreyFrames, ptsMs: number[]): VideoCriterion[] {
	const frozen = frozenPicture(video);
	const frozenDetected = frozen.longestSeconds >= FROZEN_MIN_SECONDS || frozen.share >= FROZEN_MAX_SHARE;
	const frozenConfidence = Math.max(confidenceFrom(frozen.longestSeconds, FROZEN_MIN_SECONDS), frozenDetected && frozen.share >= FROZEN_MAX_SHARE ? confidenceFrom(frozen.share, FROZEN_MAX_SHARE) : 0);
	const loop = repeatedFootage(video);
	const gaps = timingGaps(ptsMs);
	return [
		{
			id: 'frozen_video',
			title: 'Frozen picture',
			detected: frozenDetected,
			confidence: frozenDetected ? frozenConfidence : Math.min(confidenceFrom(frozen.longestSeconds, FROZEN_MIN_SECONDS), confidenceFrom(frozen.share, FROZEN_MAX_SHARE)),
			details: `Longest unchanged stretch ${round1(frozen.longestSeconds)} s; ${Math.round(frozen.share * 100)}% of sampled frames identical to the one before (detected at ≥ ${FROZEN_MIN_SECONDS} s or ≥ ${FROZEN_MAX_SHARE * 100}%).`
		},
		{
			id: 'repeated_footage',
			title: 'Repeated footage (looped or replayed clip)',
			detected: loop.longestSeconds >= LOOP_MIN_SECONDS,
			confidence: confidenceFrom(loop.longestSeconds, LOOP_MIN_SECONDS),
			details:
				loop.firstAt === undefined
					? 'No stretch of moving picture appears twice.'
					: `${round1(loop.longestSeconds)} s of moving picture starting at ${round1(loop.firstAt)} s appears again ${round1(loop.repeatAt! - loop.firstAt)} s later, at ${round1(loop.repeatAt!)} s (detected at ≥ ${LOOP_MIN_SECONDS} s).`
		},
		{
			id: 'recording_gaps',
			title: 'Stalled recording',
			detected: gaps.gaps > 0,
			confidence: confidenceFrom(gaps.maxGapMs, GAP_MS),
			details: `${gaps.gaps} gap(s) longer than ${GAP_MS / 1000} s between frames; longest ${round1(gaps.maxGapMs / 1000)} s.`
		}
	];
}

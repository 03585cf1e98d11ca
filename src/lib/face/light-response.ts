// The light challenge's verifier: did the light reflected on the face follow the sequence the server
// picked, with the right timing? Pure, on pixels: `measureLight` reads one frame (face skin and
// background), `verifyLightResponse` judges the frames of a try against the sequence.
//
// The measure is the face's log-chromaticity (ln R/G, ln B/G of linear light) minus the background's.
// A change of exposure or white balance multiplies each channel of the whole frame by one gain, which
// adds the same constant to both regions' log-chromaticity and cancels in the difference; the screen's
// light is added to what is near it (the face, not the far wall), which moves the face's chromaticity
// and not the background's. So a whole picture tinted by an attacker, however well timed, gives a flat
// difference; and the background's own response, compared with the face's, shows it was lit as much.
import { hexToRgb, LIGHT_TAIL_MS, lightDuration, lightStepAt, lightStepStarts, shownLightSequence, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import type { Box, RgbaImage } from './image.ts';

/** Mean linear RGB of the face's skin and of the background beside and above the head. */
export interface LightMeasure {
	face: [number, number, number];
	background: [number, number, number] | null;
}

export interface LightFrame {
	/** Page clock (ms since the try started), as the frame was stamped. */
	t: number;
	measure: LightMeasure | null;
	/** Head yaw in the frame (degrees): the turn changes what the skin region sees, so it is taken out. */
	yaw?: number;
}

/** `turnOutside`: the challenge's movement began before the colours or only after them (not in the same frames). */
export type LightFailure = 'missing' | 'tooFewFrames' | 'stepsMissed' | 'noBackground' | 'noResponse' | 'mismatch' | 'lagging' | 'backgroundLit' | 'turnOutside';

export interface LightResult {
	passed: boolean;
	reason?: LightFailure;
	/** Correlation of the face's response with the sequence at the lag found (-1…1). */
	score: number;
	/** Shortest delay (ms) between the screen and the frames that explains the response about as well as the best. */
	lagMs: number | null;
	/** Background's response relative to the face's (1: lit as much as the face). */
	backgroundRatio: number | null;
	/** RMS of the face-minus-background log-chromaticity over the frames (how much anything responded). */
	response: number | null;
	/** Frames inside the sequence's window that could be measured. */
	frames: number;
	/** Steps of the sequence the response was judged on: those the page showed (it stops once the movement is under way). */
	steps: number;
	/** The frames were read against when the page showed each colour (true), or against the plan. */
	asShown?: boolean;
}

/**
 * Fewest measurable frames in the window. Chance matters here: face colour wandering at random (no
 * relation to the sequence) passed 2.7 % of random sequences on 6 frames at a 0.7 score; on 8, 9
 * and 11 frames covering all but one step at 0.8 it passed 0.07 %, 0.01 % and 0.01 % (20 000 each).
 */
export const LIGHT_MIN_FRAMES = 8;
/** Lags searched: a relayed stream's delay shows as a best fit far from 0. */
export const LIGHT_LAG_SEARCH_MS = 600;
const LAG_STEP_MS = 10;
/** A lag counts as "about as good" as the best within this much correlation. */
const LAG_TOLERANCE = 0.05;
/**
 * Latest response accepted: a camera's own latency (up to ~150 ms) and half the page's 100 ms fade.
 * A relayed stream 300 ms late is past it; the page takes a frame ~280 ms after each change to show it.
 */
export const LIGHT_MAX_LAG_MS = 200;
/** Correlation the response must reach (2 chroma channels × 8–12 frames; see LIGHT_MIN_FRAMES for chance). */
export const LIGHT_MIN_SCORE = 0.8;
/**
 * RMS of the face-minus-background log-chromaticity below which nothing responded. A still through
 * sensor noise, JPEG and auto-exposure wander measures ~0.004 (light-response.spec.ts); a phone screen
 * at 30 cm adds ~50 lux to an office's ~400, k ≈ 0.1, and moves skin by ~0.03 between palette colours.
 */
export const LIGHT_MIN_RESPONSE = 0.008;
/** Background responding at this share of the face's response or more: the whole frame was tinted. */
export const LIGHT_MAX_BACKGROUND_RATIO = 0.6;

// sRGB → linear light (the screen's light adds in linear light, not in gamma-encoded values).
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
	const c = v / 255;
	return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Mean linear RGB over a rectangle, every `step` pixels, skipping clipped and near-black pixels. */
function regionMean(image: RgbaImage, x0: number, y0: number, x1: number, y1: number, step: number, skip?: (x: number, y: number) => boolean) {
	const { data, width, height } = image;
	const sum = [0, 0, 0];
	let n = 0;
	for (let y = Math.max(0, Math.floor(y0)); y < Math.min(height, y1); y += step) {
		for (let x = Math.max(0, Math.floor(x0)); x < Math.min(width, x1); x += step) {
			if (skip?.(x, y)) continue;
			const i = 4 * (y * width + x);
			const r = data[i];
			const g = data[i + 1];
			const b = data[i + 2];
			// Clipped channels do not follow the light; near-black pixels are mostly noise.
			if (r >= 250 || g >= 250 || b >= 250 || r + g + b < 30) continue;
			sum[0] += LINEAR[r];
			sum[1] += LINEAR[g];
			sum[2] += LINEAR[b];
			n++;
		}
	}
	return { mean: n ? ([sum[0] / n, sum[1] / n, sum[2] / n] as [number, number, number]) : null, n };
}

/**
 * One frame's light measure. Skin: the middle of the face box (cheeks, nose, mouth; not hair, not
 * eyes). Background: what lies beside and above the head, outside the box widened by 60 % a side
 * (hair, ears, shoulders are near the screen too). Null background when the face fills the frame.
 */
export function measureLight(image: RgbaImage, box: Box, around: Box = box): LightMeasure | null {
	const step = Math.max(1, Math.floor(Math.min(image.width, image.height) / 160));
	const face = regionMean(image, box.x + 0.25 * box.width, box.y + 0.35 * box.height, box.x + 0.75 * box.width, box.y + 0.85 * box.height, step);
	if (!face.mean || face.n < 20) return null;
	const left = around.x - 0.6 * around.width;
	const right = around.x + 1.6 * around.width;
	const top = around.y - 0.5 * around.height;
	const bg = regionMean(image, 0, 0, image.width, around.y + around.height, step, (x, y) => x >= left && x < right && y >= top);
	return { face: face.mean, background: bg.mean && bg.n >= 50 ? bg.mean : null };
}

type Vec2 = [number, number];
const logChroma = ([r, g, b]: [number, number, number]): Vec2 => [Math.log(r / g), Math.log(b / g)];

/**
 * What the screen's colour `s` (linear light) does to a diffusely reflecting region: a pixel is
 * albedo × (ambient + k·s), so with a neutral ambient E, ln(R/G) moves by about k·(s_R − s_G)/E (and
 * ln(B/G) likewise), whatever the skin's own colour. k is unknown; the correlation does not need it,
 * and comparing the gains of face and background gives how much more the face was lit.
 */
const expectedShift = (s: number[]): Vec2 => [s[0] - s[1], s[2] - s[1]];

/**
 * Each channel centred and, given a pose per frame, without its linear dependence on the pose: the head
 * turns while the colours change, and a turned face shows more cheek, ear or hair in the skin region.
 * Applied to the response and to the expectation alike, the correlation is then a partial one.
 */
function residualise(v: Vec2[], pose: number[] | null): Vec2[] {
	const n = v.length;
	const out = v.map((p): Vec2 => [p[0], p[1]]);
	for (let c = 0; c < 2; c++) {
		const m = out.reduce((sum, p) => sum + p[c], 0) / n;
		for (const p of out) p[c] -= m;
	}
	if (!pose) return out;
	const pm = pose.reduce((a, b) => a + b, 0) / n;
	const pc = pose.map((p) => p - pm);
	const spp = pc.reduce((a, b) => a + b * b, 0);
	// A pose that hardly varies (< 2° RMS) explains nothing and would only fit noise.
	if (spp / n < 4) return out;
	for (let c = 0; c < 2; c++) {
		const b = out.reduce((sum, p, i) => sum + p[c] * pc[i], 0) / spp;
		for (const [i, p] of out.entries()) p[c] -= b * pc[i];
	}
	return out;
}

/** Pearson correlation and least-squares gain of a 2-channel response `x` against the expectation `y`. */
function fit(x: Vec2[], y: Vec2[]): { corr: number; gain: number; rms: number } | null {
	const n = x.length;
	const mx = [0, 0];
	const my = [0, 0];
	for (let i = 0; i < n; i++) for (let c = 0; c < 2; c++) (mx[c] += x[i][c] / n), (my[c] += y[i][c] / n);
	let sxy = 0;
	let sxx = 0;
	let syy = 0;
	for (let i = 0; i < n; i++) {
		for (let c = 0; c < 2; c++) {
			const a = x[i][c] - mx[c];
			const b = y[i][c] - my[c];
			sxy += a * b;
			sxx += a * a;
			syy += b * b;
		}
	}
	if (syy <= 1e-12) return null;
	const rms = Math.sqrt(sxx / n);
	return { corr: sxx > 0 ? sxy / Math.sqrt(sxx * syy) : 0, gain: sxy / syy, rms };
}

/** Linear-light colour of each step, and the mean the screen shows outside the sequence (unknown: neutral). */
function stepColours(sequence: LightSequence): { steps: number[][]; neutral: number[] } {
	const steps = sequence.steps.map((s) => hexToRgb(s.colour).map((v) => LINEAR[v]));
	const neutral = [0, 1, 2].map((c) => steps.reduce((sum, s) => sum + s[c], 0) / steps.length);
	return { steps, neutral };
}

interface Scan {
	best: { corr: number; lag: number; gain: number; rms: number } | null;
	/** Shortest lag whose correlation is within LAG_TOLERANCE of the best. */
	earliest: number | null;
}

/** Correlation of a response with the sequence at every lag searched. */
function scanLags(times: number[], response: Vec2[], colours: ReturnType<typeof stepColours>, sequence: LightSequence, pose: number[] | null): Scan {
	const x = residualise(response, pose);
	const byLag: { lag: number; corr: number; gain: number; rms: number }[] = [];
	for (let lag = 0; lag <= LIGHT_LAG_SEARCH_MS; lag += LAG_STEP_MS) {
		const expected = times.map((t) => {
			const k = lightStepAt(sequence, t - lag);
			const s = k >= 0 && k < colours.steps.length ? colours.steps[k] : colours.neutral;
			return expectedShift(s);
		});
		const f = fit(x, residualise(expected, pose));
		if (f) byLag.push({ lag, ...f });
	}
	if (!byLag.length) return { best: null, earliest: null };
	const best = byLag.reduce((a, b) => (b.corr > a.corr ? b : a));
	const earliest = byLag.find((l) => l.corr >= best.corr - LAG_TOLERANCE)!.lag;
	return { best, earliest };
}

const round = (v: number, d = 3) => Number(v.toFixed(d));

/** Most a colour may have come on later than planned, as the page reports it (a busy device's timers). */
export const LIGHT_MAX_SLIP_MS = 1000;

/**
 * The sequence's time line as shown: frame times (frames' clock) → time into the planned sequence. From
 * `changedAt` (when each later colour, then none, went on screen) when it is plausible: as many as the
 * steps, in order, none early and none more than LIGHT_MAX_SLIP_MS late (timers fire late, never early).
 * Otherwise the plan. The page stamps its frames on the same clock, so what it says of the colours
 * is no weaker than what it says of the frames; a relayed stream is still late against both.
 */
function shownTimeline(sequence: LightSequence, startedAt: number, changedAt: readonly number[] | null): { toPlan: (t: number) => number; end: number; shown: boolean } {
	const planned = lightStepStarts(sequence).map((s) => startedAt + s);
	planned.push(startedAt + lightDuration(sequence));
	const valid =
		changedAt !== null &&
		changedAt.length === sequence.steps.length &&
		changedAt.every((t, k) => t >= planned[k + 1]! - 5 && t <= planned[k + 1]! + LIGHT_MAX_SLIP_MS && (k === 0 || t >= changedAt[k - 1]!));
	if (!valid) return { toPlan: (t) => t - startedAt, end: planned.at(-1)!, shown: false };
	const onsets = [startedAt, ...changedAt];
	const n = sequence.steps.length;
	return {
		toPlan: (t) => {
			if (t < onsets[0]!) return t - startedAt;
			if (t >= onsets[n]!) return planned[n]! - startedAt + (t - onsets[n]!);
			let k = 0;
			while (k < n - 1 && t >= onsets[k + 1]!) k++;
			// Time since the colour came on, within the step (a step held longer stays that step).
			return planned[k]! - startedAt + Math.min(t - onsets[k]!, sequence.steps[k]!.ms - 1);
		},
		end: onsets[n]!,
		shown: true
	};
}

/**
 * Judges the frames of one try against the sequence shown from `startedAt` (page clock, as the
 * frames' t). Frames outside the sequence's window (plus LIGHT_TAIL_MS) are not looked at.
 * `movementAt`: when the challenge's movement was under way (challenge.ts onsetIndex: a turn half
 * done on its climb to the peak, a blink's closed frame); it must lie in the window, so frames that
 * answer the light also show the movement the challenge asked for (the turn-continuity check ties
 * them to its peak, which may come after the colours: a user slow to react).
 */
export function verifyLightResponse(
	issued: LightSequence,
	startedAt: number | null,
	frames: readonly LightFrame[],
	movementAt: number | null = null,
	changedAt: readonly number[] | null = null
): LightResult {
	// The steps the page showed: it stops once the movement is under way (light-challenge.ts).
	const sequence = shownLightSequence(issued, changedAt);
	const none = (reason: LightFailure, n = 0): LightResult => ({ passed: false, reason, score: 0, lagMs: null, backgroundRatio: null, response: null, frames: n, steps: sequence.steps.length });
	if (startedAt === null || !Number.isFinite(startedAt)) return none('missing');
	const timeline = shownTimeline(sequence, startedAt, changedAt);
	const end = timeline.end + LIGHT_TAIL_MS;
	const inWindow = frames.filter((f) => f.t >= startedAt && f.t <= end && f.measure).sort((a, b) => a.t - b.t);
	if (inWindow.length < LIGHT_MIN_FRAMES) return none('tooFewFrames', inWindow.length);
	const withBackground = inWindow.filter((f) => f.measure!.background);
	if (withBackground.length < LIGHT_MIN_FRAMES) return none('noBackground', inWindow.length);
	const n = withBackground.length;
	const times = withBackground.map((f) => timeline.toPlan(f.t));
	// Every step but one must be seen: a response is judged on the whole sequence, not a part chance fits.
	const seen = new Set(times.map((t) => lightStepAt(sequence, t)));
	const stepsSeen = sequence.steps.filter((_, k) => seen.has(k)).length;
	if (stepsSeen < sequence.steps.length - 1) return none('stepsMissed', n);
	const faces = withBackground.map((f) => f.measure!.face);
	const backs = withBackground.map((f) => f.measure!.background!);
	const colours = stepColours(sequence);

	const faceChroma = faces.map(logChroma);
	const backChroma = backs.map(logChroma);
	const difference = faceChroma.map((f, i): Vec2 => [f[0] - backChroma[i][0], f[1] - backChroma[i][1]]);
	const yaws = withBackground.map((f) => f.yaw);
	const pose = yaws.every((y): y is number => typeof y === 'number' && Number.isFinite(y)) ? yaws : null;
	const diff = scanLags(times, difference, colours, sequence, pose);
	const faceOnly = scanLags(times, faceChroma, colours, sequence, pose);

	// The background's response at the lag the face responds best at, relative to the face's: light
	// from a screen falls off with distance, so a wall lit like the face means the picture was tinted.
	const lag = faceOnly.best && faceOnly.best.corr >= LIGHT_MIN_SCORE ? faceOnly.best.lag : (diff.best?.lag ?? 0);
	const expected = times.map((t) => {
		const k = lightStepAt(sequence, t - lag);
		return expectedShift(k >= 0 && k < colours.steps.length ? colours.steps[k] : colours.neutral);
	});
	const faceFit = fit(residualise(faceChroma, pose), residualise(expected, pose));
	const backFit = fit(residualise(backChroma, pose), residualise(expected, pose));
	const backgroundRatio = faceFit && backFit && faceFit.gain > 0 ? backFit.gain / faceFit.gain : null;
	const backgroundLit = backgroundRatio !== null && backgroundRatio >= LIGHT_MAX_BACKGROUND_RATIO && (faceOnly.best?.corr ?? 0) >= LIGHT_MIN_SCORE;

	const best = diff.best;
	const result = (passed: boolean, reason?: LightFailure): LightResult => ({
		passed,
		...(reason ? { reason } : {}),
		score: round(best?.corr ?? 0),
		lagMs: diff.earliest,
		backgroundRatio: backgroundRatio === null ? null : round(backgroundRatio, 2),
		response: best ? round(best.rms, 4) : null,
		frames: n,
		steps: sequence.steps.length,
		asShown: timeline.shown
	});
	if (backgroundLit) return result(false, 'backgroundLit');
	if (!best || (best.rms < LIGHT_MIN_RESPONSE && (faceOnly.best?.rms ?? 0) < LIGHT_MIN_RESPONSE)) return result(false, 'noResponse');
	if (best.corr < LIGHT_MIN_SCORE || best.gain <= 0) return result(false, best.rms < LIGHT_MIN_RESPONSE ? 'noResponse' : 'mismatch');
	if (diff.earliest! > LIGHT_MAX_LAG_MS) return result(false, 'lagging');
	if (movementAt !== null && (movementAt < startedAt || movementAt > end)) return result(false, 'turnOutside');
	return result(true);
}

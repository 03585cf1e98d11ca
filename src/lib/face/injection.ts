// Signs that the "camera" is not a camera: a virtual-camera driver, a still picture fed in (frozen
// frames), a short clip played in a loop, or frame timing no real sensor produces. Each is a signal,
// not proof: they are recorded in the node report, and decide the verdict only outside sandbox
// sessions (Chromium's fake camera, used by the tests, trips several of them by design).
import { FROZEN_FRAME_DIFF } from './face-thresholds.ts';
import type { Box, RgbaImage } from './image.ts';
import { mean } from './quality.ts';
import { cropResize, GRAY_FORMAT } from './sample.ts';

/** Labels of virtual-camera drivers and of browsers' fake capture devices (lower case). */
const VIRTUAL_CAMERA = /\b(virtual|obs|manycam|snap camera|xsplit|vcam|camtwist|splitcam|mmhmm|chromacam|youcam|fake|dummy|v4l2 ?loopback|e2esoft)\b|fake_device/i;

/** Whether a MediaStreamTrack / device label names a virtual camera. */
export function isVirtualCameraLabel(label: string | null | undefined): boolean {
	return !!label && VIRTUAL_CAMERA.test(label);
}

/** Side of the grey thumbnail a frame is reduced to for frozen/loop checks. */
export const SIGNATURE_SIZE = 16;

/** A small grey thumbnail of `box` (default: the whole frame), values 0–255. */
export function frameSignature(image: RgbaImage, box?: Box, out = new Float32Array(SIGNATURE_SIZE * SIGNATURE_SIZE)): Float32Array {
	return cropResize(image, box ?? { x: 0, y: 0, width: image.width, height: image.height }, SIGNATURE_SIZE, SIGNATURE_SIZE, GRAY_FORMAT, out);
}

/** Mean absolute difference of two signatures, 0–255. */
export function signatureDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
	let sum = 0;
	for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
	return a.length ? sum / a.length : 0;
}

export interface MotionSignals {
	/** Share (0–1) of consecutive frame pairs that are the same picture (confirmed on the full pictures where given). */
	frozenShare: number;
	/** Every pair is the same picture: a still image, not a camera. */
	frozen: boolean;
	/** A frame reappears after different ones in between: a short clip played in a loop. */
	looped: boolean;
	/** Mean difference between consecutive frames (0–255). */
	meanChange: number;
	/**
	 * One frame is the left–right mirror image of another (background and all): a photo and its
	 * mirror posted as a "head turn" (mirroring turns +12° of yaw into −12°). A camera never does this.
	 */
	mirrored: boolean;
}

/** A signature with its brightness and contrast taken out (z-scores), so lighting changes do not hide a copy. */
function standardised(sig: ArrayLike<number>): Float32Array {
	let m = 0;
	for (let i = 0; i < sig.length; i++) m += sig[i];
	m /= sig.length || 1;
	let v = 0;
	for (let i = 0; i < sig.length; i++) v += (sig[i] - m) ** 2;
	const sd = Math.sqrt(v / (sig.length || 1)) || 1;
	const out = new Float32Array(sig.length);
	for (let i = 0; i < sig.length; i++) out[i] = (sig[i] - m) / sd;
	return out;
}

/** The signature flipped left–right. */
function flopped(sig: ArrayLike<number>): Float32Array {
	const out = new Float32Array(sig.length);
	for (let y = 0; y < SIGNATURE_SIZE; y++) for (let x = 0; x < SIGNATURE_SIZE; x++) out[y * SIGNATURE_SIZE + x] = sig[y * SIGNATURE_SIZE + (SIGNATURE_SIZE - 1 - x)];
	return out;
}

/**
 * Standardised distance under which one frame counts as the mirror image of another. Measured on six
 * fixture portraits mirrored, re-lit by 15 % and re-encoded at JPEG quality 60: 0.011–0.049; the
 * same portraits against their own mirror image (how far from symmetric a real scene is): 0.30–1.16.
 * Not measured: a real person turning both ways in front of a plain wall, the case closest to a
 * false alarm; hence a margin, and a failed challenge (retryable) rather than an injection verdict.
 */
export const MIRROR_DIFF = 0.1;

/**
 * Whether a frame is the mirror image of another: close to it when flipped, far from it as it is,
 * in a scene that is not itself left–right symmetric (there a mirror proves nothing).
 */
export function mirroredPair(signatures: readonly ArrayLike<number>[]): boolean {
	if (signatures.length < 2 || signatures[0]!.length !== SIGNATURE_SIZE * SIGNATURE_SIZE) return false;
	const z = signatures.map(standardised);
	const zf = z.map(flopped);
	for (let i = 0; i < z.length; i++) {
		const selfSymmetry = signatureDistance(z[i]!, zf[i]!);
		for (let j = 0; j < z.length; j++) {
			if (i === j) continue;
			const mirror = signatureDistance(z[i]!, zf[j]!);
			if (mirror < MIRROR_DIFF && mirror < 0.5 * signatureDistance(z[i]!, z[j]!) && selfSymmetry > 2 * mirror) return true;
		}
	}
	return false;
}

/**
 * Full-resolution mean absolute difference (0–255) of two decoded frames' green channel, read on
 * every other row and column; Infinity when their sizes differ.
 */
export function pixelDistance(a: RgbaImage, b: RgbaImage): number {
	if (a.width !== b.width || a.height !== b.height) return Infinity;
	let sum = 0;
	let n = 0;
	for (let y = 0; y < a.height; y += 2) {
		for (let x = 0, i = (y * a.width) * 4 + 1; x < a.width; x += 2, i += 8) {
			sum += Math.abs(a.data[i] - b.data[i]);
			n++;
		}
	}
	return n ? sum / n : 0;
}

/**
 * Full-resolution distance under which a repeat found on the thumbnails is the same picture, not a
 * still person: a clip played again decodes to the same pixels, which the page's encoder turns into
 * the same bytes (distance 0); two frames of a camera differ by its sensor noise at every pixel.
 * Measured on three fixture portraits at 640×480 with independent Gaussian noise and JPEG quality
 * 88: σ 0.5 → 0.70–0.94, σ 1 → 0.95–1.22, σ 2 → 1.44–1.75; without noise 0.000.
 */
export const LOOP_PIXEL_DIFF = 0.3;

/**
 * Frozen and looping frames from signatures in time order: a still picture fed in as a camera, or
 * a clip played again, gives the same pixels; a real sensor adds noise to every frame.
 *
 * A repeat on the 16×16 thumbnails is only a candidate: they average that noise away, so a person
 * sitting still in front of a laptop, or coming back to the same pose under the same light (a light
 * challenge returning to a colour), repeats on them too. `samePicture(i, j)`, when given, confirms a
 * candidate on the full pictures (the server passes `pixelDistance` < LOOP_PIXEL_DIFF); without it
 * (the page, which keeps thumbnails only) the thumbnails decide.
 */
export function motionSignals(signatures: readonly ArrayLike<number>[], threshold = FROZEN_FRAME_DIFF, samePicture?: (i: number, j: number) => boolean): MotionSignals {
	const n = signatures.length;
	if (n < 2) return { frozenShare: 0, frozen: false, looped: false, meanChange: 0, mirrored: false };
	const changes: number[] = [];
	let same = 0;
	for (let i = 1; i < n; i++) {
		const d = signatureDistance(signatures[i - 1], signatures[i]);
		changes.push(d);
		if (d < threshold && (!samePicture || samePicture(i - 1, i))) same++;
	}
	let looped = false;
	for (let i = 0; i < n && !looped; i++) {
		for (let j = i + 2; j < n; j++) {
			// Different frames in between, yet j repeats i.
			const between = changes.slice(i, j).some((c) => c >= threshold);
			if (between && signatureDistance(signatures[i], signatures[j]) < threshold / 2 && (!samePicture || samePicture(i, j))) {
				looped = true;
				break;
			}
		}
	}
	return { frozenShare: same / (n - 1), frozen: same === n - 1, looped, meanChange: mean(changes), mirrored: mirroredPair(signatures) };
}

export interface TimingSignals {
	frames: number;
	/** Frames a second over the sampled span. */
	fps: number;
	/** Coefficient of variation of the intervals (0 = a metronome). */
	jitter: number;
	/** Timestamps went backwards or repeated. */
	nonMonotonic: boolean;
}

/** Timing of frame timestamps (ms). */
export function timingSignals(times: readonly number[]): TimingSignals {
	const n = times.length;
	if (n < 2) return { frames: n, fps: 0, jitter: 0, nonMonotonic: false };
	const intervals: number[] = [];
	let nonMonotonic = false;
	for (let i = 1; i < n; i++) {
		const d = times[i] - times[i - 1];
		if (!(d > 0)) nonMonotonic = true;
		intervals.push(d);
	}
	const m = mean(intervals);
	const sd = Math.sqrt(mean(intervals.map((d) => (d - m) ** 2)));
	const span = times[n - 1] - times[0];
	return { frames: n, fps: span > 0 ? ((n - 1) * 1000) / span : 0, jitter: m > 0 ? sd / m : 0, nonMonotonic };
}

// Which of the frames grabbed during the challenge the page uploads (at most `room` of them). The
// server verifies the turn as one continuous motion, so the frames of the turn itself (from the last
// frontal frame to the peak) all go; the light challenge needs frames across its sequence, one soon
// after each colour change (a late response shows there) and one near each step's end; the rest fill
// in evenly. Pure, so it is tested without a browser.
import { lightStepStarts, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import { CHALLENGE_FRONTAL_YAW, CHALLENGE_TURN_DELTA } from '#lib/face/face-thresholds.ts';
import { TURN_MAX_GAP_MS } from '#lib/face/turn-continuity.ts';

export interface ChallengeFrame {
	t: number;
	/** Head yaw the page measured (null: no face in the frame, or not measured). */
	yaw: number | null;
	/** A face in the frame (default: a yaw was measured). Light frames are not analysed, only detected. */
	face?: boolean;
}

const hasFace = (f: ChallengeFrame) => f.face ?? f.yaw !== null;

/**
 * How long after a colour change the page looks for a frame: past a camera's latency (~150 ms) and the
 * page's 100 ms fade, before a stream relayed 300 ms late has caught up.
 */
export const AFTER_CHANGE_MS = 280;
/** …and before the step's end (the last frame of a step surely shows it). */
export const BEFORE_END_MS = 40;
/**
 * Kept frames of the turn at most this far apart where the camera gave them, and no step between them
 * over RAMP_MAX_STEP_SHARE of the whole turn: well inside what the server's continuity check allows
 * (TURN_MAX_GAP_MS, TURN_MAX_STEP_SHARE 0.85; the page's yaw and the server's differ by a degree or
 * two). A turn that runs on past the colours takes room the light's frames need (a user who turned
 * 600 ms after the prompt failed the light as tooFewFrames in most tries with 9 frames of room); on a
 * camera giving a frame every 170 ms this keeps one frame in two of such a turn where 280 ms kept all.
 */
const RAMP_GAP_MS = Math.min(450, TURN_MAX_GAP_MS - 150);
const RAMP_MAX_STEP_SHARE = 0.5;

/**
 * The frames of the turn (indices into `frames`): as the server finds them (turn-continuity.ts), from
 * the last frontal frame the turn of CHALLENGE_TURN_DELTA starts from up to the peak, and one frame
 * before it (the browser's yaw and the server's differ by a degree or two).
 */
function rampOf(frames: readonly ChallengeFrame[], peakIndex: number): number[] {
	if (peakIndex < 0 || peakIndex >= frames.length) return [];
	let start = peakIndex;
	for (let i = peakIndex - 1; i >= 0; i--) {
		const yaw = frames[i].yaw;
		if (yaw === null) continue;
		start = i;
		if (Math.abs(yaw) <= CHALLENGE_FRONTAL_YAW && Math.abs(yaw - (frames[peakIndex].yaw ?? 0)) >= CHALLENGE_TURN_DELTA) {
			for (let j = i - 1; j >= 0; j--) {
				if (frames[j].yaw === null) continue;
				start = j;
				break;
			}
			break;
		}
	}
	const ramp = [];
	for (let i = start; i <= peakIndex; i++) if (frames[i].yaw !== null) ramp.push(i);
	// Keep as few as leave no gap or step the server refuses: from each kept frame, the farthest one
	// still within RAMP_GAP_MS and RAMP_MAX_STEP_SHARE of the turn (the next one where none is: a gap
	// the camera made cannot be mended here).
	const turn = Math.max(...ramp.map((i) => frames[i].yaw!)) - Math.min(...ramp.map((i) => frames[i].yaw!));
	const near = (a: number, b: number) => frames[b].t - frames[a].t <= RAMP_GAP_MS && Math.abs(frames[b].yaw! - frames[a].yaw!) <= RAMP_MAX_STEP_SHARE * turn;
	const keep = ramp.length ? [ramp[0]] : [];
	for (let k = 0; k < ramp.length - 1; ) {
		let next = k + 1;
		while (next + 1 < ramp.length && near(ramp[k], ramp[next + 1])) next++;
		keep.push(ramp[next]);
		k = next;
	}
	return keep;
}

/** The frame nearest `t` among those with a face, or -1. */
function nearest(frames: readonly ChallengeFrame[], t: number, from: number, to: number): number {
	let best = -1;
	for (let i = 0; i < frames.length; i++) {
		if (!hasFace(frames[i]) || frames[i].t < from || frames[i].t > to) continue;
		if (best < 0 || Math.abs(frames[i].t - t) < Math.abs(frames[best].t - t)) best = i;
	}
	return best;
}

/**
 * Frames with a face but no yaw of the page's (the light's, not analysed) inside the turn's gaps wider
 * than RAMP_GAP_MS, one nearest each gap's middle, again while a gap is left: on a slow phone the
 * analysed frames of a turn came 700–880 ms apart, past the server's TURN_MAX_GAP_MS
 * (`notContinuous`, frameGap), while the light's frames, taken on time, lay between them. The server
 * measures every frame's yaw itself.
 */
function rampGapFillers(frames: readonly ChallengeFrame[], kept: readonly number[]): number[] {
	const out: number[] = [];
	const fill = (a: number, b: number) => {
		if (frames[b].t - frames[a].t <= RAMP_GAP_MS) return;
		const mid = (frames[a].t + frames[b].t) / 2;
		let best = -1;
		for (let i = a + 1; i < b; i++) if (hasFace(frames[i]) && (best < 0 || Math.abs(frames[i].t - mid) < Math.abs(frames[best].t - mid))) best = i;
		if (best < 0) return;
		out.push(best);
		fill(a, best);
		fill(best, b);
	};
	for (let k = 1; k < kept.length; k++) fill(kept[k - 1], kept[k]);
	return out;
}

/**
 * When each step came on and went off (frames' clock): as the page recorded the changes (`changedAt`,
 * late on a busy device), else as planned.
 */
function stepSpans(light: { sequence: LightSequence; startedAt: number; changedAt?: readonly number[] }): { on: number; off: number }[] {
	const planned = lightStepStarts(light.sequence).map((s) => light.startedAt + s);
	const changed = light.changedAt ?? [];
	return light.sequence.steps.map((step, k) => {
		const on = k === 0 ? light.startedAt : (changed[k - 1] ?? planned[k]!);
		return { on, off: changed[k] ?? Math.max(on, planned[k]!) + step.ms };
	});
}

/**
 * Indices (into `frames`, in time order) of the frames to upload. `peakIndex`: the frame where the
 * challenge's movement peaked (-1: none); `light`: the sequence, when it started and when its colours
 * really changed (frames' clock).
 */
export function chooseChallengeFrames(frames: readonly ChallengeFrame[], room: number, peakIndex: number, light: { sequence: LightSequence; startedAt: number; changedAt?: readonly number[] } | null): number[] {
	if (frames.length <= room) return frames.map((_, i) => i);
	const keep = new Set<number>();
	const add = (i: number) => {
		if (i >= 0 && keep.size < room) keep.add(i);
	};
	const ramp = rampOf(frames, peakIndex);
	for (const i of ramp) add(i);
	// The frames kept within the turn, gaps in them filled (rampGapFillers).
	const fillGaps = () => {
		if (ramp.length < 2) return;
		const within = [...keep].filter((i) => i >= ramp[0] && i <= ramp.at(-1)!).sort((a, b) => a - b);
		for (const i of rampGapFillers(frames, within)) add(i);
	};
	if (light) {
		const spans = stepSpans(light);
		// First a frame just after each change where the turn's frames leave the step unseen (a slow
		// reactor turns under the last colours: with nine steps shown, a frame after each change in
		// step order left the last steps without one once the room was full, `stepsMissed`), then the
		// turn's gaps, then after the other changes, then near each step's end.
		const seen = (on: number, off: number) => [...keep].some((i) => frames[i].t >= on + AFTER_CHANGE_MS - 120 && frames[i].t < off);
		const afterChange = ({ on, off }: { on: number; off: number }) => add(nearest(frames, on + AFTER_CHANGE_MS, on + AFTER_CHANGE_MS - 120, off + 150));
		for (const span of spans.filter(({ on, off }) => !seen(on, off))) afterChange(span);
		// Then the turn's gaps (which the light's frames fill as well), then the other changes.
		fillGaps();
		for (const span of spans) afterChange(span);
		for (const { on, off } of spans) add(nearest(frames, off - BEFORE_END_MS, on + 150, off + 100));
	}
	fillGaps();
	// The rest evenly in time: the movement's start and end, the eyes reopening.
	const stride = frames.length / Math.max(1, room - keep.size);
	for (let x = 0; keep.size < room && x < frames.length; x += stride) add(Math.floor(x));
	for (let i = frames.length - 1; keep.size < room && i >= 0; i--) add(i);
	return [...keep].sort((a, b) => a - b);
}

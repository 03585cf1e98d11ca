import { describe, expect, it } from 'vitest';
import { lightDuration, lightStepAt, LIGHT_TAIL_MS, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import { MAX_EVIDENCE_FRAMES } from '#lib/domain/page/face-evidence.schema.ts';
import { LIGHT_MIN_FRAMES } from '#lib/face/light-response.ts';
import { verifyTurnContinuity } from '#lib/face/turn-continuity.ts';
import { AFTER_CHANGE_MS, chooseChallengeFrames, type ChallengeFrame } from './challenge-frames.ts';

const light: LightSequence = {
	steps: [
		{ colour: '#4f7ff0', ms: 400 },
		{ colour: '#e0c040', ms: 550 },
		{ colour: '#3fbf7f', ms: 350 },
		{ colour: '#b070e0', ms: 500 },
		{ colour: '#40c0d0', ms: 450 }
	]
};

/** Frames every 160 ms from t = 0 for 3 s; the head turns left from 900 to 1300 ms (0° → 30°). */
function grabbed(): ChallengeFrame[] {
	const frames: ChallengeFrame[] = [];
	for (let t = 0; t <= 3000; t += 160) frames.push({ t, yaw: Math.max(0, Math.min(30, (t - 900) * 0.075)) });
	return frames;
}

describe('chooseChallengeFrames', () => {
	it('keeps every frame of the turn and one frame soon after each colour change, within the room', () => {
		const frames = grabbed();
		const peak = frames.findIndex((f) => f.yaw === 30);
		const chosen = chooseChallengeFrames(frames, 9, peak, { sequence: light, startedAt: 0 });
		expect(chosen.length).toBe(9);
		expect(chosen).toEqual([...chosen].sort((a, b) => a - b));
		// The ramp: the last frontal frame, the frames on the way, the peak — consecutive grabs.
		const ramp = frames.map((f, i) => i).filter((i) => frames[i].t >= 800 && frames[i].t <= frames[peak].t);
		for (const i of ramp) expect(chosen).toContain(i);
		// A frame after each change, no earlier than the late-response mark less a frame interval.
		let start = 0;
		for (const step of light.steps) {
			expect(chosen.some((i) => frames[i].t >= start + AFTER_CHANGE_MS - 160 && frames[i].t <= start + step.ms + 150), `step at ${start}`).toBe(true);
			start += step.ms;
		}
	});

	it('keeps all frames when they fit, and spreads them evenly without a light challenge', () => {
		const frames = grabbed().slice(0, 6);
		expect(chooseChallengeFrames(frames, 9, 3, null)).toEqual([0, 1, 2, 3, 4, 5]);
		const all = grabbed();
		const chosen = chooseChallengeFrames(all, 5, -1, null);
		expect(chosen).toHaveLength(5);
		expect(all[chosen.at(-1)!].t - all[chosen[0]].t).toBeGreaterThan(2000);
	});

	it('leaves the server enough frames of a long sequence and a slow turn (8 in the window, every step but one seen)', () => {
		const six: LightSequence = { steps: [550, 350, 500, 400, 550, 450].map((ms, i) => ({ colour: ['#4f7ff0', '#e0c040', '#3fbf7f', '#b070e0', '#40c0d0', '#e09050'][i], ms })) };
		// Every 170 ms for 3.6 s; a slow turn (40°/s) from 600 ms: a ramp of many frames.
		const frames: ChallengeFrame[] = [];
		for (let t = 0; t <= 3600; t += 170) frames.push({ t, yaw: Math.max(0, Math.min(30, (t - 600) * 0.04)) });
		const peak = frames.findIndex((f) => f.yaw === 30);
		const chosen = chooseChallengeFrames(frames, 9, peak, { sequence: six, startedAt: 0 });
		const inWindow = chosen.filter((i) => frames[i].t <= lightDuration(six) + LIGHT_TAIL_MS);
		expect(inWindow.length).toBeGreaterThanOrEqual(LIGHT_MIN_FRAMES);
		const seen = new Set(inWindow.map((i) => lightStepAt(six, frames[i].t)));
		expect(six.steps.filter((_, k) => seen.has(k)).length).toBeGreaterThanOrEqual(six.steps.length - 1);
		// The ramp kept is dense enough for the continuity check: no two kept turn frames > 300 ms apart.
		const ramp = chosen.filter((i) => i <= peak && frames[i].yaw! > 0);
		for (let k = 1; k < ramp.length; k++) expect(frames[ramp[k]].t - frames[ramp[k - 1]].t).toBeLessThanOrEqual(300);
	});

	it('keeps a slow turn dense enough that the server finds it continuous (the genuine subject of the attack suite)', () => {
		// A 1.5 s turn to 30° (20°/s) sampled every 170 ms: 9 frames of turn, more than fit beside the light's.
		const frames: ChallengeFrame[] = [];
		for (let t = 0; t <= 3600; t += 170) frames.push({ t, yaw: Math.max(0, Math.min(30, (t - 600) * 0.02)) });
		const peak = frames.findIndex((f) => f.yaw === 30);
		const chosen = chooseChallengeFrames(frames, 9, peak, { sequence: light, startedAt: 0 });
		expect(chosen.length).toBe(9);
		// The server's own check on what was uploaded (the same face box in every frame).
		const box = { x: 100, y: 100, width: 200, height: 240 };
		const continuity = verifyTurnContinuity(1, chosen.map((i) => ({ t: frames[i].t, yaw: frames[i].yaw!, box })));
		expect(continuity, JSON.stringify(continuity)).toMatchObject({ continuous: true });
		// Thinned to what the server needs with room to spare (it allows 650 ms, 85 % of the turn a step).
		expect(continuity.maxGapMs).toBeLessThanOrEqual(450);
		expect(continuity.maxStepShare).toBeLessThanOrEqual(0.6);
	});

	it('fills a gap the analysed frames leave in the turn with the light’s frames taken in it (a slow phone’s worker)', () => {
		// The server's yaw: a turn from 1.0 s to 2.4 s. The page analysed frames 880 ms apart in the
		// middle of it (a busy worker); the light's grabs (no yaw of the page's) fell in between.
		const yawAt = (t: number) => Math.max(0, Math.min(28, (t - 1000) * 0.02));
		const analysed = [200, 500, 800, 1000, 1880, 2000, 2300, 2500].map((t) => ({ t, yaw: yawAt(t) }));
		const lightFrames = [300, 650, 1150, 1300, 1450, 1700, 2150, 2700].map((t) => ({ t, yaw: null, face: true }));
		const frames: ChallengeFrame[] = [...analysed, ...lightFrames].sort((a, b) => a.t - b.t);
		const peak = frames.findIndex((f) => f.t === 2500);
		// Room for the turn as thinned (five frames from the last frontal one) and one more.
		const chosen = chooseChallengeFrames(frames, 6, peak, null);
		const box = { x: 100, y: 100, width: 200, height: 240 };
		const continuity = verifyTurnContinuity(1, chosen.map((i) => ({ t: frames[i].t, yaw: yawAt(frames[i].t), box })));
		expect(continuity, JSON.stringify(chosen.map((i) => frames[i].t))).toMatchObject({ continuous: true });
		expect(chosen.some((i) => frames[i].t > 1000 && frames[i].t < 1880)).toBe(true);
		// The analysed frames alone leave the gap the server refuses.
		const analysedOnly = frames.map((f, i) => ({ f, i })).filter(({ f }) => f.yaw !== null && f.t >= 1000).map(({ f }) => ({ t: f.t, yaw: yawAt(f.t), box }));
		expect(verifyTurnContinuity(1, analysedOnly)).toMatchObject({ continuous: false, reason: 'frameGap' });
	});

	it('leaves the light its frames when the user turns late and the colours changed late (a slow reactor on a busy device)', () => {
		// As measured on the page (the attack suite's subject turning 600 ms after the prompt): five
		// colours that really changed at these times, analysed frames every ~240 ms, the light's own
		// grabs 280 ms after each change and 40 ms before it, the turn from 2.0 s to its peak at 3.18 s.
		const five: LightSequence = { steps: [450, 400, 500, 350, 400].map((ms, i) => ({ colour: ['#4f7ff0', '#e0c040', '#3fbf7f', '#b070e0', '#40c0d0'][i], ms })) };
		const changedAt = [744, 1071, 1706, 2025, 2426];
		const yawAt = (t: number) => Math.max(0, Math.min(20, ((t - 2000) / 1150) * 20));
		const frames: ChallengeFrame[] = [];
		for (let t = 60; t <= 3300; t += 240) frames.push({ t, yaw: yawAt(t) });
		const ons = [0, ...changedAt.slice(0, -1)];
		for (const [k, on] of ons.entries()) frames.push({ t: on + 280, yaw: null, face: true }, { t: changedAt[k] - 40, yaw: null, face: true });
		frames.sort((a, b) => a.t - b.t);
		const peak = frames.findIndex((f) => f.yaw === 20);
		expect(frames[peak]!.t).toBe(3180);
		// The room an upload leaves beside the hold's three passive frames.
		const room = MAX_EVIDENCE_FRAMES - 3;
		const chosen = chooseChallengeFrames(frames, room, peak, { sequence: five, startedAt: 0, changedAt });
		expect(chosen).toHaveLength(room);
		// What the server judges the light on: frames in the window as the colours were shown, every step but one.
		const inWindow = chosen.filter((i) => frames[i].t <= changedAt.at(-1)! + LIGHT_TAIL_MS);
		expect(inWindow.length).toBeGreaterThanOrEqual(LIGHT_MIN_FRAMES);
		const stepOf = (t: number) => changedAt.findIndex((c) => t < c);
		expect(new Set(inWindow.map((i) => stepOf(frames[i].t))).size).toBeGreaterThanOrEqual(five.steps.length - 1);
		// …and the turn is still one continuous motion to the server (the light's frames show its yaw there too).
		const box = { x: 100, y: 100, width: 200, height: 240 };
		const continuity = verifyTurnContinuity(1, chosen.map((i) => ({ t: frames[i].t, yaw: yawAt(frames[i].t), box })));
		expect(continuity, JSON.stringify(continuity)).toMatchObject({ continuous: true });
	});
});

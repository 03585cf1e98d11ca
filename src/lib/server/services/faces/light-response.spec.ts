// The light challenge's verifier on real pixels: fixture faces (tests/fixtures/faces) lit by a
// simulated screen frame by frame (tests/helpers/light-frames.ts: albedo × (ambient + k·screen), k
// large on the face, small on the far wall, exposure drift and noise), then JPEG-encoded and decoded
// as the server does. The face box is the server detector's.
import { beforeAll, describe, expect, it } from 'vitest';
import { issueLightSequence, LIGHT_SHOWN_AT_LEAST, LIGHT_TAIL_MS, lightDuration, type LightSequence } from '#lib/domain/face/light-challenge.ts';
import type { Box } from '#lib/face/image.ts';
import { LIGHT_MAX_LAG_MS, measureLight, verifyLightResponse, type LightFrame } from '#lib/face/light-response.ts';
import { encodeJpeg, fixtureFrame, type Raw } from '../../../../../tests/helpers/face-frames.ts';
import { lightUp, pageTimes as pageTimesFrom, screenAt, seeded } from '../../../../../tests/helpers/light-frames.ts';
import { FaceEngine, subjectOf } from '../../biometrics/face-engine.ts';
import { decodeImage } from '../../biometrics/image-decode.ts';

const FIXTURES = ['barack_obama_1.jpg', 'eileen_collins_1.jpg', 'codait_luciano_1.jpg'];

interface Scene {
	base: Raw;
	box: Box;
}

/** What the server measures on `scene` lit by `screen`, after JPEG. */
async function litFrame(scene: Scene, screen: number[], options: Parameters<typeof lightUp>[3]): Promise<LightFrame['measure']> {
	const jpeg = await encodeJpeg(lightUp(scene.base, scene.box, screen, options), 80);
	return measureLight(await decodeImage(jpeg, 1280), scene.box);
}

const STARTED = 1000;
const pageTimes = (sequence: LightSequence) => pageTimesFrom(sequence, STARTED);
let scenes: Scene[];

beforeAll(async () => {
	const engine = await FaceEngine.create();
	scenes = [];
	for (const name of FIXTURES) {
		const base = await fixtureFrame(name);
		const face = subjectOf((await engine.analyseBytes(await encodeJpeg(base))).faces);
		if (!face) throw new Error(`no face found in ${name}`);
		scenes.push({ base, box: face.box });
	}
}, 60_000);

/** Frames of a scene lit by `shown` (what the screen really showed) `lagMs` late. */
async function framesOf(
	scene: Scene,
	shown: LightSequence,
	times: number[],
	options: { lagMs?: number; k?: number; kBackground?: number; seed?: number; yaw?: (t: number) => number } = {}
): Promise<LightFrame[]> {
	const rand = seeded(options.seed ?? 7);
	const frames: LightFrame[] = [];
	for (const [i, t] of times.entries()) {
		const screen = screenAt(shown, t - STARTED, options.lagMs ?? 0);
		// A turning head: the skin region's own colour drifts with the yaw (more hair and shadow: less
		// green and blue), by as much as the screen's light moves it.
		const yaw = options.yaw?.(t);
		const u = yaw === undefined ? 0 : yaw / 30;
		const faceTint = [1 + 0.02 * u, 1 - 0.04 * u, 1 - 0.12 * u];
		// Auto-exposure wanders by a few per cent frame to frame.
		const measure = await litFrame(scene, screen, { k: options.k, kBackground: options.kBackground, exposure: 0.95 + 0.1 * rand(), seed: i + 1, faceTint });
		frames.push({ t, measure, ...(yaw === undefined ? {} : { yaw }) });
	}
	return frames;
}

const sequences = [1, 2, 3].map((seed) => {
	const rand = seeded(seed * 7919);
	return issueLightSequence((n) => Math.floor(rand() * n));
});

describe('light challenge on real pixels', () => {
	it.each([0, 1, 2])('passes the right sequence with a camera 0–150 ms late (fixture %i)', async (i) => {
		const sequence = sequences[i];
		const times = pageTimes(sequence);
		// A bright screen in a dim room (k 0.3), and a phone at arm's length in an office (k 0.1).
		for (const [lagMs, k] of [
			[0, 0.3],
			[150, 0.3],
			[100, 0.1]
		]) {
			const result = verifyLightResponse(sequence, STARTED, await framesOf(scenes[i], sequence, times, { lagMs, k, kBackground: k / 15 }));
			expect(result, `lag ${lagMs}, k ${k}: ${JSON.stringify(result)}`).toMatchObject({ passed: true });
			expect(result.score).toBeGreaterThan(0.8);
			expect(result.lagMs).toBeLessThanOrEqual(LIGHT_MAX_LAG_MS);
			expect(result.backgroundRatio!).toBeLessThan(0.3);
		}
	}, 60_000);

	it('passes a head that turns while the colours change (the pose taken out of the response)', async () => {
		for (const i of [0, 1]) {
			const sequence = sequences[i];
			// Turns 30° at 75°/s, 0.4 s into the colours.
			const yaw = (t: number) => Math.max(0, Math.min(30, (t - STARTED - 400) * 0.075));
			const frames = await framesOf(scenes[i], sequence, pageTimes(sequence), { lagMs: 100, k: 0.1, kBackground: 0.1 / 15, yaw });
			const result = verifyLightResponse(sequence, STARTED, frames);
			expect(result, JSON.stringify(result)).toMatchObject({ passed: true });
			// Without the pose, the turn's own colour drift blurs the response (one of these fell to 0.76).
			const blind = verifyLightResponse(sequence, STARTED, frames.map(({ yaw: _, ...f }) => f));
			expect(blind.score).toBeLessThan(result.score - 0.05);
		}
	}, 60_000);

	it('fails a response 300 ms late (a relayed stream)', async () => {
		for (const i of [0, 1]) {
			const sequence = sequences[i];
			const result = verifyLightResponse(sequence, STARTED, await framesOf(scenes[i], sequence, pageTimes(sequence), { lagMs: 300 }));
			expect(result).toMatchObject({ passed: false, reason: 'lagging' });
			expect(result.lagMs).toBeGreaterThan(LIGHT_MAX_LAG_MS);
		}
	}, 60_000);

	it('a busy device shows each colour late: read against when the page showed them, the genuine response passes and a relay still does not', async () => {
		for (const i of [0, 1, 2]) {
			const sequence = sequences[i];
			// Each change 100 ms later than the one before it (timers queued behind a busy main thread; the
			// page now sets them against the plan, so the lateness no longer adds up, but an old page's did).
			const shown: LightSequence = { steps: sequence.steps.map((s) => ({ ...s, ms: s.ms + 100 })) };
			const changedAt = shown.steps.map((_, k) => STARTED + shown.steps.slice(0, k + 1).reduce((a, s) => a + s.ms, 0));
			const times = pageTimes(shown);
			const genuine = await framesOf(scenes[i], shown, times, { lagMs: 100, k: 0.1, kBackground: 0.1 / 15 });
			const asShown = verifyLightResponse(sequence, STARTED, genuine, null, changedAt);
			expect(asShown, JSON.stringify(asShown)).toMatchObject({ passed: true, asShown: true });
			expect(asShown.lagMs).toBeLessThanOrEqual(LIGHT_MAX_LAG_MS);
			// Against the plan the same frames fail: the cause of genuine users refused on slow phones.
			const planned = verifyLightResponse(sequence, STARTED, genuine);
			expect(planned, JSON.stringify(planned)).toMatchObject({ passed: false, asShown: false });
			const relay = verifyLightResponse(sequence, STARTED, await framesOf(scenes[i], shown, times, { lagMs: 300, k: 0.1, kBackground: 0.1 / 15 }), null, changedAt);
			expect(relay.passed, JSON.stringify(relay)).toBe(false);
		}
	}, 90_000);

	it('ignores change times that cannot be (a colour before its time, out of order, far too late)', async () => {
		const sequence = sequences[0];
		const frames = await framesOf(scenes[0], sequence, pageTimes(sequence), { lagMs: 100, k: 0.3, kBackground: 0.02 });
		const planned = sequence.steps.map((_, k) => STARTED + sequence.steps.slice(0, k + 1).reduce((a, s) => a + s.ms, 0));
		// The last: fewer colours than every page shows (LIGHT_SHOWN_AT_LEAST), so not where a page stopped.
		for (const changedAt of [planned.map((t) => t - 200), [...planned].reverse(), planned.map((t) => t + 5000), planned.slice(0, LIGHT_SHOWN_AT_LEAST - 1)]) {
			const result = verifyLightResponse(sequence, STARTED, frames, null, changedAt);
			expect(result, JSON.stringify(changedAt)).toMatchObject({ passed: true, asShown: false });
		}
		expect(verifyLightResponse(sequence, STARTED, frames, null, planned)).toMatchObject({ passed: true, asShown: true });
	}, 60_000);

	it('judges the colours the page showed when it stopped early (the turn under way), and only those', async () => {
		for (const shownSteps of [LIGHT_SHOWN_AT_LEAST, LIGHT_SHOWN_AT_LEAST + 1]) {
			const issued = sequences[1];
			const shown: LightSequence = { steps: issued.steps.slice(0, shownSteps) };
			const changedAt = shown.steps.map((_, k) => STARTED + shown.steps.slice(0, k + 1).reduce((a, s) => a + s.ms, 0));
			const frames = await framesOf(scenes[1], shown, pageTimes(shown), { lagMs: 100, k: 0.1, kBackground: 0.1 / 15 });
			const result = verifyLightResponse(issued, STARTED, frames, null, changedAt);
			expect(result, JSON.stringify(result)).toMatchObject({ passed: true, asShown: true, steps: shownSteps });
			// A turn under way after the last colour shown (and the camera's latency) is still outside.
			expect(verifyLightResponse(issued, STARTED, frames, changedAt.at(-1)! + LIGHT_TAIL_MS + 200, changedAt)).toMatchObject({ passed: false, reason: 'turnOutside' });
			// Without the page's report the whole plan is expected: its last steps were never seen.
			expect(verifyLightResponse(issued, STARTED, frames)).toMatchObject({ passed: false, steps: issued.steps.length });
		}
		// Another session's colours stopped at six do not pass for this one's.
		const other = { steps: sequences[2].steps.slice(0, LIGHT_SHOWN_AT_LEAST) };
		const changedAt = other.steps.map((_, k) => STARTED + other.steps.slice(0, k + 1).reduce((a, s) => a + s.ms, 0));
		const replayed = await framesOf(scenes[1], other, pageTimes(other), { lagMs: 100, k: 0.1, kBackground: 0.1 / 15 });
		expect(verifyLightResponse(sequences[1], STARTED, replayed, null, changedAt).passed).toBe(false);
	}, 90_000);

	it('fails a still that reflects nothing (a print, Chromium’s fake camera)', async () => {
		const sequence = sequences[0];
		const result = verifyLightResponse(sequence, STARTED, await framesOf(scenes[0], sequence, pageTimes(sequence), { k: 0, kBackground: 0 }));
		expect(result).toMatchObject({ passed: false, reason: 'noResponse' });
	}, 60_000);

	it('fails frames lit by a different sequence (a replay of another session)', async () => {
		for (const [asked, shown] of [
			[0, 1],
			[1, 2],
			[2, 0]
		]) {
			const result = verifyLightResponse(sequences[asked], STARTED, await framesOf(scenes[asked], sequences[shown], pageTimes(sequences[asked])));
			expect(result.passed, `asked ${asked}, shown ${shown}: ${JSON.stringify(result)}`).toBe(false);
		}
	}, 60_000);

	it('fails a whole frame tinted in time with the sequence (the background lit as much as the face)', async () => {
		for (const i of [0, 2]) {
			const sequence = sequences[i];
			const result = verifyLightResponse(sequence, STARTED, await framesOf(scenes[i], sequence, pageTimes(sequence), { k: 0.3, kBackground: 0.3 }));
			expect(result.passed).toBe(false);
			expect(['backgroundLit', 'noResponse']).toContain(result.reason);
		}
	}, 60_000);

	it('fails without the time the sequence started, or with too few frames in its window', async () => {
		const sequence = sequences[0];
		const frames = await framesOf(scenes[0], sequence, pageTimes(sequence));
		expect(verifyLightResponse(sequence, null, frames)).toMatchObject({ passed: false, reason: 'missing' });
		expect(verifyLightResponse(sequence, STARTED, frames.slice(0, 4))).toMatchObject({ passed: false, reason: 'tooFewFrames' });
		// Enough frames, but only of the first steps: the rest of the sequence is not seen.
		const early = [...frames.slice(0, 4), ...frames.slice(0, 4).map((f) => ({ ...f, t: f.t + 20 }))];
		expect(verifyLightResponse(sequence, STARTED, early)).toMatchObject({ passed: false, reason: 'stepsMissed' });
		// The movement the challenge asked for must be in the same frames as the light.
		expect(verifyLightResponse(sequence, STARTED, frames, STARTED + lightDuration(sequence) + 2000)).toMatchObject({ passed: false, reason: 'turnOutside' });
		expect(verifyLightResponse(sequence, STARTED, frames, STARTED + 600)).toMatchObject({ passed: true });
	}, 60_000);
});

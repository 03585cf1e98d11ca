import { describe, expect, it } from 'vitest';
import { TURN_MAX_GAP_MS, verifyTurnContinuity, type TurnSample } from './turn-continuity.ts';

const BOX = { x: 200, y: 120, width: 200, height: 240 };
const at = (t: number, yaw: number, box = BOX): TurnSample => ({ t, yaw, box });

/** A head turning left (yaw rising) from frontal to `peak` degrees at `speed` °/s, sampled every `every` ms. */
function turn({ peak = 30, speed = 90, every = 150, still = 3 } = {}): TurnSample[] {
	const out: TurnSample[] = [];
	let t = 0;
	for (let i = 0; i < still; i++, t += every) out.push(at(t, 1 * (i % 2)));
	const start = t;
	for (;;) {
		const yaw = Math.min(peak, (speed * (t - start)) / 1000);
		out.push(at(t, yaw));
		if (yaw >= peak) break;
		t += every;
	}
	return out;
}

describe('verifyTurnContinuity', () => {
	it('passes a head turning at a cooperative speed, sampled as the page samples it', () => {
		for (const speed of [60, 90, 150]) {
			const r = verifyTurnContinuity(1, turn({ speed }));
			expect(r, `speed ${speed}`).toMatchObject({ continuous: true });
			expect(r.rampFrames).toBeGreaterThanOrEqual(3);
			expect(r.maxStepShare).toBeLessThan(0.85);
		}
		// Turning right: yaw falls.
		expect(verifyTurnContinuity(-1, turn().map((s) => ({ ...s, yaw: -s.yaw })))).toMatchObject({ continuous: true });
	});

	it('fails a frontal frame and a turned frame with nothing in between (a photo and its mirror image)', () => {
		// The attack of issue 12: mirror (yaw −11°) twice, then the photo (+12°) twice, 400 ms apart.
		const attack = [at(100, -11), at(500, -11), at(900, 12), at(1300, 12)];
		expect(verifyTurnContinuity(1, attack)).toMatchObject({ continuous: false, reason: 'noIntermediatePose', maxStepShare: 1 });
		// The same, posted 100 ms apart: fast enough for the gap, but one jump from start to peak.
		const dense = [at(0, -11), at(100, -11), at(200, 12), at(300, 12)];
		expect(verifyTurnContinuity(1, dense)).toMatchObject({ continuous: false, reason: 'noIntermediatePose', maxStepShare: 1 });
	});

	it('fails frames farther apart than a head turn allows to be joined', () => {
		const sparse = [at(0, 0), at(TURN_MAX_GAP_MS + 100, 12), at(2 * TURN_MAX_GAP_MS + 200, 25)];
		expect(verifyTurnContinuity(1, sparse)).toMatchObject({ continuous: false, reason: 'frameGap' });
	});

	it('fails a yaw change faster than a head can turn (300°/s)', () => {
		// 40° in 60 ms is 660°/s; the frames around it are fine.
		const jump = [at(0, 0), at(100, 4), at(160, 44), at(260, 46)];
		expect(verifyTurnContinuity(1, jump)).toMatchObject({ continuous: false, reason: 'tooFast' });
	});

	it('fails when the face jumps in the frame mid-turn (another picture)', () => {
		const moved = turn().map((s, i) => (i === 5 ? { ...s, box: { ...BOX, x: BOX.x + 180 } } : s));
		expect(verifyTurnContinuity(1, moved)).toMatchObject({ continuous: false, reason: 'faceJumped' });
		const smaller = turn().map((s, i) => (i >= 5 ? { ...s, box: { ...BOX, width: 120, height: 150 } } : s));
		expect(verifyTurnContinuity(1, smaller)).toMatchObject({ continuous: false, reason: 'faceJumped' });
	});

	it('finds no ramp without a frontal start and a turn of 18°', () => {
		expect(verifyTurnContinuity(1, [at(0, 25), at(150, 30), at(300, 35)])).toMatchObject({ continuous: false, reason: 'noRamp' });
		expect(verifyTurnContinuity(1, [at(0, 0), at(150, 5), at(300, 10)])).toMatchObject({ continuous: false, reason: 'noRamp' });
		// The wrong way round is no ramp for the asked direction.
		expect(verifyTurnContinuity(-1, turn())).toMatchObject({ continuous: false, reason: 'noRamp' });
	});
});

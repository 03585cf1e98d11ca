// The light challenge against chance: a genuine response to its own sequence, and the same response
// (a genuine session's recorded frames) judged against another session's random sequence. The
// measures are simulated (skin and background linear RGB, the screen's light added with gain k,
// multiplicative noise per channel, a head turning through the try, the camera 40–140 ms late), so
// this shows what the verifier's rules cost and buy, not how real cameras respond. The page shows
// six of the nine colours issued, more while the user has not begun to turn: the replay is judged as
// posted with the six it recorded, and, for a recording of all nine, with whichever of the 6–9 steps
// it might claim to have shown (the attacker posts the changes; any that passes counts).
// Run: npx tsx scripts/eval/light-replay.ts [trials=4000] [noise=0.004,0.008] [k=0.1] [palette=#rrggbb,…]
import { randomInt } from 'node:crypto';
import { issueLightSequence, LIGHT_PALETTE, LIGHT_SHOWN_AT_LEAST, lightStepStarts, type LightSequence } from '../../src/lib/domain/face/light-challenge.ts';
import { verifyLightResponse, type LightFrame } from '../../src/lib/face/light-response.ts';
import { pageTimes, screenAt, seeded } from '../../tests/helpers/light-frames.ts';

const trials = Number(process.argv[2] ?? 4000);
const noises = (process.argv[3] ?? '0.004,0.008').split(',').map(Number);
const k = Number(process.argv[4] ?? 0.1);
const palette = process.argv[5]?.split(',') ?? LIGHT_PALETTE;
const rand = seeded(7);
const gauss = () => {
	let u = 0;
	for (let i = 0; i < 6; i++) u += rand();
	return (u - 3) / Math.sqrt(0.5);
};

/** The frames a page would upload for `shown`, the face reflecting it. */
function framesFor(shown: LightSequence, noise: number): LightFrame[] {
	const times = pageTimes(shown, 200).map((t) => t + Math.round((rand() - 0.5) * 60));
	const lag = 40 + rand() * 100;
	return times.map((t, i) => {
		const screen = screenAt(shown, t - 200, lag);
		const yaw = -16 + (34 * i) / times.length;
		const skin = [0.4 * (1 + 0.002 * yaw), 0.25, 0.18];
		return {
			t,
			yaw,
			measure: {
				face: skin.map((v, c) => v * (1 + k * screen[c]) * (1 + noise * gauss())) as [number, number, number],
				background: [0.3, 0.3, 0.3].map((v) => v * (1 + noise * gauss())) as [number, number, number]
			}
		};
	});
}

/** The first `n` steps, and when each changed as the page reports it (frames' clock, from 200). */
const prefix = (sequence: LightSequence, n: number) => {
	const steps = sequence.steps.slice(0, n);
	return { shown: { steps }, changedAt: lightStepStarts({ steps }).map((s, i) => 200 + s + steps[i]!.ms) };
};

console.log(`| skin noise | genuine passes (6 shown) | another session's six colours pass | its reasons | another session's nine, best of 6–9 claimed |\n|---|---|---|---|---|`);
for (const noise of noises) {
	let genuine = 0;
	let replayed = 0;
	let bestOf = 0;
	const reasons: Record<string, number> = {};
	for (let n = 0; n < trials; n++) {
		const issued = issueLightSequence(randomInt, palette);
		const six = prefix(issued, LIGHT_SHOWN_AT_LEAST);
		const frames = framesFor(six.shown, noise);
		if (verifyLightResponse(issued, 200, frames, null, six.changedAt).passed) genuine++;
		let other: LightSequence;
		do other = issueLightSequence(randomInt, palette);
		while (JSON.stringify(other) === JSON.stringify(issued));
		const r = verifyLightResponse(other, 200, frames, null, six.changedAt);
		if (r.passed) replayed++;
		else reasons[r.reason!] = (reasons[r.reason!] ?? 0) + 1;
		// A recording of a session that showed all nine, posted with any count of steps it likes.
		const nineFrames = framesFor(issued, noise);
		const claims = [6, 7, 8, 9].map((k) => prefix(issued, k));
		if (claims.some((c) => verifyLightResponse(other, 200, nineFrames.filter((f) => f.t <= c.changedAt.at(-1)! + 300), null, c.changedAt).passed)) bestOf++;
	}
	const pct = (v: number) => `${((100 * v) / trials).toFixed(2)} %`;
	console.log(`| ${noise} | ${pct(genuine)} | ${pct(replayed)} | ${Object.entries(reasons).map(([r, c]) => `${r} ${c}`).join(', ')} | ${pct(bestOf)} |`);
}

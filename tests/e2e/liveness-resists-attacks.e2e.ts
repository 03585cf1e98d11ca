import { expect, test } from '@playwright/test';
import { injectionSession, photoAndMirrorSession, printSession, replaySession, subjectSession, type Presentation } from './support/liveness-attacks.ts';

// Issue #12's attack suite, one presentation of each (scripts/eval/liveness-attacks.ts runs N and
// reports APCER/BPCER). Sandbox sessions judged as live ones: camera signals, the light challenge and
// the turn's continuity all decide. Each attack must be refused for the reason that names it (from the
// node report), not merely refused: an attack refused by accident would hide a hole in its own defence.
test.describe.configure({ mode: 'serial' });

const ONE_RETRY = { maxRetries: 1 };
let genuine: { presentation: Presentation; bodies: any[] } | null = null;
/** The server's verdict on a presentation, in the test report. */
const note = (p: Presentation) => test.info().annotations.push({ type: 'verdict', description: JSON.stringify(p) });

test('the genuine subject, turning as asked and lit by the screen, passes liveness_detection judged as live', async ({ browser }) => {
	test.setTimeout(240_000);
	// The spec's default tries (maxRetries 3), as a real user gets: on a CI machine kept busy the test
	// rig's canvas camera (drawn on the page's own thread) fell to a few frames a second, and one retry
	// was not always enough (light tooFewFrames, continuity frameGap); the attacks keep one retry.
	genuine = await subjectSession(browser, {});
	note(genuine.presentation);
	expect(genuine.presentation, JSON.stringify(genuine.presentation)).toMatchObject({ outcome: 'livenessDetected', accepted: true, signals: [], challengePassed: true, lightPassed: true });
	// The page showed the colours and the scene camera drew the face lit by them.
	expect(genuine.presentation.litFrames).toBeGreaterThan(0);
	expect(genuine.bodies.length).toBeGreaterThan(0);
});

test('(a) a photo and its mirror image posted as a head turn is refused', async () => {
	const p = await photoAndMirrorSession(ONE_RETRY);
	note(p);
	expect(p, JSON.stringify(p)).toMatchObject({ accepted: false, outcome: 'deepfakeDetected' });
	// Two poses, one of them a mirror image: the camera signal, or the turn not being one motion.
	expect(p.signals.includes('mirroredFrames') || p.challengeReason === 'notContinuous', JSON.stringify(p)).toBe(true);
});

test('(b) a printed photo held to the camera is refused', async ({ browser }) => {
	test.setTimeout(240_000);
	const p = await printSession(browser, ONE_RETRY);
	note(p);
	expect(p, JSON.stringify(p)).toMatchObject({ accepted: false });
	expect(p.outcome).not.toBe('livenessDetected');
	// Paper never turns and reflects the screen as a flat surface: the challenge or the light fails, or the camera sees a loop.
	const named = p.signals.includes('loopedFrames') || ['noResponse', 'mismatch', 'backgroundLit'].includes(p.lightReason ?? '') || p.challengePassed === false;
	expect(named, JSON.stringify(p)).toBe(true);
});

test('(c) the frames of a genuine session replayed into a new one are refused', async () => {
	expect(genuine, 'the genuine session ran first').not.toBeNull();
	const p = await replaySession(genuine!.bodies, ONE_RETRY);
	note(p);
	// The very pictures another session of the account was sent: the server has their digests and ends
	// the node as an injection. (Re-encoded pictures would get past the digests; then it is the light
	// that refuses them: they follow the colours of the session they came from, not this one's, which
	// passes by chance about 0.6 % of tries, scripts/eval/liveness-attacks.ts.)
	expect(p, JSON.stringify(p)).toMatchObject({ accepted: false, outcome: 'deepfakeDetected' });
	expect(p.signals, JSON.stringify(p)).toContain('replayedFrames');
});

test('(d) frames rendered without a camera and posted straight to the evidence endpoint are refused', async () => {
	const p = await injectionSession(ONE_RETRY);
	note(p);
	// No page showed the colours: the light is missing, or the frames do not follow it.
	expect(p, JSON.stringify(p)).toMatchObject({ accepted: false, outcome: 'deepfakeDetected', lightPassed: false });
	expect(['missing', 'mismatch', 'noResponse']).toContain(p.lightReason);
});

test('(e) the genuine subject relayed with its light 300 ms late is refused', async ({ browser }) => {
	test.setTimeout(240_000);
	const { presentation: p } = await subjectSession(browser, { ...ONE_RETRY, lightLagMs: 300 });
	note(p);
	// The colours were shown and reflected, only late: the face and its turn are the genuine ones, so it is
	// the light that refuses it. 300 ms late, the frames the page keeps (one ~280 ms after each change)
	// mostly show the colour before: the server reads that as a lag when the response still correlates
	// at some lag, as a mismatch when it does not, and as a step missed when the late colour leaves a
	// step with no frame of its own (all three seen in scripts/eval/liveness-attacks.ts runs).
	// The turn's continuity is not asserted: on a loaded CI machine the rig's canvas camera stalled
	// (a 679 ms frame gap) and the turn failed too, which is still a refusal, but not the one this
	// test is about. The light is judged on every try whatever the turn did, so it must fail either way.
	expect(p.litFrames).toBeGreaterThan(0);
	expect(p, JSON.stringify(p)).toMatchObject({ accepted: false, outcome: 'deepfakeDetected', lightPassed: false });
	expect(['lagging', 'mismatch', 'stepsMissed']).toContain(p.lightReason);
});

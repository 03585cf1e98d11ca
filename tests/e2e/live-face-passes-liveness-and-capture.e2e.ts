import { expect, test } from '@playwright/test';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, QUICK, runFaceSession } from './support/face-journey.ts';

// A head that holds still, then turns to the user's left: barack_obama_1 faces the camera (yaw ≈ 2°);
// barack_obama_2 is the same man in three-quarter view (yaw −16°), and mirrored it is the same head
// turned the other way (+18°). Frontal → −16° → +18°, in a loop: the hold happens on the frontal
// segment, and the challenge sees a turn of about 34° (the server measures it on 68 landmarks). Each
// turned pose lasts 2 s, so a slow machine that analyses only a few frames a second still sees it.
const clip = faceClip('still-then-turn-left', [
	{ still: 'barack_obama_1.jpg', seconds: 3 },
	{ still: 'barack_obama_2.jpg', seconds: 2 },
	{ still: 'barack_obama_2.jpg', seconds: 2, flip: true }
]);

test('a live face that turns as asked passes liveness_detection and face_scan capture; the server measured both', async () => {
	test.setTimeout(240_000);
	const run = await runFaceSession(
		clip,
		{
			flow: faceFlow([
				{ id: 'live', type: 'liveness_detection', ...QUICK, testMode: { challenge: 'turnLeft' } },
				{ id: 'selfie', type: 'face_scan', mode: 'capture', saveToField: 'selfie', ...QUICK }
			])
		},
		{ timeoutMs: 180_000 }
	);
	expect(run.outcomes).toMatchObject({ perm: 'permissionsGranted', live: 'livenessDetected', selfie: 'passed' });
	const live = run.reports.live.details;
	expect(live.challenge).toMatchObject({ type: 'turnLeft', passed: true });
	expect(live.liveness.live).toBe(true);
	// The page's own claim is recorded next to the server's verdict (on this synthetic "turn" the
	// browser's landmark yaw does not always see the turn the server measures; the server decides).
	expect(live.claim.challenge.type).toBe('turnLeft');
	// The sandbox records the fake camera without acting on it.
	expect(live.injection.enforced).toBe(false);
	expect(run.reports.selfie.details.photoId).toMatch(/^med_/);
	expect(run.session.report.livenessDetected).toBe(true);
	expect(run.session.report.screenshots).toHaveLength(2);
});

import { expect, test } from '@playwright/test';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, QUICK, runFaceSession } from './support/face-journey.ts';

const emptyRoom = faceClip('coffee', [{ still: 'no_face_coffee.jpg', seconds: 3 }]);

test('a camera that shows no one ends liveness_detection with noFace once its time is up', async () => {
	test.setTimeout(180_000);
	const run = await runFaceSession(emptyRoom, { flow: faceFlow([{ id: 'live', type: 'liveness_detection', ...QUICK, timeoutSeconds: 8, maxRetries: 0 }]) }, { timeoutMs: 120_000 });
	expect(run.outcomes.live).toBe('noFace');
	// The page sent what its camera saw; the server looked and found no face either.
	expect(run.reports.live.details).toMatchObject({ reason: 'noFace', framesWithFace: 0 });
	expect(run.reports.live.details.frames).toBeGreaterThan(0);
	expect(run.session.report.livenessDetected).toBe(false);
});

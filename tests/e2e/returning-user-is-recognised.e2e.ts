import { expect, test } from '@playwright/test';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, QUICK, runFaceSession, runSceneSession } from './support/face-journey.ts';

// Another photo of the same man, years apart: what a returning user looks like to the camera.
const secondVisit = faceClip('obama-2-mirrored', [{ still: 'barack_obama_2.jpg', seconds: 4, flip: true }]);

// The first visit proves the face live (a head that turns when asked; see
// live-face-passes-liveness-and-capture.e2e.ts), then meets recognition facing the camera: a new
// user is enrolled only with a face the session proved live with its active checks.
const SCENES = {
	frontal: 'faces/barack_obama_1.jpg',
	turning: [
		{ still: 'faces/barack_obama_2.jpg', seconds: 1.5 },
		{ still: 'faces/barack_obama_2.jpg', seconds: 1.5, flip: true }
	]
};

// That another person's face is a new user, not a match, and that a face never proved live is not
// enrolled, is the server's: the store suite checks both (face-nodes.spec.ts, recognition).
test('a user enrolled after liveness is recognised in a later session', async ({ browser }) => {
	test.setTimeout(300_000);
	const first = await runSceneSession(
		browser,
		SCENES,
		{
			clientReferenceId: `customer-${Date.now()}`,
			flow: faceFlow([
				{ id: 'live', type: 'liveness_detection', ...QUICK, testMode: { challenge: 'turnLeft' } },
				{ id: 'rec', type: 'recognition', ...QUICK }
			])
		},
		async (page, camera) => {
			const face = page.getByTestId('face-node');
			await expect(face).toHaveAttribute('data-phase', 'challenge', { timeout: 120_000 });
			await camera.show('turning');
			await expect(face).not.toHaveAttribute('data-phase', 'challenge', { timeout: 60_000 });
			await camera.show('frontal');
		},
		{ timeoutMs: 180_000 }
	);
	expect(first.outcomes.live).toBe('livenessDetected');
	// Enrolment needs the consent the permissions page asks for when the flow recognises users.
	expect(first.outcomes.rec).toBe('newUser');
	expect(first.reports.rec.details).toMatchObject({ enrolled: true, enrolledWithLiveness: { nodeId: 'live' } });

	const second = await runFaceSession(secondVisit, { clientReferenceId: 'anonymous-visit', flow: faceFlow([{ id: 'rec', type: 'recognition', ...QUICK }]) }, { timeoutMs: 120_000 });
	expect(second.outcomes.rec).toBe('recognized');
	expect(second.reports.rec.details.recognizedClientReferenceId).toBe(first.session.settings.clientReferenceId);
	expect(second.reports.rec.details.recognizedSessionId).toBe(first.sessionId);
});

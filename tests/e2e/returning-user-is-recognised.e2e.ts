import { expect, test } from '@playwright/test';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, QUICK, runFaceSession } from './support/face-journey.ts';

const firstVisit = faceClip('obama-1', [{ still: 'barack_obama_1.jpg', seconds: 4 }]);
// Another photo of the same man, years apart: what a returning user looks like to the camera.
const secondVisit = faceClip('obama-2-mirrored', [{ still: 'barack_obama_2.jpg', seconds: 4, flip: true }]);

const recognition = (clientReferenceId: string) => ({ clientReferenceId, flow: faceFlow([{ id: 'rec', type: 'recognition', ...QUICK }]) });

// That another person's face is a new user, not a match, is the server's 1:N search: the store
// suite checks it (face-nodes.spec.ts, recognition) without a third browser session here.
test('an enrolled user is recognised in a later session', async () => {
	test.setTimeout(300_000);
	const first = await runFaceSession(firstVisit, recognition(`customer-${Date.now()}`), { timeoutMs: 120_000 });
	// Enrolment needs the consent the permissions page asks for when the flow recognises users.
	expect(first.outcomes.rec).toBe('newUser');
	expect(first.reports.rec.details.enrolled).toBe(true);

	const second = await runFaceSession(secondVisit, recognition('anonymous-visit'), { timeoutMs: 120_000 });
	expect(second.outcomes.rec).toBe('recognized');
	expect(second.reports.rec.details.recognizedClientReferenceId).toBe(first.session.settings.clientReferenceId);
	expect(second.reports.rec.details.recognizedSessionId).toBe(first.sessionId);
});

import { expect, test } from '@playwright/test';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, QUICK, runFaceSession } from './support/face-journey.ts';

const firstVisit = faceClip('obama-1', [{ still: 'barack_obama_1.jpg', seconds: 4 }]);
// Another photo of the same man, years apart: what a returning user looks like to the camera.
const secondVisit = faceClip('obama-2-mirrored', [{ still: 'barack_obama_2.jpg', seconds: 4, flip: true }]);
const someoneElse = faceClip('biden', [{ still: 'joe_biden_2_800w.jpg', seconds: 4 }]);

const recognition = (clientReferenceId: string) => ({ clientReferenceId, flow: faceFlow([{ id: 'rec', type: 'recognition', ...QUICK }]) });

test('an enrolled user is recognised in a later session; a new face is a new user', async () => {
	test.setTimeout(360_000);
	const first = await runFaceSession(firstVisit, recognition(`customer-${Date.now()}`), { timeoutMs: 120_000 });
	// Enrolment needs the consent the permissions page asks for when the flow recognises users.
	expect(first.outcomes.rec).toBe('newUser');
	expect(first.reports.rec.details.enrolled).toBe(true);

	const second = await runFaceSession(secondVisit, recognition('anonymous-visit'), { timeoutMs: 120_000 });
	expect(second.outcomes.rec).toBe('recognized');
	expect(second.reports.rec.details.recognizedClientReferenceId).toBe(first.session.settings.clientReferenceId);
	expect(second.reports.rec.details.recognizedSessionId).toBe(first.sessionId);

	const third = await runFaceSession(someoneElse, recognition(`someone-${Date.now()}`), { timeoutMs: 120_000 });
	expect(third.outcomes.rec).toBe('newUser');
});

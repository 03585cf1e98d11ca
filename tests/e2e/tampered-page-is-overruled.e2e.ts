import { expect, test, type Page } from '@playwright/test';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, fixtureBase64, QUICK, runFaceSession } from './support/face-journey.ts';

const impostor = faceClip('biden', [{ still: 'joe_biden_2_800w.jpg', seconds: 4 }]);

/** A patched page: whatever the capture found, it claims a confident match. */
async function claimSuccess(page: Page) {
	await page.route('**/api/client/nodes/*/evidence', async (route) => {
		const body = JSON.parse(route.request().postData() ?? '{}');
		body.claim = { ...body.claim, outcome: 'passed', similarity: 0.97, liveness: 0.99 };
		await route.continue({ postData: JSON.stringify(body) });
	});
}

test('a page patched to claim a match for the wrong face is overruled by the server, and the claim is logged', async () => {
	test.setTimeout(180_000);
	const run = await runFaceSession(
		impostor,
		{
			flow: faceFlow([{ id: 'cmp', type: 'face_scan', mode: 'compare', referenceImageSource: 'providedData', referenceImageKey: 'idPhoto', ...QUICK }]),
			providedData: { idPhoto: fixtureBase64('barack_obama_1.jpg') }
		},
		{ beforeStart: claimSuccess, timeoutMs: 120_000 }
	);
	expect(run.outcomes.cmp).toBe('notPassed');
	const details = run.reports.cmp.details;
	expect(details.claim).toMatchObject({ outcome: 'passed', similarity: 0.97 });
	expect(details.disagreements).toEqual(expect.arrayContaining([expect.stringMatching(/^outcome: page claimed 'passed', server found 'notPassed'/), expect.stringMatching(/^similarity: page claimed 0.97/)]));
});

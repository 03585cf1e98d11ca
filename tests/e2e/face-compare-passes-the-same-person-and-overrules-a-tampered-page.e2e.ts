import { expect, test, type Page } from '@playwright/test';
import { encodePosted, readPosted } from './support/evidence-body.ts';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, fixtureBase64, QUICK, runFaceSession } from './support/face-journey.ts';

const obama = faceClip('obama-1', [{ still: 'barack_obama_1.jpg', seconds: 4 }]);

const compare = (reference: string) => ({
	flow: faceFlow([{ id: 'cmp', type: 'face_scan', mode: 'compare', referenceImageSource: 'providedData', referenceImageKey: 'idPhoto', ...QUICK }]),
	providedData: { idPhoto: fixtureBase64(reference) }
});

/** A patched page: whatever the capture found, it claims a confident match. */
async function claimSuccess(page: Page) {
	await page.route('**/api/client/nodes/*/evidence', async (route) => {
		const request = route.request();
		const posted = await readPosted(request.postDataBuffer() ?? Buffer.alloc(0), (await request.headerValue('content-type')) ?? '');
		posted.json.claim = { ...posted.json.claim, outcome: 'passed', similarity: 0.97, liveness: 0.99 };
		const { body, contentType } = await encodePosted(posted);
		await route.continue({ postData: body, headers: { ...request.headers(), 'content-type': contentType } });
	});
}

test('face_scan compare: the same person (another photo) passes; a different person does not, whatever a tampered page claims', async () => {
	test.setTimeout(300_000);
	const same = await runFaceSession(obama, compare('barack_obama_2.jpg'), { timeoutMs: 120_000 });
	expect(same.outcomes.cmp).toBe('passed');
	expect(same.reports.cmp.details.similarity).toBeGreaterThanOrEqual(0.45);
	expect(same.reports.cmp.details.reference).toEqual({ source: 'providedData', kind: 'image' });

	// The different person's session runs on a page patched to claim a match (the tampered page):
	// one face session checks both that the faces differ and that the server, not the page, decides.
	const other = await runFaceSession(obama, compare('joe_biden_2_800w.jpg'), { beforeStart: claimSuccess, timeoutMs: 120_000 });
	expect(other.outcomes.cmp).toBe('notPassed');
	expect(other.reports.cmp.details).toMatchObject({ reason: 'noMatch' });
	expect(other.reports.cmp.details.similarity).toBeLessThan(0.45);
	expect(other.reports.cmp.details.claim).toMatchObject({ outcome: 'passed', similarity: 0.97 });
	expect(other.reports.cmp.details.disagreements).toEqual(
		expect.arrayContaining([expect.stringMatching(/^outcome: page claimed 'passed', server found 'notPassed'/), expect.stringMatching(/^similarity: page claimed 0.97/)])
	);
});

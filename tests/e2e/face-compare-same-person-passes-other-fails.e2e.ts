import { expect, test } from '@playwright/test';
import { faceClip } from './support/face-clips.ts';
import { faceFlow, fixtureBase64, QUICK, runFaceSession } from './support/face-journey.ts';

const obama = faceClip('obama-1', [{ still: 'barack_obama_1.jpg', seconds: 4 }]);

const compare = (reference: string) => ({
	flow: faceFlow([{ id: 'cmp', type: 'face_scan', mode: 'compare', referenceImageSource: 'providedData', referenceImageKey: 'idPhoto', ...QUICK }]),
	providedData: { idPhoto: fixtureBase64(reference) }
});

test('face_scan compare: the same person (another photo) passes, a different person does not', async () => {
	test.setTimeout(300_000);
	const same = await runFaceSession(obama, compare('barack_obama_2.jpg'), { timeoutMs: 120_000 });
	expect(same.outcomes.cmp).toBe('passed');
	expect(same.reports.cmp.details.similarity).toBeGreaterThanOrEqual(0.45);
	expect(same.reports.cmp.details.reference).toEqual({ source: 'providedData', kind: 'image' });

	const other = await runFaceSession(obama, compare('joe_biden_2_800w.jpg'), { timeoutMs: 120_000 });
	expect(other.outcomes.cmp).toBe('notPassed');
	expect(other.reports.cmp.details).toMatchObject({ reason: 'noMatch' });
	expect(other.reports.cmp.details.similarity).toBeLessThan(0.45);
});

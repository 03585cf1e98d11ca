import { expect, test } from '@playwright/test';
import { browserWithCamera, contextFor } from './support/face-clips.ts';
import { QUICK } from './support/face-journey.ts';
import { baseUrl, createSession, getSession } from './support/journey.ts';
import { fakeCameraFile } from './support/fake-camera.ts';
import { checkScreen } from './support/screens.ts';
import { sceneCamera } from './support/scene-camera.ts';

/*
 * The camera shows the passport specimen td3-passport-2.jpg (its portrait is barack_obama_1), then
 * the holder's face in another photo (barack_obama_2). The document node reads the passport and saves
 * its portrait; the face_scan compares the live face with it. The session's one camera stream runs
 * through both nodes; the picture changes when the page has captured the document (scene-camera.ts),
 * never on a clock that a slow machine would miss.
 */
const PASSPORT_THEN_FACE = { passport: 'documents/td3-passport-2.jpg', face: 'faces/barack_obama_2.jpg' };

const DOC_OUTCOMES = ['scanSuccess', 'userCancelled', 'scanTimeout'];
const FACE_OUTCOMES = ['passed', 'notPassed', 'cancelled', 'error'];

/** The node's own time limit is generous: the journeys wait for states, and a busy machine is slow to reach them. */
function flow(allowed: string[], timeoutSeconds = 600) {
	return [
		{ id: 'start', type: 'start', outcome: 'perm' },
		{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'doc', permissionsDenied: 'end' } },
		{ id: 'doc', type: 'document_scan', scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: allowed, timeoutSeconds, outcomes: Object.fromEntries(DOC_OUTCOMES.map((k) => [k, 'face'])) },
		{ id: 'face', type: 'face_scan', mode: 'compare', referenceImageSource: 'session', referenceImageKey: 'documentPortrait', ...QUICK, outcomes: Object.fromEntries(FACE_OUTCOMES.map((k) => [k, 'end'])) },
		{ id: 'end', type: 'end' }
	];
}

test('a passport shown to the camera is read, and the holder’s face then matches its portrait', async ({ browser }) => {
	test.setTimeout(180_000);
	const created = await createSession({ flow: flow(['MRTD_TYPE_PASSPORT']) });
	const context = await contextFor(browser, baseUrl());
	try {
		const page = await context.newPage();
		const camera = await sceneCamera(page, PASSPORT_THEN_FACE);
		await page.goto(created.path);
		await page.getByTestId('permissions-continue').click();
		const node = page.getByTestId('document-node');
		await expect(node).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Scan your document' })).toBeVisible();
		// The guidance is a polite live region; the preview is labelled.
		await expect(page.getByTestId('document-guidance')).toHaveAttribute('aria-live', 'polite');
		await expect(page.getByLabel('Camera view with a frame for your document')).toBeVisible();
		// Captured: the user lowers the passport and looks at the camera.
		await expect(node).toHaveAttribute('data-phase', /^(uploading|done)$/, { timeout: 60_000 });
		await camera.show('face');
		await expect(page.locator('[data-testid="face-node"]')).toBeVisible({ timeout: 60_000 });
		await expect(page.locator('[data-screen="end"]')).toBeVisible({ timeout: 90_000 });
	} finally {
		await context.close();
	}
	const session = await getSession(created.id);
	const reports = Object.fromEntries(session.report.nodeReports.map((r: any) => [r.nodeId, r]));
	expect(reports.doc.outcome).toBe('scanSuccess');
	expect(reports.doc.details).toMatchObject({ source: 'mrz', documentType: 'MRTD_TYPE_PASSPORT', portraitFound: true, portrait: { saved: true, field: 'documentPortrait' } });
	expect(reports.doc.details.documentPhotoIds).toHaveLength(1);
	// What the page measured rides along (the server never acts on it).
	expect(reports.doc.details.claim.timings.check).toBeGreaterThan(0);
	expect(session.report.extractedData).toMatchObject({
		lastName: 'OKONKWO BRANDT',
		firstName: 'SAMUEL',
		documentNumber: 'R2T9W4K70',
		dateOfBirth: '1961-08-04',
		expiryDate: '2033-03-11',
		documentType: 'MRTD_TYPE_PASSPORT',
		checkDigitsValid: 'true',
		expired: 'false'
	});
	expect(reports.face.outcome).toBe('passed');
	expect(reports.face.details.reference).toEqual({ source: 'session', kind: 'image' });
	expect(reports.face.details.similarity).toBeGreaterThanOrEqual(0.45);
	expect(session.report.isVerified).toBe(true);
});

test('a passport shown to a driving-licence-only node is refused with a clear message, and cancel ends the node', async ({ browser }, testInfo) => {
	test.setTimeout(120_000);
	const created = await createSession({ flow: flow(['MRTD_TYPE_DL']) });
	const context = await contextFor(browser, baseUrl());
	try {
		const page = await context.newPage();
		await sceneCamera(page, { passport: PASSPORT_THEN_FACE.passport });
		await page.goto(created.path);
		await page.getByTestId('permissions-continue').click();
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-phase', 'retry', { timeout: 60_000 });
		const refusal = "This document (passport) isn't accepted here. Please use one of these: driving licence.";
		await expect(page.getByTestId('document-guidance')).toContainText(refusal);
		// Scanning goes on, but the refused passport is not sent again while it stays in view: the
		// refusal stays on screen instead of using up the tries, however slowly frames are checked.
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-phase', 'scanning', { timeout: 30_000 });
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-guidance', 'otherDocument');
		await expect(page.getByTestId('document-guidance')).toContainText(refusal);
		await checkScreen(page, testInfo, 'document refused');
		// Cancel ends the node for good, so it asks once; "Keep going" leaves the step as it was.
		await page.getByTestId('document-cancel').click();
		await expect(page.getByTestId('document-cancel-confirm')).toBeVisible();
		await page.getByTestId('document-cancel-keep').click();
		await expect(page.getByTestId('document-node')).toBeVisible();
		await page.getByTestId('document-cancel').click();
		await page.getByTestId('document-cancel-confirm').click();
		// Without a document there is no portrait to compare with: the face_scan ends at once.
		await expect(page.locator('[data-screen="end"]')).toBeVisible();
	} finally {
		await context.close();
	}
	const session = await getSession(created.id);
	const doc = session.report.nodeReports.find((r: any) => r.nodeId === 'doc');
	expect(doc.outcome).toBe('userCancelled');
	expect(doc.details.previousTries).toEqual([expect.objectContaining({ reason: 'typeNotAllowed', documentType: 'MRTD_TYPE_PASSPORT' })]);
	expect(session.report.extractedData ?? {}).toEqual({});
});

test('MULTI_SIDE: the front is captured, the page asks to turn the card over, waits for the back, and the server reads both', async ({ browser }) => {
	test.setTimeout(120_000);
	const created = await createSession({
		flow: [
			{ id: 'start', type: 'start', outcome: 'perm' },
			{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'doc', permissionsDenied: 'end' } },
			{ id: 'doc', type: 'document_scan', scanningMode: 'MULTI_SIDE', allowedDocumentTypes: ['MRTD_TYPE_IDENITY_CARD'], outcomes: Object.fromEntries(DOC_OUTCOMES.map((k) => [k, 'end'])) },
			{ id: 'end', type: 'end' }
		]
	});
	const context = await contextFor(browser, baseUrl());
	try {
		const page = await context.newPage();
		const camera = await sceneCamera(page, { front: 'documents/td1-id-front.jpg', back: 'documents/td1-id-back.jpg' });
		await page.goto(created.path);
		await page.getByTestId('permissions-continue').click();
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-phase', 'flip', { timeout: 30_000 });
		await expect(page.getByTestId('document-guidance')).toHaveText('Front captured. Turn your document over');
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-side', 'back');
		// While the front is still in view the page waits for the card to be turned over.
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-phase', 'scanning', { timeout: 30_000 });
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-guidance', 'flip');
		await camera.show('back');
		await expect(page.locator('[data-screen="end"]')).toBeVisible({ timeout: 60_000 });
	} finally {
		await context.close();
	}
	const session = await getSession(created.id);
	const doc = session.report.nodeReports.find((r: any) => r.nodeId === 'doc');
	expect(doc.outcome).toBe('scanSuccess');
	// The portrait was found on the front; with no face node in the flow the page asked no biometric
	// consent, so it is not kept as a face reference.
	expect(doc.details).toMatchObject({ mrzFormat: 'TD1', documentType: 'MRTD_TYPE_IDENITY_CARD', portraitFound: true, portrait: { saved: false, because: 'noConsent' } });
	// The front (portrait) and the back (MRZ) really were two different pictures.
	expect(doc.details.sides).toEqual([expect.objectContaining({ side: 'front', mrzFound: false }), expect.objectContaining({ side: 'back', mrzFound: true })]);
	expect(doc.details.documentPhotoIds).toHaveLength(2);
	expect(session.report.extractedData).toMatchObject({ lastName: 'NOVAK', firstName: 'TOMAS JAN', documentNumber: 'LZ6311T47', mrzFormat: 'TD1' });
});

test('no document within the time limit: the page counts down and the node ends with scanTimeout', async () => {
	test.setTimeout(60_000);
	const created = await createSession({ flow: flow(['MRTD_TYPE_PASSPORT'], 6) });
	// Chromium's test pattern: no document ever comes into view.
	const browser = await browserWithCamera(fakeCameraFile());
	try {
		const page = await (await contextFor(browser, baseUrl())).newPage();
		await page.goto(created.path);
		await page.getByTestId('permissions-continue').click();
		await expect(page.getByTestId('document-time-left')).toContainText(/Time left: 0:0[3-6]/);
		// Guidance keeps asking for a document; which words depends on the frame (Chromium's moving test
		// pattern sometimes reads as a card filling the whole view: "move it further away"), never capture.
		await expect(page.getByTestId('document-node')).toHaveAttribute('data-guidance', /^(fitInFrame|moveCloser|moveBack|holdFlat)$/);
		await expect(page.locator('[data-screen="end"]')).toBeVisible({ timeout: 20_000 });
	} finally {
		await browser.close();
	}
	const session = await getSession(created.id);
	const doc = session.report.nodeReports.find((r: any) => r.nodeId === 'doc');
	expect(doc).toMatchObject({ outcome: 'scanTimeout', details: { reason: 'timeout', tries: 0 } });
});

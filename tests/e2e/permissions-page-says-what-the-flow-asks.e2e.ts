import { expect, test } from '@playwright/test';
import { faceFlow, QUICK } from './support/face-journey.ts';
import { contextFor } from './support/face-clips.ts';
import { baseUrl, createSession, FLOWS } from './support/journey.ts';

// The permissions page's first line says what the user will do, from the flow itself. A flow with a
// face step and no conversation used to read "You'll talk with our virtual assistant and show your
// face", and an e-mail-only flow "You'll talk with our virtual assistant".

const CONVERSATION = { id: 'hello', type: 'conversation', prompt: 'Greet the user and ask whether they are ready to begin', outcomes: [{ id: 'ready', condition: 'The user is ready', targetNodeId: 'end' }] };
const talkThenFace = [
	{ id: 'start', type: 'start', outcome: 'perm' },
	{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'hello', permissionsDenied: 'end' } },
	{ ...CONVERSATION, outcomes: [{ id: 'ready', condition: 'The user is ready', targetNodeId: 'selfie' }] },
	{ id: 'selfie', type: 'face_scan', mode: 'capture', ...QUICK, outcomes: { passed: 'end', notPassed: 'end', cancelled: 'end', error: 'end' } },
	{ id: 'end', type: 'end' }
];
const talkOnly = [{ id: 'start', type: 'start', outcome: 'hello' }, CONVERSATION, { id: 'end', type: 'end' }];

const cases: [string, Record<string, unknown>[], string][] = [
	['a conversation and a face step', talkThenFace, "It only takes a few minutes. You'll talk with our virtual assistant and show your face to the camera."],
	['a conversation only', talkOnly, "It only takes a few minutes. You'll talk with our virtual assistant."],
	['a face step only', faceFlow([{ id: 'selfie', type: 'face_scan', mode: 'capture', ...QUICK }]), "It only takes a few minutes. You'll show your face to the camera."],
	['an e-mail only', FLOWS.emailOnly, 'It only takes a few minutes.']
];

for (const [what, flow, line] of cases) {
	test(`a flow with ${what} is described as such on the permissions page`, async ({ browser }) => {
		const created = await createSession({ flow });
		const context = await contextFor(browser, baseUrl());
		try {
			const page = await context.newPage();
			await page.goto(created.path);
			await expect(page.getByTestId('permissions-subheading')).toHaveText(line);
		} finally {
			await context.close();
		}
	});
}

// Why the camera is asked for: a document-only flow photographs a document and checks no face, so it
// must not say the camera checks "that you are a real person and that it's really you".
const documentOnly = [
	{ id: 'start', type: 'start', outcome: 'doc' },
	{ id: 'doc', type: 'document_scan', scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: ['MRTD_TYPE_PASSPORT'], outcomes: { scanSuccess: 'end', userCancelled: 'end', scanTimeout: 'end' } },
	{ id: 'end', type: 'end' }
];
const reasons: [string, Record<string, unknown>[], string, string][] = [
	['a document scan only', documentOnly, 'Camera: to take a picture of your identity document.', "Camera: to check that you are a real person and that it's really you."],
	['a face step', faceFlow([{ id: 'selfie', type: 'face_scan', mode: 'capture', ...QUICK }]), "Camera: to check that you are a real person and that it's really you.", 'Camera: to take a picture of your identity document.']
];
for (const [what, flow, said, notSaid] of reasons) {
	test(`a flow with ${what} gives the camera's reason for that flow`, async ({ browser }) => {
		const created = await createSession({ flow });
		const context = await contextFor(browser, baseUrl());
		try {
			const page = await context.newPage();
			await page.goto(created.path);
			await expect(page.getByText(said, { exact: true })).toBeVisible();
			await expect(page.getByText(notSaid, { exact: true })).toHaveCount(0);
		} finally {
			await context.close();
		}
	});
}

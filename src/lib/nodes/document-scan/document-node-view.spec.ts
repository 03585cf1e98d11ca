import { describe, expect, it } from 'vitest';
import { documentNodeViewOf } from './document-node-view.ts';

describe('documentNodeViewOf', () => {
	it('takes the settings and the time left the server sent', () => {
		const props = {
			settings: { scanningMode: 'MULTI_SIDE', allowedDocumentTypes: ['MRTD_TYPE_DL', 7], showTorchButton: false, showCameraSwitch: false, timeoutSeconds: 30 },
			timeLeftMs: 12_345
		};
		expect(documentNodeViewOf(props)).toEqual({
			settings: { scanningMode: 'MULTI_SIDE', allowedDocumentTypes: ['MRTD_TYPE_DL'], showTorchButton: false, showCameraSwitch: false, timeoutSeconds: 30 },
			timeLeftMs: 12_345
		});
	});

	it('fills what is missing or odd with the page’s defaults, and counts down from the whole limit', () => {
		expect(documentNodeViewOf({})).toEqual({
			settings: { scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: [], showTorchButton: true, showCameraSwitch: true, timeoutSeconds: 120 },
			timeLeftMs: 120_000
		});
		expect(documentNodeViewOf({ settings: { scanningMode: 'SIDEWAYS', timeoutSeconds: '9' } }).settings).toMatchObject({ scanningMode: 'SINGLE_SIDE', timeoutSeconds: 120 });
		expect(documentNodeViewOf({ settings: { timeoutSeconds: 6 } }).timeLeftMs).toBe(6000);
	});
});

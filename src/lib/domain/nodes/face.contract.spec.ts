import { describe, expect, it } from 'vitest';
import { FIXED_OUTCOME_KEYS } from '../flow/node-types.ts';
import { faceSettingsOf } from './face.contract.ts';

const outcomes = (type: keyof typeof FIXED_OUTCOME_KEYS) => Object.fromEntries(FIXED_OUTCOME_KEYS[type].map((k) => [k, 'end']));
const settings = (node: Record<string, unknown>) => faceSettingsOf({ id: 'n', ...node } as unknown as Parameters<typeof faceSettingsOf>[0]);

describe('face node settings: the hold (captureDelay)', () => {
	it("face_scan holds for the spec's 3000 ms unless the node says otherwise", () => {
		expect(settings({ type: 'face_scan', mode: 'capture', outcomes: outcomes('face_scan') }).captureDelay).toBe(3000);
		expect(settings({ type: 'face_scan', mode: 'capture', captureDelay: 1200, outcomes: outcomes('face_scan') }).captureDelay).toBe(1200);
	});

	it('a liveness node holds 1.5 s before its challenge, or what the node sets', () => {
		expect(settings({ type: 'liveness_detection', outcomes: outcomes('liveness_detection') }).captureDelay).toBe(1500);
		expect(settings({ type: 'liveness_detection', captureDelay: 3000, outcomes: outcomes('liveness_detection') }).captureDelay).toBe(3000);
	});

	it('face_compare and recognition keep the 3000 ms default', () => {
		expect(settings({ type: 'face_compare', referenceImageSource: 'session', outcomes: outcomes('face_compare') }).captureDelay).toBe(3000);
		expect(settings({ type: 'recognition', outcomes: outcomes('recognition') }).captureDelay).toBe(3000);
	});
});

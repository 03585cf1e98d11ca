import { describe, expect, it } from 'vitest';
import type { PageState } from '#lib/domain/page/page.schema.ts';
import { uploadEvidence, type PagePort } from './face-upload.ts';

// The server's retry notice, as the page reads it: its words come from outside the page's code, so
// anything it does not know is left out rather than shown as a missing translation key.
const state = { session: { step: 2 }, node: { id: 'live', type: 'liveness_detection', props: { challenge: 'turnLeft', light: null } } } as unknown as PageState;
const runner = (): PagePort => ({ state, client: { token: 't' }, act: async () => undefined, refresh: async () => undefined, applyState: () => undefined });
const answerWith = (params: Record<string, unknown>) => (async () => new Response(JSON.stringify({ state, notice: { code: 'face.retry', params } }), { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
const payload = { frames: [{ image: new ArrayBuffer(4), t: 0, kind: 'best' as const }], alignedFace: null, claim: {} };

describe('uploadEvidence: the retry notice', () => {
	it('passes on the hint the server gives (the light was not seen on the face)', async () => {
		const answer = await uploadEvidence(runner(), 'live', payload, answerWith({ reason: 'challengeFailed', hint: 'lightNotSeen', triesLeft: 2 }));
		expect(answer).toEqual({ kind: 'retry', reason: 'challengeFailed', hint: 'lightNotSeen', challenge: 'turnLeft', light: null, triesLeft: 2 });
	});

	it('leaves out a hint it does not know, and reads an unknown reason as an error', async () => {
		const answer = await uploadEvidence(runner(), 'live', payload, answerWith({ reason: 'nonsense', hint: '<script>', triesLeft: 1 }));
		expect(answer).toEqual({ kind: 'retry', reason: 'error', challenge: 'turnLeft', light: null, triesLeft: 1 });
		const noHint = await uploadEvidence(runner(), 'live', payload, answerWith({ reason: 'challengeFailed', hint: 42, triesLeft: 1 }));
		expect(noHint).not.toHaveProperty('hint');
	});
});

import { describe, expect, it } from 'vitest';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { referencePresent, sessionReferenceKey } from './face-reference.ts';

const compare = (extra: Partial<NodeOf<'face_compare'>> = {}) =>
	({ id: 'cmp', type: 'face_compare', referenceImageSource: 'session', outcomes: { match: 'end', noMatch: 'end', imageUnavailable: 'end' }, ...extra }) as NodeOf<'face_compare'>;
const face = (capturedAt: number, nodeId: string) => ({ type: 'face', template: 'AAAAAAAAAAAA', capturedAt, nodeId });
const portrait = { type: 'image', mediaId: 'm1' };
const session = { settings: {} } as never;

describe('sessionReferenceKey', () => {
	it('reads the named key when the node names one, saved or not', () => {
		expect(sessionReferenceKey(compare({ referenceImageKey: 'idPhoto' }), { selfie: face(1, 'a') })).toBe('idPhoto');
	});

	it('without a key, takes the face captured last, whatever order the data keeps', () => {
		const data = { later: face(2000, 'b'), earlier: face(1000, 'a'), documentPortrait: portrait };
		expect(sessionReferenceKey(compare(), data)).toBe('later');
	});

	it('falls back to the document portrait, and to nothing when the session holds no face', () => {
		expect(sessionReferenceKey(compare(), { documentPortrait: portrait, email: 'a@b.c' })).toBe('documentPortrait');
		expect(sessionReferenceKey(compare(), { email: 'a@b.c', documentPortrait: 'not an image record' })).toBeNull();
		expect(referencePresent(compare(), session, {})).toBe(false);
		expect(referencePresent(compare(), session, { documentPortrait: portrait })).toBe(true);
	});
});

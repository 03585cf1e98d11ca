import { describe, expect, it } from 'vitest';
import { LIGHT_MAX_STEPS } from '../face/light-challenge.ts';
import { faceEvidenceRequestSchema, MAX_EVIDENCE_FRAMES } from './face-evidence.schema.ts';

const frame = (t: number) => ({ image: '/9j/4AAQ', t, kind: 'challenge' as const });
const body = (over: Record<string, unknown> = {}) => ({ step: 3, frames: [frame(0), frame(100)], claim: {}, ...over });

describe('faceEvidenceRequestSchema: what the page says about the light and how many frames it sends', () => {
	it('accepts when the colours changed, and no more than one time per step', () => {
		expect(faceEvidenceRequestSchema.safeParse(body({ lightStartedAt: 100, lightChangedAt: [500, 900, 1300, 1700] })).success).toBe(true);
		const tooMany = faceEvidenceRequestSchema.safeParse(body({ lightStartedAt: 100, lightChangedAt: Array.from({ length: LIGHT_MAX_STEPS + 1 }, (_, i) => 500 + i * 400) }));
		expect(tooMany.success).toBe(false);
		expect(tooMany.error!.issues[0]!.path).toEqual(['lightChangedAt']);
	});

	it('refuses change times that are not times on the page clock', () => {
		for (const bad of [[-1], ['500'], [Number.NaN], [86_400_001], 500, null]) {
			const r = faceEvidenceRequestSchema.safeParse(body({ lightStartedAt: 100, lightChangedAt: bad }));
			expect(r.success, JSON.stringify(bad)).toBe(false);
			expect(r.error!.issues[0]!.path[0]).toBe('lightChangedAt');
		}
	});

	it(`takes at most ${MAX_EVIDENCE_FRAMES} frames`, () => {
		const frames = (n: number) => Array.from({ length: n }, (_, i) => frame(i * 100));
		expect(faceEvidenceRequestSchema.safeParse(body({ frames: frames(MAX_EVIDENCE_FRAMES) })).success).toBe(true);
		const over = faceEvidenceRequestSchema.safeParse(body({ frames: frames(MAX_EVIDENCE_FRAMES + 1) }));
		expect(over.success).toBe(false);
		expect(over.error!.issues[0]!.path).toEqual(['frames']);
	});
});

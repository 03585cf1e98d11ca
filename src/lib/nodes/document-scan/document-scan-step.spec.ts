import { describe, expect, it } from 'vitest';
import type { DocumentGuidance } from './document-check.ts';
import { CAPTURE_AFTER, scanStep, type FrameLook, type ScanMemory } from './document-scan-step.ts';

/** Signatures far apart (distance ~2) and one a little off the first (a hand-held camera). */
const sig = (v: number, jitter = 0) => Float32Array.from({ length: 640 }, (_, i) => (i % 2 ? v : -v) + (i % 7 === 0 ? jitter : 0));
const PASSPORT = sig(1);
const PASSPORT_MOVED = sig(1, 0.3);
const LICENCE = sig(-1);

/** What the camera shows at a given time (ms): a refused passport, held badly at times, then nothing, then a licence. */
function scene(t: number): FrameLook {
	const look = (good: boolean, guidance: DocumentGuidance, s: Float32Array | null): FrameLook => ({ good, guidance, signature: () => s });
	if (t < 9000) {
		// The refused passport, still in view: mostly sharp, sometimes blurred or half out of the frame.
		const phase = Math.floor(t / 700) % 4;
		if (phase === 1) return look(false, 'blur', PASSPORT_MOVED);
		if (phase === 2) return look(false, 'moveBack', PASSPORT_MOVED);
		return look(true, 'holdFlat', phase === 3 ? PASSPORT_MOVED : PASSPORT);
	}
	if (t < 12000) return look(false, 'fitInFrame', null);
	return look(true, 'holdFlat', LICENCE);
}

/** A seeded frame clock: `mean` ms between checks, ±`spread`, with an occasional long stall. */
function clock(seed: number, mean: number, spread: number): () => number {
	let x = seed;
	const rand = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
	return () => Math.max(16, mean + (rand() * 2 - 1) * spread + (rand() < 0.1 ? 2000 : 0));
}

function run(nextGap: () => number) {
	let memory: ScanMemory = { side: 'front', steady: 0, frontSignature: null, refusedSignature: PASSPORT };
	const shown: { t: number; guidance: DocumentGuidance; capture: boolean }[] = [];
	for (let t = 0; t < 30_000; t += nextGap()) {
		const step = scanStep(memory, scene(t));
		shown.push({ t, guidance: step.guidance, capture: step.capture });
		if (step.capture) break;
		memory = { ...memory, steady: step.steady, refusedSignature: step.refusedSignature };
	}
	return shown;
}

describe('scanStep after a refusal, at any frame rate', () => {
	const clocks = {
		'a fast phone (300 ms, steady)': clock(1, 300, 0),
		'a slow phone (1.2 s ± 0.8 s, stalls)': clock(7, 1200, 800),
		'a very slow, irregular phone (2.5 s ± 2 s)': clock(42, 2500, 2000)
	};
	for (const [name, gap] of Object.entries(clocks)) {
		it(`${name}: the refusal stays on screen until another document is seen, and only that one is captured`, () => {
			const shown = run(gap);
			const beforeLicence = shown.filter((s) => s.t < 12000);
			expect(beforeLicence.length).toBeGreaterThan(2);
			expect(new Set(beforeLicence.map((s) => s.guidance))).toEqual(new Set(['otherDocument']));
			expect(beforeLicence.some((s) => s.capture)).toBe(false);
			const last = shown.at(-1)!;
			expect(last).toMatchObject({ guidance: 'capturing', capture: true });
			expect(last.t).toBeGreaterThanOrEqual(12000);
			// The licence needs CAPTURE_AFTER good checks, however far apart they are.
			expect(shown.filter((s) => s.t >= 12000)).toHaveLength(CAPTURE_AFTER);
		});
	}

	it('a different document clears the refusal even when the first sight of it is not sharp yet', () => {
		let memory: ScanMemory = { side: 'front', steady: 0, frontSignature: null, refusedSignature: PASSPORT };
		const blurred = scanStep(memory, { good: false, guidance: 'blur', signature: () => LICENCE });
		// Not sharp: the page cannot tell yet, so it keeps the refusal.
		expect(blurred).toMatchObject({ guidance: 'otherDocument', steady: 0, refusedSignature: PASSPORT });
		const sharp = scanStep(memory, { good: true, guidance: 'holdFlat', signature: () => LICENCE });
		expect(sharp).toMatchObject({ guidance: 'holdFlat', steady: 1, capture: false, refusedSignature: null });
		memory = { ...memory, steady: sharp.steady, refusedSignature: sharp.refusedSignature };
		// Later frames of the new document carry on normally, and its own guidance shows.
		expect(scanStep(memory, { good: false, guidance: 'glare', signature: () => LICENCE })).toMatchObject({ guidance: 'glare', steady: 0 });
	});

	it('MULTI_SIDE: the front shown again for the back asks to turn the card over; the back is captured', () => {
		const memory: ScanMemory = { side: 'back', steady: 1, frontSignature: PASSPORT, refusedSignature: null };
		expect(scanStep(memory, { good: true, guidance: 'holdFlat', signature: () => PASSPORT_MOVED })).toMatchObject({ guidance: 'flip', steady: 0, capture: false });
		expect(scanStep(memory, { good: true, guidance: 'holdFlat', signature: () => LICENCE })).toMatchObject({ guidance: 'capturing', steady: 2, capture: true });
	});

	it('without a refusal, guidance is the frame check’s own and a bad frame resets the count', () => {
		const memory: ScanMemory = { side: 'front', steady: 1, frontSignature: null, refusedSignature: null };
		let asked = 0;
		const step = scanStep(memory, { good: false, guidance: 'moveCloser', signature: () => (asked++, null) });
		expect(step).toMatchObject({ guidance: 'moveCloser', steady: 0, capture: false });
		// No signature is computed when nothing needs it (it costs a warp per frame on a phone).
		expect(asked).toBe(0);
	});
});

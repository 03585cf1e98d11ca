import { describe, expect, it } from 'vitest';
import type { Quad } from '#lib/documents/raster.ts';
import type { DocumentGuidance } from './document-check.ts';
import {
	documentTransition,
	FLIP_PAUSE_MS,
	initialDocumentState,
	RETRY_PAUSE_MS,
	type DocumentCommand,
	type DocumentEvent,
	type DocumentMachineState
} from './document-capture-machine.ts';
import { CAPTURE_AFTER } from './document-scan-step.ts';
import type { DocumentUploadAnswer } from './document-upload.ts';

/** Signatures of three different pictures (distance 2 apart, far above SAME_SIDE_MAX). */
const sig = (v: number) => Float32Array.from({ length: 640 }, (_, i) => (i % 2 ? v : -v));
const PASSPORT = sig(1);
const CARD_BACK = sig(-1);
const LICENCE = sig(0.2);
const QUAD: Quad = [
	[0.1, 0.1],
	[0.9, 0.1],
	[0.9, 0.9],
	[0.1, 0.9]
];
const MEASURES = { sharpness: 900, glare: 0.01, coverage: 0.7 };

/** A checked frame: a sharp document with this signature, or a frame the check did not like. */
function frame(signature: Float32Array | null, guidance: DocumentGuidance = 'holdFlat'): DocumentEvent {
	return { type: 'frame', look: { good: guidance === 'holdFlat', guidance, signature: () => signature }, quad: signature ? QUAD : null, measures: MEASURES };
}
const sharp = (signature: Float32Array) => Array.from({ length: CAPTURE_AFTER }, () => frame(signature));
const jpeg = (name: string) => new Blob([name], { type: 'image/jpeg' });
const tick = (now: number): DocumentEvent => ({ type: 'tick', now });
const answered = (now: number, answer: DocumentUploadAnswer): DocumentEvent => ({ type: 'answered', now, answer });
const refused = (reason: 'typeNotAllowed' | 'blurry', triesLeft = 3): DocumentUploadAnswer => ({ kind: 'retry', reason, triesLeft, documentType: 'MRTD_TYPE_PASSPORT', allowed: ['MRTD_TYPE_DL'] });

/** Plays events from a state; every command asked for, in order. */
function play(state: DocumentMachineState, events: DocumentEvent[]) {
	const commands: DocumentCommand[] = [];
	for (const e of events) {
		const step = documentTransition(state, e);
		state = step.state;
		commands.push(...step.commands);
	}
	return { state, commands, types: commands.map((c) => c.type) };
}

/** A node opened at t=1000 with 60 s left, camera asked for. */
const T0 = 1000;
const scanning = (sides: ('front' | 'back')[] = ['front'], timeLeftMs = 60_000) => play(initialDocumentState({ sides, timeLeftMs, now: T0 }), [{ type: 'start' }]).state;

describe('document capture machine', () => {
	it('waits for the camera, then scans; the countdown starts from the server’s time left', () => {
		const first = initialDocumentState({ sides: ['front'], timeLeftMs: 42_000, now: T0 });
		expect(first).toMatchObject({ view: { phase: 'loading', side: 'front', guidance: null, steady: 0 }, timeLeftMs: 42_000, deadline: T0 + 42_000 });
		// No frame counts before the camera is asked for.
		expect(documentTransition(first, frame(PASSPORT)).state).toBe(first);
		const s = play(first, [{ type: 'start' }, tick(T0 + 1500)]).state;
		expect(s.view.phase).toBe('scanning');
		expect(s.timeLeftMs).toBe(40_500);
	});

	it('guides frame by frame and captures once after CAPTURE_AFTER good checks in a row, once only', () => {
		let { state, types } = play(scanning(), [frame(null, 'fitInFrame'), frame(PASSPORT, 'moveCloser'), frame(PASSPORT), frame(PASSPORT, 'glare')]);
		expect(state.view).toMatchObject({ phase: 'scanning', guidance: 'glare', steady: 0, quad: QUAD });
		expect(types).toEqual([]);
		({ state, types } = play(state, [...sharp(PASSPORT), frame(PASSPORT), frame(PASSPORT)]));
		expect(state.view).toMatchObject({ phase: 'capturing', guidance: 'capturing', steady: CAPTURE_AFTER });
		expect(state.measures).toEqual(MEASURES);
		// Frames checked while the capture is encoded change nothing and ask for no second capture.
		expect(types).toEqual(['capture']);
	});

	it('goes back to scanning from scratch when the frame could not be encoded', () => {
		const { state, types } = play(scanning(), [...sharp(PASSPORT), { type: 'captured', now: T0 + 900, jpeg: null, t: 900 }]);
		expect(state.view).toMatchObject({ phase: 'scanning', steady: 0 });
		expect(state.captured).toEqual([]);
		expect(types).toEqual(['capture']);
	});

	it('SINGLE_SIDE: uploads the captured side with the measurements, once, and is done when the node moves on', () => {
		const front = jpeg('front');
		let { state, commands } = play(scanning(), [...sharp(PASSPORT), { type: 'captured', now: T0 + 900, jpeg: front, t: 900 }]);
		expect(state.view).toMatchObject({ phase: 'uploading', guidance: null });
		expect(commands).toEqual([{ type: 'capture' }, { type: 'upload', sides: [{ side: 'front', jpeg: front, t: 900 }], measures: MEASURES }]);
		// A second "captured" for the same capture (or anything late) uploads nothing more.
		expect(play(state, [{ type: 'captured', now: T0 + 950, jpeg: front, t: 950 }, ...sharp(PASSPORT)]).commands).toEqual([]);
		({ state, commands } = play(state, [answered(T0 + 2000, { kind: 'moved' })]));
		expect(state.view.phase).toBe('done');
		expect(state.captured).toEqual([]);
		expect(commands).toEqual([{ type: 'stop' }]);
		// Over: the clock stopped, a repeated answer or a late tick does nothing.
		expect(play(state, [answered(T0 + 2100, { kind: 'moved' }), tick(T0 + 90_000)])).toMatchObject({ state, commands: [] });
	});

	it('MULTI_SIDE: front, a pause to turn the card over, the back (not the front again), then both sides uploaded in order', () => {
		const [front, back] = [jpeg('front'), jpeg('back')];
		let { state, commands } = play(scanning(['front', 'back']), [...sharp(PASSPORT), { type: 'captured', now: 5000, jpeg: front, t: 4000 }]);
		expect(state.view).toMatchObject({ phase: 'flip', side: 'back', guidance: null, quad: null, steady: 0 });
		expect(commands.at(-1)).toEqual({ type: 'wake', at: 5000 + FLIP_PAUSE_MS });
		expect(commands.some((c) => c.type === 'upload')).toBe(false);
		// Frames during the pause are not looked at; the pause ends on the clock, not before.
		state = play(state, [...sharp(CARD_BACK), tick(5000 + FLIP_PAUSE_MS - 1)]).state;
		expect(state.view).toMatchObject({ phase: 'flip', steady: 0 });
		state = play(state, [tick(5000 + FLIP_PAUSE_MS)]).state;
		expect(state.view).toMatchObject({ phase: 'scanning', side: 'back' });
		// The front shown again for the back: asked to turn it over, never captured.
		({ state, commands } = play(state, [...sharp(PASSPORT), ...sharp(PASSPORT)]));
		expect(state.view).toMatchObject({ phase: 'scanning', guidance: 'flip', steady: 0 });
		expect(commands).toEqual([]);
		({ state, commands } = play(state, [...sharp(CARD_BACK), { type: 'captured', now: 9000, jpeg: back, t: 8000 }]));
		expect(commands).toEqual([
			{ type: 'capture' },
			{
				type: 'upload',
				sides: [
					{ side: 'front', jpeg: front, t: 4000 },
					{ side: 'back', jpeg: back, t: 8000 }
				],
				measures: MEASURES
			}
		]);
	});

	it('a refusal for its type shows why and the tries left, pauses, and the refused document is not sent again', () => {
		let { state, commands } = play(scanning(), [...sharp(PASSPORT), { type: 'captured', now: 3000, jpeg: jpeg('p'), t: 2000 }, answered(4000, refused('typeNotAllowed', 2))]);
		expect(state.view).toMatchObject({
			phase: 'retry',
			side: 'front',
			quad: null,
			steady: 0,
			retry: { reason: 'typeNotAllowed', documentType: 'MRTD_TYPE_PASSPORT', allowed: ['MRTD_TYPE_DL'], triesLeft: 2 }
		});
		expect(commands.at(-1)).toEqual({ type: 'wake', at: 4000 + RETRY_PAUSE_MS });
		expect(play(state, [tick(4000 + RETRY_PAUSE_MS - 1)]).state.view.phase).toBe('retry');
		state = play(state, [tick(4000 + RETRY_PAUSE_MS)]).state;
		expect(state.view.phase).toBe('scanning');
		// The same passport still in view: the refusal stays (view.retry kept), no capture, no upload.
		({ state, commands } = play(state, [...sharp(PASSPORT), ...sharp(PASSPORT)]));
		expect(state.view).toMatchObject({ phase: 'scanning', guidance: 'otherDocument', retry: { reason: 'typeNotAllowed' } });
		expect(commands).toEqual([]);
		// Another document is captured as usual.
		({ state, commands } = play(state, sharp(LICENCE)));
		expect(state.view.phase).toBe('capturing');
		expect(commands).toEqual([{ type: 'capture' }]);
	});

	it('any other refusal lets the same document be tried again; MULTI_SIDE starts again from the front', () => {
		const one = play(scanning(), [...sharp(PASSPORT), { type: 'captured', now: 3000, jpeg: jpeg('p'), t: 2000 }, answered(4000, refused('blurry')), tick(4000 + RETRY_PAUSE_MS), ...sharp(PASSPORT)]);
		expect(one.state.view).toMatchObject({ phase: 'capturing', retry: { reason: 'blurry' } });
		expect(one.types.filter((t) => t === 'capture')).toHaveLength(2);

		const both = play(scanning(['front', 'back']), [
			...sharp(PASSPORT),
			{ type: 'captured', now: 3000, jpeg: jpeg('f'), t: 2000 },
			tick(3000 + FLIP_PAUSE_MS),
			...sharp(CARD_BACK),
			{ type: 'captured', now: 7000, jpeg: jpeg('b'), t: 6000 },
			answered(8000, refused('typeNotAllowed')),
			tick(8000 + RETRY_PAUSE_MS)
		]);
		expect(both.state.view).toMatchObject({ phase: 'scanning', side: 'front' });
		expect(both.state.captured).toEqual([]);
		// The refusal is about the document, known by its front: the front is not captured again.
		expect(both.state.refusedSignature).toBe(PASSPORT);
		expect(play(both.state, sharp(PASSPORT)).state.view.guidance).toBe('otherDocument');
	});

	it('a failed upload waits for the user; try again scans from the first side, and the time limit still runs', () => {
		let { state } = play(scanning(), [...sharp(PASSPORT), { type: 'captured', now: 3000, jpeg: jpeg('p'), t: 2000 }, answered(4000, { kind: 'failed', error: 'network' })]);
		expect(state.view).toMatchObject({ phase: 'failed', error: 'network' });
		expect(play(state, sharp(PASSPORT)).commands).toEqual([]);
		// "Try again" only means something after a failure.
		expect(documentTransition(scanning(), { type: 'restart' }).state.view.phase).toBe('scanning');
		expect(play(state, [{ type: 'restart' }]).state.view).toMatchObject({ phase: 'scanning', side: 'front', steady: 0, error: null, quad: null });
		const late = play(state, [tick(T0 + 60_000)]);
		expect(late.state.view.phase).toBe('timeout');
		expect(late.commands).toEqual([{ type: 'stop' }, { type: 'report', action: 'timeout' }]);
	});

	it('counts down on each tick and reports the time limit once, with the screen cleared', () => {
		let { state, commands } = play(scanning(['front'], 6000), [frame(PASSPORT, 'moveCloser'), tick(T0 + 250), tick(T0 + 3400)]);
		expect(state.timeLeftMs).toBe(2600);
		expect(commands).toEqual([]);
		({ state, commands } = play(state, [tick(T0 + 6000), tick(T0 + 6250)]));
		expect(state.timeLeftMs).toBe(0);
		expect(state.view).toMatchObject({ phase: 'timeout', guidance: null, quad: null });
		expect(commands).toEqual([{ type: 'stop' }, { type: 'report', action: 'timeout' }]);
		// Nothing after it: no frame, no cancel, no capture.
		expect(play(state, [...sharp(LICENCE), { type: 'cancel' }])).toMatchObject({ state, commands: [] });
	});

	it('time up during an upload: the server judges it; a refusal then ends in time up', () => {
		let { state, commands } = play(scanning(['front'], 6000), [...sharp(PASSPORT), { type: 'captured', now: T0 + 5000, jpeg: jpeg('p'), t: 5000 }, tick(T0 + 7000)]);
		expect(state.view.phase).toBe('uploading');
		expect(state.timeLeftMs).toBe(0);
		expect(commands.map((c) => c.type)).toEqual(['capture', 'upload']);
		({ state, commands } = play(state, [answered(T0 + 8000, refused('blurry')), tick(T0 + 8250)]));
		expect(state.view.phase).toBe('timeout');
		expect(commands.map((c) => c.type)).toEqual(['wake', 'stop', 'report']);
	});

	it('time up while a capture is encoded or the card is turned over: that capture is never uploaded', () => {
		const encoding = play(scanning(['front'], 6000), [...sharp(PASSPORT), tick(T0 + 6000), { type: 'captured', now: T0 + 6100, jpeg: jpeg('p'), t: 6100 }]);
		expect(encoding.state.view.phase).toBe('timeout');
		expect(encoding.types).toEqual(['capture', 'stop', 'report']);
		const turning = play(scanning(['front', 'back'], 6000), [...sharp(PASSPORT), { type: 'captured', now: T0 + 5000, jpeg: jpeg('f'), t: 5000 }, tick(T0 + 6000), tick(T0 + 5000 + FLIP_PAUSE_MS)]);
		expect(turning.state.view.phase).toBe('timeout');
		expect(turning.types).toEqual(['capture', 'wake', 'stop', 'report']);
	});

	it('cancel stops everything and reports it; a capture under way is dropped; a cancel that did not get through can be sent again', () => {
		let { state, commands } = play(scanning(), [...sharp(PASSPORT), { type: 'cancel' }]);
		expect(state.view.phase).toBe('cancelled');
		expect(commands).toEqual([{ type: 'capture' }, { type: 'stop' }, { type: 'report', action: 'cancel' }]);
		expect(play(state, [{ type: 'captured', now: 9000, jpeg: jpeg('p'), t: 8000 }, tick(T0 + 90_000), ...sharp(LICENCE), { type: 'restart' }])).toMatchObject({ state, commands: [] });
		({ commands } = play(state, [{ type: 'cancel' }]));
		expect(commands).toEqual([{ type: 'stop' }, { type: 'report', action: 'cancel' }]);
		// Once the node is done there is nothing left to cancel.
		const done = play(scanning(), [...sharp(PASSPORT), { type: 'captured', now: 3000, jpeg: jpeg('p'), t: 2000 }, answered(4000, { kind: 'moved' })]).state;
		expect(documentTransition(done, { type: 'cancel' })).toEqual({ state: done, commands: [] });
	});

	it('never changes the state it is given', () => {
		// Typed arrays and blobs cannot be frozen, and the machine never writes into them either.
		const deepFreeze = <T>(o: T): T => {
			if (!o || typeof o !== 'object' || ArrayBuffer.isView(o) || o instanceof Blob) return o;
			for (const v of Object.values(o)) deepFreeze(v);
			return Object.freeze(o);
		};
		let state = deepFreeze(scanning(['front', 'back']));
		const events: DocumentEvent[] = [
			...sharp(PASSPORT),
			{ type: 'captured', now: 3000, jpeg: jpeg('f'), t: 2000 },
			tick(3000 + FLIP_PAUSE_MS),
			...sharp(CARD_BACK),
			{ type: 'captured', now: 7000, jpeg: jpeg('b'), t: 6000 },
			answered(8000, refused('typeNotAllowed')),
			tick(8000 + RETRY_PAUSE_MS),
			{ type: 'cancel' }
		];
		for (const e of events) state = deepFreeze(documentTransition(state, e).state);
		expect(state.view.phase).toBe('cancelled');
	});
});

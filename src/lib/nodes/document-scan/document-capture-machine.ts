// One document_scan node on the hosted page as a pure state machine (STYLE.md habit 8), in the manner
// of camera-machine.ts: `documentTransition` says which state follows an event and which commands to
// run. document-capture.svelte.ts owns the camera, the timers and the upload, feeds the machine events
// and runs its commands. Time only comes in with the events (`now`), so a test plays a whole scan,
// pauses and time limit included, without a clock. The camera's own troubles (denied, lost, busy) are
// camera-machine.ts's: this machine only ever hears of frames a live camera gave.
import type { DocumentRetryReason, DocumentSideName } from '#lib/domain/page/document-evidence.schema.ts';
import type { Quad } from '#lib/documents/raster.ts';
import type { DocumentGuidance } from './document-check.ts';
import { scanStep, type FrameLook } from './document-scan-step.ts';
import type { CapturedSide, DocumentUploadAnswer } from './document-upload.ts';

/** Milliseconds to turn the card over (MULTI_SIDE) and to read a refusal before the scan goes on. */
export const FLIP_PAUSE_MS = 2500;
export const RETRY_PAUSE_MS = 3500;

export type DocumentPhase = 'loading' | 'scanning' | 'capturing' | 'flip' | 'uploading' | 'retry' | 'failed' | 'timeout' | 'done' | 'cancelled';

/** What the screen shows (the .svelte file reads this and the time left, nothing else). */
export interface DocumentView {
	phase: DocumentPhase;
	side: DocumentSideName;
	guidance: DocumentGuidance | null;
	/** The document's corners as shares of the frame (for the outline), or null. */
	quad: Quad | null;
	/** Good checks in a row so far, of CAPTURE_AFTER. */
	steady: number;
	/** The server's last refusal; it stays after the pause, for as long as the refused document is in view. */
	retry: { reason: DocumentRetryReason; documentType: string | null; allowed: string[]; triesLeft: number } | null;
	error: string | null;
}

/** What the page measured on the frame that led to a capture (it rides along in the upload's claim). */
export interface CaptureMeasures {
	sharpness: number;
	glare: number;
	coverage: number;
}

export interface DocumentMachineState {
	view: DocumentView;
	timeLeftMs: number;
	/** When the node's time is up, on the clock the events' `now` come from. */
	deadline: number;
	/** When the flip or retry pause ends: the first tick at or after it resumes the scan. */
	resumeAt: number | null;
	/** The sides one try uploads, in order. */
	sides: readonly DocumentSideName[];
	/** The sides captured so far in this try. */
	captured: CapturedSide[];
	measures: CaptureMeasures;
	/**
	 * The signature of the first side captured in this try: the back must look different from it, and
	 * it is the document a refusal for its type is about.
	 */
	firstSignature: Float32Array | null;
	/** A document the server refused for its type: not captured again while it stays in view (scanStep). */
	refusedSignature: Float32Array | null;
}

export type DocumentEvent =
	/** The camera was asked for: the checks begin. */
	| { type: 'start' }
	/** A frame was checked (document-check.ts): its look, its outline as shares of the frame, its measurements. */
	| { type: 'frame'; look: FrameLook; quad: Quad | null; measures: CaptureMeasures }
	/** The capture asked for is encoded (null: the browser could not); `t`: ms since the node opened. */
	| { type: 'captured'; now: number; jpeg: Blob | null; t: number }
	| { type: 'answered'; now: number; answer: DocumentUploadAnswer }
	/** The clock: the countdown and the end of a pause. */
	| { type: 'tick'; now: number }
	/** The user confirmed cancel. */
	| { type: 'cancel' }
	/** The user asked to try again after a failed upload. */
	| { type: 'restart' };

export type DocumentCommand =
	/** Grab a full-resolution frame and encode it; answer with `captured`. */
	| { type: 'capture' }
	/** Upload the sides; answer with `answered`. */
	| { type: 'upload'; sides: CapturedSide[]; measures: CaptureMeasures }
	/** Send a tick at (or after) `at`: a pause ends then. */
	| { type: 'wake'; at: number }
	/** The scan is over: stop the checks, the clock and any wake. */
	| { type: 'stop' }
	/** Tell the server (the node's `timeout` or `cancel` action). */
	| { type: 'report'; action: 'timeout' | 'cancel' };

export interface DocumentStep {
	state: DocumentMachineState;
	commands: DocumentCommand[];
}

/** The machine before the camera is asked for; the countdown runs from the server's time left. */
export function initialDocumentState(options: { sides: readonly DocumentSideName[]; timeLeftMs: number; now: number }): DocumentMachineState {
	return {
		view: { phase: 'loading', side: options.sides[0], guidance: null, quad: null, steady: 0, retry: null, error: null },
		timeLeftMs: options.timeLeftMs,
		deadline: options.now + options.timeLeftMs,
		resumeAt: null,
		sides: options.sides,
		captured: [],
		measures: { sharpness: 0, glare: 0, coverage: 0 },
		firstSignature: null,
		refusedSignature: null
	};
}

/** After these the page does nothing more on this node. */
const isOver = (phase: DocumentPhase) => phase === 'done' || phase === 'timeout' || phase === 'cancelled';

const go = (state: DocumentMachineState, view: Partial<DocumentView>, more: Partial<DocumentMachineState> = {}, commands: DocumentCommand[] = []): DocumentStep => ({
	state: { ...state, ...more, view: { ...state.view, ...view } },
	commands
});

/** The next state and the commands to run for an event; events that make no sense in a state change nothing. */
export function documentTransition(state: DocumentMachineState, event: DocumentEvent): DocumentStep {
	const stay: DocumentStep = { state, commands: [] };
	const { phase } = state.view;
	switch (event.type) {
		case 'start':
			return phase === 'loading' ? go(state, { phase: 'scanning' }) : stay;
		case 'frame':
			return phase === 'scanning' ? checked(state, event) : stay;
		case 'captured':
			return phase === 'capturing' ? captured(state, event) : stay;
		case 'answered':
			return phase === 'uploading' ? answered(state, event) : stay;
		case 'tick':
			return isOver(phase) ? stay : ticked(state, event.now);
		case 'cancel':
			// Again when already cancelled: the first report may not have reached the server.
			return phase === 'done' || phase === 'timeout' ? stay : go(state, { phase: 'cancelled' }, {}, [{ type: 'stop' }, { type: 'report', action: 'cancel' }]);
		case 'restart':
			if (phase !== 'failed') return stay;
			return go(state, { phase: 'scanning', side: state.sides[0], quad: null, steady: 0, error: null }, { captured: [], firstSignature: null, refusedSignature: null });
	}
}

function checked(state: DocumentMachineState, event: Extract<DocumentEvent, { type: 'frame' }>): DocumentStep {
	const { view } = state;
	const step = scanStep({ side: view.side, steady: view.steady, frontSignature: state.firstSignature, refusedSignature: state.refusedSignature }, event.look);
	const seen = { guidance: step.guidance, quad: event.quad, steady: step.steady };
	if (!step.capture) return go(state, seen, { refusedSignature: step.refusedSignature });
	// Only the first side's signature is ever needed (it costs a warp, so the others are not taken).
	const firstSignature = state.captured.length === 0 ? event.look.signature() : state.firstSignature;
	return go(state, { ...seen, phase: 'capturing' }, { refusedSignature: step.refusedSignature, measures: event.measures, firstSignature }, [{ type: 'capture' }]);
}

function captured(state: DocumentMachineState, event: Extract<DocumentEvent, { type: 'captured' }>): DocumentStep {
	if (!event.jpeg) return go(state, { phase: 'scanning', steady: 0 });
	const sides = [...state.captured, { side: state.sides[state.captured.length], jpeg: event.jpeg, t: event.t }];
	if (sides.length < state.sides.length) {
		// A side done: ask for the next, and give the user time to turn the card over.
		const resumeAt = event.now + FLIP_PAUSE_MS;
		return go(state, { phase: 'flip', side: state.sides[sides.length], guidance: null, quad: null, steady: 0 }, { captured: sides, resumeAt }, [{ type: 'wake', at: resumeAt }]);
	}
	return go(state, { phase: 'uploading', guidance: null }, { captured: sides }, [{ type: 'upload', sides, measures: state.measures }]);
}

function answered(state: DocumentMachineState, event: Extract<DocumentEvent, { type: 'answered' }>): DocumentStep {
	const a = event.answer;
	const fresh = { captured: [], firstSignature: null, refusedSignature: a.kind === 'retry' && a.reason === 'typeNotAllowed' ? state.firstSignature : null };
	switch (a.kind) {
		case 'moved':
			return go(state, { phase: 'done' }, fresh, [{ type: 'stop' }]);
		case 'failed':
			return go(state, { phase: 'failed', error: a.error }, fresh);
		case 'retry': {
			const resumeAt = event.now + RETRY_PAUSE_MS;
			const retry = { reason: a.reason, documentType: a.documentType, allowed: a.allowed, triesLeft: a.triesLeft };
			return go(state, { phase: 'retry', side: state.sides[0], quad: null, steady: 0, retry }, { ...fresh, resumeAt }, [{ type: 'wake', at: resumeAt }]);
		}
	}
}

function ticked(state: DocumentMachineState, now: number): DocumentStep {
	const timeLeftMs = Math.max(0, state.deadline - now);
	const { phase } = state.view;
	const resume = state.resumeAt !== null && now >= state.resumeAt && (phase === 'flip' || phase === 'retry');
	const next = resume ? go(state, { phase: 'scanning' }, { timeLeftMs, resumeAt: null }).state : { ...state, timeLeftMs };
	// An upload under way is judged by the server against its own clock.
	if (timeLeftMs > 0 || next.view.phase === 'uploading') return { state: next, commands: [] };
	return go(next, { phase: 'timeout', guidance: null, quad: null }, {}, [{ type: 'stop' }, { type: 'report', action: 'timeout' }]);
}

// What one frame check means for the scan, as a pure step: the guidance line, the good frames in a
// row, and whether to capture now. It knows nothing of time, so what the user is told depends on what
// the camera shows, never on how many frames a slow phone manages to check a second.
import { SAME_SIDE_MAX, signatureDistance, type DocumentGuidance } from './document-check.ts';
import type { DocumentSideName } from '#lib/domain/page/document-evidence.schema.ts';

/** Good checks in a row before capturing. */
export const CAPTURE_AFTER = 2;

export interface ScanMemory {
	side: DocumentSideName;
	/** Good checks in a row so far. */
	steady: number;
	/** MULTI_SIDE, back side: the captured front's signature (the back must look different). */
	frontSignature: Float32Array | null;
	/**
	 * A document the server refused for its type. Until a different document is seen clearly, the
	 * refusal is what the page says: whether the refused one stays in view, is moved, blurs, or leaves
	 * the frame, there is nothing else useful to tell the user.
	 */
	refusedSignature: Float32Array | null;
}

/** One frame check as the step needs it; the signature is only computed when it is needed. */
export interface FrameLook {
	good: boolean;
	guidance: DocumentGuidance;
	signature: () => Float32Array | null;
}

export interface ScanStep {
	guidance: DocumentGuidance;
	steady: number;
	capture: boolean;
	/** The frame counted as good (after the same-side and refused-document checks). */
	good: boolean;
	refusedSignature: Float32Array | null;
}

export function scanStep(memory: ScanMemory, look: FrameLook): ScanStep {
	let good = look.good;
	let guidance = look.guidance;
	let refused = memory.refusedSignature;
	if (good && memory.side === 'back' && memory.frontSignature) {
		const sig = look.signature();
		if (!sig || signatureDistance(sig, memory.frontSignature) < SAME_SIDE_MAX) {
			good = false;
			guidance = 'flip';
		}
	}
	if (refused && memory.side === 'front') {
		const sig = good ? look.signature() : null;
		if (sig && signatureDistance(sig, refused) >= SAME_SIDE_MAX) refused = null;
		else {
			good = false;
			guidance = 'otherDocument';
		}
	}
	const steady = good ? memory.steady + 1 : 0;
	const capture = steady >= CAPTURE_AFTER;
	return { guidance: capture ? 'capturing' : guidance, steady, capture, good, refusedSignature: refused };
}

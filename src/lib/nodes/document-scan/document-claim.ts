// What the page measured while scanning, sent with the upload as the claim. The server never acts on
// it; the node report keeps it and the bench reads it.
import type { DocumentClaim } from '#lib/domain/page/document-evidence.schema.ts';
import type { CaptureMeasures } from './document-capture-machine.ts';

/** The camera facts the claim carries (the camera controller's info). */
export interface ClaimCamera {
	label: string;
	width: number;
	height: number;
	facingMode: string | null;
}

/** Counts over the node's whole life (every try), as the page always sent them. */
export class ScanStats {
	#checks = 0;
	#checkMs = 0;
	#firstSeenAt: number | null = null;
	#captureMs = 0;
	#encodeMs = 0;

	/** A frame was checked in `ms`; `found`: a document was in it, at `now`. */
	checked(ms: number, found: boolean, now: number): void {
		this.#checks++;
		this.#checkMs += ms;
		if (found && this.#firstSeenAt === null) this.#firstSeenAt = now;
	}

	/** A capture was drawn and encoded. */
	captured(drawMs: number, encodeMs: number): void {
		this.#captureMs += drawMs;
		this.#encodeMs += encodeMs;
	}

	claim(last: CaptureMeasures, at: { now: number; openedAt: number; camera: ClaimCamera | null; torch: boolean }): DocumentClaim {
		const { now, camera } = at;
		return {
			sharpness: Math.round(last.sharpness),
			glare: Number(last.glare.toFixed(4)),
			coverage: Number(last.coverage.toFixed(3)),
			framesSeen: this.#checks,
			durationMs: Math.round(now - at.openedAt),
			timings: {
				check: Number((this.#checkMs / Math.max(1, this.#checks)).toFixed(1)),
				capture: Number(this.#captureMs.toFixed(1)),
				encode: Number(this.#encodeMs.toFixed(1)),
				...(this.#firstSeenAt !== null ? { firstSeenToCapture: Math.round(now - this.#firstSeenAt) } : {})
			},
			...(camera ? { camera: { label: camera.label.slice(0, 256), width: camera.width, height: camera.height, ...(camera.facingMode ? { facingMode: camera.facingMode } : {}), torch: at.torch } } : {})
		};
	}
}

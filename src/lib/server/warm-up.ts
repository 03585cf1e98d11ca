// Loading the models in the background at start (WARM_MODELS), so the first user's document or face
// is read at the normal speed instead of waiting for model loading.
import { getFaceEngine } from './biometrics/face-engine.ts';
import { prepareBarcodeReader } from './documents/barcode-reader.ts';
import { sharedDocumentReader } from './documents/document-reader.service.ts';
import { measureLoopHold, yieldToRequests } from './event-loop.ts';
import { logger } from './logger.ts';

export interface WarmStep {
	name: string;
	/**
	 * Loads one part through its process-wide getter: a request that needs the part while it loads
	 * awaits the very same promise, so nothing is ever loaded twice.
	 */
	load: () => Promise<unknown>;
}

/**
 * What a user waits for, in the order a flow usually needs it: the document reader (OCR detection +
 * recognition and the portrait finder), the barcode reader's wasm, the face engine (detector,
 * landmarks, embedding, liveness). Not the age/sex estimator: loading TensorFlow.js holds the event
 * loop for 0.5–0.7 s in one piece (a synchronous require), and only the report's analysis after a
 * session uses it, where nobody waits on a screen.
 */
export const WARM_STEPS: readonly WarmStep[] = [
	{ name: 'document reader', load: sharedDocumentReader },
	{ name: 'barcode reader', load: prepareBarcodeReader },
	{ name: 'face engine', load: getFaceEngine }
];

export interface WarmReport {
	steps: { name: string; ms: number; ok: boolean }[];
	ms: number;
	/** The longest the event loop was held during the warm-up (ms): how long a request could have waited. */
	maxHoldMs: number;
}

/**
 * Loads the steps one after the other, yielding to requests between them (and between the models
 * of a step, event-loop.ts), so the server answers from the start: a request arriving meanwhile
 * waits for one model's creation at most. A failing step is logged and skipped: its first use
 * tries again.
 */
export async function warmModels(steps: readonly WarmStep[] = WARM_STEPS): Promise<WarmReport> {
	const started = performance.now();
	const report: WarmReport = { steps: [], ms: 0, maxHoldMs: 0 };
	const { maxHoldMs } = await measureLoopHold(() => runSteps(steps, report));
	report.ms = Math.round(performance.now() - started);
	report.maxHoldMs = maxHoldMs;
	logger.info({ ms: report.ms, maxHoldMs, steps: Object.fromEntries(report.steps.map((s) => [s.name, s.ok ? s.ms : 'failed'])) }, 'models warmed');
	return report;
}

async function runSteps(steps: readonly WarmStep[], report: WarmReport): Promise<void> {
	for (const step of steps) {
		await yieldToRequests();
		const t = performance.now();
		let ok = true;
		try {
			await step.load();
		} catch (err) {
			ok = false;
			logger.warn({ err, step: step.name }, 'could not load a model at start; its first use will try again');
		}
		report.steps.push({ name: step.name, ms: Math.round(performance.now() - t), ok });
	}
}

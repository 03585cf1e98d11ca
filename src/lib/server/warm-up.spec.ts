import { describe, expect, it } from 'vitest';
import { getFaceEngine } from './biometrics/face-engine.ts';
import { sharedDocumentReader } from './documents/document-reader.service.ts';
import { WARM_STEPS, warmModels, type WarmStep } from './warm-up.ts';

describe('warming the models at start', () => {
	it('yields to pending requests between steps and goes on past a step that fails', async () => {
		const order: string[] = [];
		const step = (name: string, fail = false): WarmStep => ({
			name,
			load: async () => {
				order.push(name);
				// Something queued while this step ran (a request arriving) must run before the next step.
				setImmediate(() => order.push(`request after ${name}`));
				if (fail) throw new Error('no model');
			}
		});
		const report = await warmModels([step('a'), step('b', true), step('c')]);
		expect(order).toEqual(['a', 'request after a', 'b', 'request after b', 'c']);
		expect(report.steps.map((s) => [s.name, s.ok])).toEqual([
			['a', true],
			['b', false],
			['c', true]
		]);
	});

	it('loads through the shared getters, so a request during the warm-up gets the same reader and engine', async () => {
		const warming = warmModels(WARM_STEPS.slice(0, 3));
		// A read arriving mid-warm-up awaits the promise the warm-up started: one load, one reader.
		const duringReader = sharedDocumentReader();
		const report = await warming;
		expect(report.steps.every((s) => s.ok)).toBe(true);
		// Yielding between models: the loop was held for one model's creation, not for the whole warm-up.
		expect(report.maxHoldMs).toBeLessThan(report.ms * 0.8);
		expect(report.steps.map((s) => s.name)).toEqual(['document reader', 'barcode reader', 'face engine']);
		expect(await duringReader).toBe(await sharedDocumentReader());
		const engine = await getFaceEngine();
		expect(engine).toBe(await getFaceEngine());
		// The engine is usable straight away (the models are in memory): a blank frame has no face.
		const blank = { width: 320, height: 240, data: new Uint8ClampedArray(320 * 240 * 4).fill(128) };
		expect(await engine.exclusive((p) => p.detect(blank))).toEqual([]);
	});
});

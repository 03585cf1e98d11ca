import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FaceEngine } from '../../biometrics/face-engine.ts';
import { createAgeSexEstimator } from '../../biometrics/age-sex-estimator.ts';
import { analyseFaceScreenshots, composeAiAnalysis, findingFromReports, type ScreenshotFace } from './face-ai-analysis.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../../tests/fixtures/faces/${name}`, import.meta.url)));
const CAPTURE = [{ type: 'face_scan', outcome: 'passed' }];
const shot = (over: Partial<ScreenshotFace> = {}): ScreenshotFace => ({ faces: 1, liveness: 0.95, embedding: new Float32Array([1, 0, 0]), ...over });

describe('composeAiAnalysis', () => {
	it('says real for a live face seen throughout, and leaves age and sex out without a model', () => {
		const a = composeAiAnalysis([shot(), shot()], [{ type: 'liveness_detection', outcome: 'livenessDetected' }])!;
		expect(a.realPersonOrVirtual).toBe('real');
		expect(a).not.toHaveProperty('ageMin');
		expect(a).not.toHaveProperty('sex');
		expect(a.overallSummary).toBe('A live person was seen, the same person throughout.');
		expect(a.analysis!.map((i) => i.title)).toEqual(['Face presence', 'Liveness', 'Same person throughout', 'Age and sex']);
	});

	it('says virtual after a deepfake verdict, low passive liveness, or different people', () => {
		expect(composeAiAnalysis([shot()], [{ type: 'liveness_detection', outcome: 'deepfakeDetected' }])!.realPersonOrVirtual).toBe('virtual');
		expect(composeAiAnalysis([shot({ liveness: 0.05 })], CAPTURE)!.realPersonOrVirtual).toBe('virtual');
		expect(composeAiAnalysis([shot(), shot({ embedding: new Float32Array([0, 1, 0]) })], CAPTURE)!.realPersonOrVirtual).toBe('virtual');
	});

	it('says noface when nothing showed a face, and nothing at all without face steps', () => {
		expect(composeAiAnalysis([shot()], [])).toBeNull();
		expect(composeAiAnalysis([shot({ faces: 0, liveness: null, embedding: null })], [{ type: 'liveness_detection', outcome: 'noFace', details: { framesWithFace: 0 } }])!.realPersonOrVirtual).toBe('noface');
		expect(composeAiAnalysis([], [{ type: 'enter_email', outcome: 'emailEntered' }])).toBeNull();
	});

	it('reports the age range, and sex only from a confident estimate, on a real person only', () => {
		const finding = { age: 40, ageMin: 25, ageMax: 59, sex: 'female' as const, sexProbability: 0.97 };
		const real = composeAiAnalysis([shot()], CAPTURE, finding)!;
		expect(real).toMatchObject({ ageMin: 25, ageMax: 59, sex: 'female' });
		expect(real.analysis!.find((i) => i.title === 'Age and sex')!.shortDescription).toBe('Estimated age 25–59, sex female.');
		const unsure = composeAiAnalysis([shot()], CAPTURE, { ...finding, sex: undefined, sexProbability: 0.6 })!;
		expect(unsure).toMatchObject({ ageMin: 25, ageMax: 59 });
		expect(unsure).not.toHaveProperty('sex');
		const replay = composeAiAnalysis([shot({ liveness: 0.05 })], CAPTURE, finding)!;
		expect(replay).not.toHaveProperty('ageMin');
		expect(replay).not.toHaveProperty('sex');
	});

	it('reuses the estimate a face node made during the session', () => {
		const stored = { age: 52.3, ageMin: 37, ageMax: 71, sex: 'male', sexProbability: 0.95 };
		expect(findingFromReports([{ type: 'face_scan', outcome: 'passed', details: { ageEstimate: stored } }])).toEqual(stored);
		expect(findingFromReports([{ type: 'face_scan', outcome: 'passed', details: { ageEstimate: { unavailable: 'the age model is not installed' } } }])).toBeNull();
	});
});

describe('analyseFaceScreenshots on the fixture photos', () => {
	let engine: FaceEngine;
	beforeAll(async () => {
		engine = await FaceEngine.create();
	});

	it('measures the screenshots with the server models', async () => {
		const same = await analyseFaceScreenshots({ images: [fixture('barack_obama_1.jpg'), fixture('barack_obama_2.jpg')], reports: CAPTURE, engine });
		expect(same!.realPersonOrVirtual).toBe('real');
		const replay = await analyseFaceScreenshots({ images: [fixture('spoof_screen_minivision_1.jpg')], reports: CAPTURE, engine });
		expect(replay!.realPersonOrVirtual).toBe('virtual');
		const empty = await analyseFaceScreenshots({ images: [fixture('no_face_coffee.jpg')], reports: CAPTURE, engine });
		expect(empty!.realPersonOrVirtual).toBe('noface');
		const two = await analyseFaceScreenshots({ images: [fixture('barack_obama_1.jpg'), fixture('joe_biden_2_800w.jpg')], reports: CAPTURE, engine });
		expect(two!.realPersonOrVirtual).toBe('virtual');
		expect(two!.analysis!.find((i) => i.title === 'Same person throughout')!.shortDescription).toBe('Different people appear in the screenshots.');
	});

	it('estimates age and sex once, on the largest single face, with the real model', async () => {
		const estimator = await createAgeSexEstimator();
		let runs = 0;
		const counted = { estimate: (...args: Parameters<typeof estimator.estimate>) => (runs++, estimator.estimate(...args)) };
		// Barack Obama at 51 (2012): the model reads about 43, so the range must hold 51.
		const a = await analyseFaceScreenshots({ images: [fixture('barack_obama_1.jpg'), fixture('barack_obama_2.jpg')], reports: CAPTURE, engine, ageSex: async () => counted });
		expect(runs).toBe(1);
		expect(a!.ageMin!).toBeLessThanOrEqual(51);
		expect(a!.ageMax!).toBeGreaterThanOrEqual(51);
		expect(a!.ageMax! - a!.ageMin!).toBeGreaterThan(30);
		expect(a!.sex).toBe('male');
		// Without an estimator the fields stay out.
		const none = await analyseFaceScreenshots({ images: [fixture('barack_obama_1.jpg')], reports: CAPTURE, engine, ageSex: async () => null });
		expect(none).not.toHaveProperty('ageMin');
		expect(none).not.toHaveProperty('sex');
	}, 60_000);
});

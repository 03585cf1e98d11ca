import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FaceEngine } from '../../biometrics/face-engine.ts';
import { analyseFaceScreenshots, composeAiAnalysis, type ScreenshotFace } from './face-ai-analysis.ts';

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

	it('reports sex only from a confident estimate on a real person', () => {
		expect(composeAiAnalysis([shot()], CAPTURE, { sex: 'female', probability: 0.97 })!.sex).toBe('female');
		expect(composeAiAnalysis([shot()], CAPTURE, { sex: 'female', probability: 0.6 })!.sex).toBeUndefined();
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
});

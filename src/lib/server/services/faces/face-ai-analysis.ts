// `aiAnalysis` of a session's report, from its face screenshots and the face nodes' server verdicts.
// Fields without a model good enough behind them are omitted, never guessed:
// - age (ageMin/ageMax): face-api's AgeGenderNet, the best candidate measured, is off by 6–8 years on
//   average on the fixtures and read a 10-year-old as 25 (bench/results/age-sex-eval.md): not shipped;
// - sex: right on 8 of 9 fixture faces (15/15 on the larger set), but only through TensorFlow.js
//   (~300 MB of node_modules at run time); left out of the default build. A caller may pass an
//   estimator (scripts/eval/age-sex-estimator.ts fits) and then `sex` is filled when it is confident.
import type { SessionReport } from '#lib/domain/session/session.schema.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import { MATCH_THRESHOLD } from '#lib/domain/face/thresholds.ts';
import { LIVENESS_THRESHOLD } from '#lib/face/face-thresholds.ts';
import type { FaceEngine } from '../../biometrics/face-engine.ts';
import type { MediaRecord } from '../../repositories/media.repository.ts';

export type AiAnalysis = NonNullable<SessionReport['aiAnalysis']>;

export interface FaceNodeOutcome {
	nodeId?: string;
	type: string;
	outcome: string;
	details?: Record<string, unknown> | null;
}

/** Optional sex estimate (see the file comment); `probability` 0.5–1. */
export interface SexEstimator {
	estimate(image: Uint8Array): Promise<{ sex: 'male' | 'female'; probability: number } | null>;
}

export interface ScreenshotFace {
	faces: number;
	liveness: number | null;
	embedding: Float32Array | null;
}

const FACE_TYPES = new Set(['liveness_detection', 'face_scan', 'face_compare', 'recognition']);
/** A sex estimate is reported only at or above this probability, and only when all screenshots agree. */
const SEX_MIN_PROBABILITY = 0.85;

/** Measures every screenshot with the server's models. */
export async function measureScreenshots(engine: FaceEngine, images: readonly Uint8Array[]): Promise<ScreenshotFace[]> {
	const out: ScreenshotFace[] = [];
	for (const bytes of images) {
		try {
			const { faces } = await engine.analyseBytes(bytes, { maxFaces: 1 });
			const all = (await engine.analyseBytes(bytes, { embed: false, liveness: false })).faces.length;
			out.push({ faces: all, liveness: faces[0]?.liveness ?? null, embedding: faces[0]?.embedding ?? null });
		} catch {
			out.push({ faces: 0, liveness: null, embedding: null });
		}
	}
	return out;
}

const item = (title: string, shortDescription: string, longDescription: string) => ({ title, shortDescription, longDescription });

/**
 * Writes the analysis from what was measured: presence and liveness decide `realPersonOrVirtual`
 * (noface / virtual / real), and each finding becomes an `analysis` item. Pure: no models here.
 * Returns null when the session walked no face node (its screenshots, if any, are not face steps').
 */
export function composeAiAnalysis(shots: readonly ScreenshotFace[], reports: readonly FaceNodeOutcome[], sex?: { sex: 'male' | 'female'; probability: number } | null): AiAnalysis | null {
	const faceReports = reports.filter((r) => FACE_TYPES.has(r.type));
	if (!faceReports.length) return null;
	const analysis: AiAnalysis['analysis'] = [];
	const withFace = shots.filter((s) => s.faces > 0);
	const scores = shots.flatMap((s) => (s.liveness !== null ? [s.liveness] : []));
	const median = scores.length ? [...scores].sort((a, b) => a - b)[(scores.length - 1) >> 1] : null;
	const spoofVerdicts = faceReports.filter((r) => r.outcome === 'deepfakeDetected' || (r.details as { reason?: string } | undefined)?.reason === 'injection' || r.details?.livenessDetected === false);
	const liveVerdicts = faceReports.filter((r) => r.outcome === 'livenessDetected' || r.details?.livenessDetected === true);
	const injection = faceReports.flatMap((r) => ((r.details?.injection as { signals?: string[] } | undefined)?.signals ?? []));

	let verdict: AiAnalysis['realPersonOrVirtual'];
	if (!withFace.length && !faceReports.some((r) => (r.details?.framesWithFace as number | undefined) ?? 0)) verdict = 'noface';
	else if (spoofVerdicts.length || (median !== null && median < LIVENESS_THRESHOLD)) verdict = 'virtual';
	else verdict = 'real';

	analysis.push(
		withFace.length
			? item('Face presence', `A face was seen in ${withFace.length} of ${shots.length} screenshots.`, `The server's face detector found a face in ${withFace.length} of the ${shots.length} screenshots kept from the face steps${shots.some((s) => s.faces > 1) ? '; some screenshots showed more than one face' : ''}.`)
			: item('Face presence', 'No face was seen.', 'The server\'s face detector found no face in the screenshots kept from the face steps.')
	);
	if (median !== null || liveVerdicts.length || spoofVerdicts.length) {
		const passive = median !== null ? `Passive liveness on the screenshots: median live probability ${median.toFixed(2)} (threshold ${LIVENESS_THRESHOLD}).` : '';
		const nodes = [liveVerdicts.length ? `${liveVerdicts.length} face step(s) confirmed a live person (passive liveness and the movement asked for)` : '', spoofVerdicts.length ? `${spoofVerdicts.length} face step(s) found signs of a presentation or injection attack` : ''].filter(Boolean).join('; ');
		analysis.push(item('Liveness', verdict === 'virtual' ? 'Signs that the face was not a live person in front of the camera.' : 'The face behaved like a live person in front of the camera.', [passive, nodes ? `${nodes}.` : ''].filter(Boolean).join(' ')));
	}
	const embedded = shots.filter((s) => s.embedding);
	if (embedded.length >= 2) {
		let min = 1;
		for (let i = 0; i < embedded.length; i++) for (let j = i + 1; j < embedded.length; j++) min = Math.min(min, cosineSimilarity(embedded[i].embedding!, embedded[j].embedding!));
		const same = min >= MATCH_THRESHOLD;
		analysis.push(item('Same person throughout', same ? 'The same person appears in every screenshot.' : 'Different people appear in the screenshots.', `Lowest face similarity between two screenshots: ${min.toFixed(2)} (the same person scores ${MATCH_THRESHOLD} or more).`));
		if (!same && verdict === 'real') verdict = 'virtual';
	}
	if (injection.length) {
		const unique = [...new Set(injection)];
		analysis.push(item('Camera signals', 'The camera showed signs of not being a physical camera.', `Signals recorded by the face steps: ${unique.join(', ')}. In sandbox sessions they are recorded without deciding anything (test cameras trip them).`));
	}
	const out: AiAnalysis = { realPersonOrVirtual: verdict, analysis };
	if (sex && sex.probability >= SEX_MIN_PROBABILITY && verdict === 'real') out.sex = sex.sex;
	analysis.push(item('Age and sex', out.sex ? `Estimated sex: ${out.sex}. Age is not estimated.` : 'Not estimated.', out.sex ? `Sex estimated with probability ${sex!.probability.toFixed(2)}. No age model measured well enough to report one.` : 'No age or sex model measured well enough on the test faces to report either; these fields are left out rather than guessed.'));
	out.overallSummary =
		verdict === 'noface'
			? 'No face was seen during the face steps.'
			: verdict === 'virtual'
				? 'A face was seen, but the checks suggest it was not a live person in front of a real camera.'
				: `A live person was seen${embedded.length >= 2 ? ', the same person throughout' : ''}.`;
	return out;
}

/** The whole analysis: measure the screenshots, then compose. */
export async function analyseFaceScreenshots(input: { images: readonly Uint8Array[]; reports: readonly FaceNodeOutcome[]; engine: FaceEngine; sex?: SexEstimator }): Promise<AiAnalysis | null> {
	const shots = await measureScreenshots(input.engine, input.images);
	let sex: { sex: 'male' | 'female'; probability: number } | null = null;
	if (input.sex && shots.some((s) => s.faces === 1)) {
		const estimates = (await Promise.all(input.images.map((i) => input.sex!.estimate(i)))).filter((e): e is NonNullable<typeof e> => !!e);
		if (estimates.length && estimates.every((e) => e.sex === estimates[0].sex)) sex = { sex: estimates[0].sex, probability: Math.min(...estimates.map((e) => e.probability)) };
	}
	return composeAiAnalysis(shots, input.reports, sex);
}

/**
 * The post-session ScreenshotAnalyzer of issue 4 (PostSessionService's `screenshotAnalyzer`), shaped to
 * its interface: reads the screenshot streams and the session's node reports, then analyses.
 */
export function faceScreenshotAnalyzer(deps: { engine: () => Promise<FaceEngine>; nodeReports: (sessionId: string) => Promise<FaceNodeOutcome[]>; sex?: SexEstimator }) {
	return {
		async analyse(input: { session: { id: string }; screenshots: readonly MediaRecord[]; open: (m: MediaRecord) => Promise<ReadableStream<Uint8Array> | null> }): Promise<AiAnalysis | null> {
			const images: Uint8Array[] = [];
			for (const m of input.screenshots) {
				// Screenshots only: user photos are tight aligned crops (passive liveness needs the context).
				if (m.kind !== 'screenshot') continue;
				const stream = await input.open(m);
				if (stream) images.push(new Uint8Array(await new Response(stream).arrayBuffer()));
			}
			return analyseFaceScreenshots({ images, reports: await deps.nodeReports(input.session.id), engine: await deps.engine(), sex: deps.sex });
		}
	};
}

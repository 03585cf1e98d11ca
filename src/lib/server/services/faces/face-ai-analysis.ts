// `aiAnalysis` of a session's report, from its face screenshots and the face nodes' server verdicts.
// Age and sex come from face-api's AgeGenderNet (biometrics/age-sex-estimator.ts), only for a live
// person, as a range widened by the measured error and a sex only above a measured confidence
// (age-sex-report.ts). Without the estimator (its packages not installed) they are omitted, never guessed.
import type { SessionReport } from '#lib/domain/session/session.schema.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import { MATCH_THRESHOLD } from '#lib/domain/face/thresholds.ts';
import { LIVENESS_THRESHOLD } from '#lib/face/face-thresholds.ts';
import type { Box } from '#lib/face/image.ts';
import { z } from 'zod';
import type { AgeSexEstimator } from '../../biometrics/age-sex-estimator.ts';
import type { FaceEngine } from '../../biometrics/face-engine.ts';
import type { DecodedImage } from '../../biometrics/image-decode.ts';
import type { MediaRecord } from '../../repositories/media.repository.ts';
import { ageSexFinding, type AgeSexFinding } from './age-sex-report.ts';

export type AiAnalysis = NonNullable<SessionReport['aiAnalysis']>;

export interface FaceNodeOutcome {
	nodeId?: string;
	type: string;
	outcome: string;
	details?: Record<string, unknown> | null;
}

export interface ScreenshotFace {
	faces: number;
	liveness: number | null;
	embedding: Float32Array | null;
	/** The measured face's box and its decoded image (what an age estimate needs), when one was found. */
	box?: Box | null;
	image?: DecodedImage | null;
}

const FACE_TYPES = new Set(['liveness_detection', 'face_scan', 'face_compare', 'recognition']);

/** Measures every screenshot with the server's models. */
export async function measureScreenshots(engine: FaceEngine, images: readonly Uint8Array[]): Promise<ScreenshotFace[]> {
	const out: ScreenshotFace[] = [];
	for (const bytes of images) {
		try {
			const { image, faces } = await engine.analyseBytes(bytes, { maxFaces: 1 });
			const all = (await engine.analyseBytes(bytes, { embed: false, liveness: false })).faces.length;
			out.push({ faces: all, liveness: faces[0]?.liveness ?? null, embedding: faces[0]?.embedding ?? null, box: faces[0]?.box ?? null, image: faces[0] ? image : null });
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
export function composeAiAnalysis(shots: readonly ScreenshotFace[], reports: readonly FaceNodeOutcome[], ageSex?: AgeSexFinding | null): AiAnalysis | null {
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
	// Only for a live person: the age of a photo held up to the camera is not the user's.
	if (ageSex && verdict === 'real') {
		out.ageMin = ageSex.ageMin;
		out.ageMax = ageSex.ageMax;
		if (ageSex.sex) out.sex = ageSex.sex;
		analysis.push(
			item(
				'Age and sex',
				`Estimated age ${ageSex.ageMin}–${ageSex.ageMax}${ageSex.sex ? `, sex ${ageSex.sex}` : ''}.`,
				`The age model read ${ageSex.age} years; the range is that reading widened by the largest errors it made on labelled faces (it held for all of them, a small set). ${ageSex.sex ? `Sex estimated with probability ${ageSex.sexProbability.toFixed(2)}.` : `Sex is left out: the model's probability ${ageSex.sexProbability.toFixed(2)} is below the threshold it needs to be trusted.`}`
			)
		);
	} else {
		analysis.push(item('Age and sex', 'Not estimated.', verdict !== 'real' ? 'Age and sex are estimated only for a live person seen alone in the screenshots.' : 'No age and sex estimate could be made from the face steps (no screenshot showed a single face, or the age model is not installed); these fields are left out rather than guessed.'));
	}
	out.overallSummary =
		verdict === 'noface'
			? 'No face was seen during the face steps.'
			: verdict === 'virtual'
				? 'A face was seen, but the checks suggest it was not a live person in front of a real camera.'
				: `A live person was seen${embedded.length >= 2 ? ', the same person throughout' : ''}.`;
	return out;
}

/** What a face node's report holds of the estimate made during the session (`details.ageEstimate`). */
const storedFindingSchema = z.object({ age: z.number(), ageMin: z.int(), ageMax: z.int(), sex: z.enum(['male', 'female']).optional(), sexProbability: z.number() });

/** The estimate a face node already made during the session (the legacy ageEstimation check), if any. */
export function findingFromReports(reports: readonly FaceNodeOutcome[]): AgeSexFinding | null {
	for (const r of reports) {
		const stored = storedFindingSchema.safeParse(r.details?.ageEstimate);
		if (stored.success) return stored.data;
	}
	return null;
}

/**
 * The whole analysis: measure the screenshots, then compose. The age and sex estimate reuses the one
 * a face node made during the session, else runs once, on the screenshot with the largest single face
 * (one estimate per session keeps the cost of the report at one model run: README).
 */
export async function analyseFaceScreenshots(input: { images: readonly Uint8Array[]; reports: readonly FaceNodeOutcome[]; engine: FaceEngine; ageSex?: () => Promise<AgeSexEstimator | null> }): Promise<AiAnalysis | null> {
	const shots = await measureScreenshots(input.engine, input.images);
	let finding = findingFromReports(input.reports);
	const single = shots.filter((s) => s.faces === 1 && s.box && s.image);
	if (!finding && input.ageSex && single.length) {
		const estimator = await input.ageSex();
		const subject = single.reduce((a, b) => (b.box!.width > a.box!.width ? b : a));
		if (estimator) finding = ageSexFinding(await estimator.estimate(subject.image!, subject.box!));
	}
	return composeAiAnalysis(shots, input.reports, finding);
}

/**
 * The post-session ScreenshotAnalyzer of issue 4 (PostSessionService's `screenshotAnalyzer`), shaped to
 * its interface: reads the screenshot streams and the session's node reports, then analyses.
 */
export function faceScreenshotAnalyzer(deps: { engine: () => Promise<FaceEngine>; nodeReports: (sessionId: string) => Promise<FaceNodeOutcome[]>; ageSex?: () => Promise<AgeSexEstimator | null> }) {
	return {
		async analyse(input: { session: { id: string }; screenshots: readonly MediaRecord[]; open: (m: MediaRecord) => Promise<ReadableStream<Uint8Array> | null> }): Promise<AiAnalysis | null> {
			const images: Uint8Array[] = [];
			for (const m of input.screenshots) {
				// Screenshots only: user photos are tight aligned crops (passive liveness needs the context).
				if (m.kind !== 'screenshot') continue;
				const stream = await input.open(m);
				if (stream) images.push(new Uint8Array(await new Response(stream).arrayBuffer()));
			}
			return analyseFaceScreenshots({ images, reports: await deps.nodeReports(input.session.id), engine: await deps.engine(), ageSex: deps.ageSex });
		}
	};
}

// `npm run bench age-sex`: what the age and sex estimate adds to a session's report, on this machine.
// The post-session analysis of two face screenshots (decode, detection, landmarks, liveness, embedding)
// is timed with and without the estimate, alternating in the same run, so the difference and the ratio
// are measured against their own peer under the same load. The estimator is loaded before timing
// (its ≈2 s load happens once per process, lazily, on the first session that needs it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAgeSexEstimator } from '../src/lib/server/biometrics/age-sex-estimator.ts';
import { FaceEngine } from '../src/lib/server/biometrics/face-engine.ts';
import { decodeImage } from '../src/lib/server/biometrics/image-decode.ts';
import { analyseFaceScreenshots } from '../src/lib/server/services/faces/face-ai-analysis.ts';

const ROOT = join(import.meta.dirname, '..');
const shot = (name: string) => new Uint8Array(readFileSync(join(ROOT, 'tests/fixtures/faces', name)));
const images = [shot('barack_obama_1.jpg'), shot('barack_obama_2.jpg')];
const reports = [{ type: 'face_scan', outcome: 'passed' }];
const engine = await FaceEngine.create();
const t0 = performance.now();
const estimator = await createAgeSexEstimator();
const loadMs = performance.now() - t0;
const ageSex = async () => estimator;

// The estimate alone, on the face the analysis would pick.
const image = await decodeImage(images[0]);
const [face] = await engine.exclusive((p) => p.analyse(image, { maxFaces: 1, embed: false, liveness: false }));

const RUNS = Number(process.env.RUNS ?? 15);
const without: number[] = [];
const withAge: number[] = [];
const estimateOnly: number[] = [];
const embedOnly: number[] = [];
for (let i = 0; i < 2; i++) await analyseFaceScreenshots({ images, reports, engine, ageSex }); // warm-up
for (let i = 0; i < RUNS; i++) {
	let t = performance.now();
	await analyseFaceScreenshots({ images, reports, engine });
	without.push(performance.now() - t);
	t = performance.now();
	await analyseFaceScreenshots({ images, reports, engine, ageSex });
	withAge.push(performance.now() - t);
	t = performance.now();
	await estimator.estimate(image, face.box);
	estimateOnly.push(performance.now() - t);
	t = performance.now();
	await engine.exclusive((p) => p.embed(image, face.landmarks5));
	embedOnly.push(performance.now() - t);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const [a, b, e, f] = [median(without), median(withAge), median(estimateOnly), median(embedOnly)];
const md = `# Age and sex estimate: cost per session

Post-session analysis of 2 face screenshots (fixtures, ${image.width}×${image.height}), median of ${RUNS} alternating runs.

| | median ms | ratio to the analysis without it |
|---|---|---|
| aiAnalysis without age and sex | ${a.toFixed(1)} | 1.00 |
| aiAnalysis with age and sex (one estimate) | ${b.toFixed(1)} | ${(b / a).toFixed(2)} |
| added per session | ${(b - a).toFixed(1)} | ${((b - a) / a).toFixed(2)} |
| the estimate alone (crop + AgeGenderNet, tfjs-wasm) | ${e.toFixed(1)} | ${(e / a).toFixed(2)} |
| peer: one face embedding (fr_feature, onnxruntime-node) | ${f.toFixed(1)} | ${(f / a).toFixed(2)} |
| the estimate ÷ one embedding | ${(e / f).toFixed(2)} | |
| estimator load, once per process | ${loadMs.toFixed(0)} | |
`;
process.stdout.write(md);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/age-sex.md'), md);

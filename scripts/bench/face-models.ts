// Median latency of each face model in onnxruntime-node (inference only, fixed input), and of each
// pipeline step with its pre- and post-processing. Run: npx tsx scripts/bench/face-models.ts [threads]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { FaceEngine, faceModelDir } from '../../src/lib/server/biometrics/face-engine.ts';
import { decodeImage } from '../../src/lib/server/biometrics/image-decode.ts';
import { fivePoints } from '../../src/lib/face/landmarks.ts';

const threads = Number(process.argv[2] ?? 1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
async function time(run: () => Promise<unknown>, n = 30) {
	for (let i = 0; i < 5; i++) await run();
	const ts: number[] = [];
	for (let i = 0; i < n; i++) {
		const t = performance.now();
		await run();
		ts.push(performance.now() - t);
	}
	return median(ts);
}
console.log(`threads ${threads}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const models: Array<[string, number[]]> = [
	['fr_detect', [1, 3, 240, 320]],
	['fr_landmark', [1, 1, 64, 64]],
	['fr_feature', [1, 3, 112, 112]],
	['fr_liveness', [1, 3, 128, 128]]
];
for (const [name, dims] of models) {
	const input = new ort.Tensor('float32', new Float32Array(dims.reduce((a, b) => a * b)).map(() => Math.random() - 0.5), dims);
	const row = [name.padEnd(12)];
	for (const level of ['extended', 'all'] as const) {
		const session = await ort.InferenceSession.create(join(faceModelDir(), `${name}.onnx`), { intraOpNumThreads: threads, graphOptimizationLevel: level });
		row.push(`${level} ${(await time(() => session.run({ input }))).toFixed(2)} ms`);
	}
	console.log(`${row.join('  ')} (inference only)`);
}
const engine = await FaceEngine.create({ threads });
const image = await decodeImage(readFileSync(new URL('../../tests/fixtures/faces/live_minivision_1.jpg', import.meta.url)));
const p = engine.pipeline;
const [face] = await p.detect(image);
const five = fivePoints(await p.landmarks(image, face.box));
console.log(`pipeline on a ${image.width}×${image.height} photo (pre/post-processing included):`);
console.log(`  detect    ${(await time(() => p.detect(image))).toFixed(2)} ms`);
console.log(`  landmarks ${(await time(() => p.landmarks(image, face.box))).toFixed(2)} ms`);
console.log(`  embed     ${(await time(() => p.embed(image, five))).toFixed(2)} ms`);
console.log(`  liveness  ${(await time(() => p.liveness(image, face.box))).toFixed(2)} ms`);

import { describe, expect, it } from 'vitest';
import { createRgba } from './image.ts';
import { FacePipeline } from './face-pipeline.ts';
import type { OrtRuntime, OrtSession, OrtTensor } from './ort-runtime.ts';
import { frontalLandmarks } from './test-faces.ts';

/** A fake session that records its inputs and returns fixed outputs. */
function fakeSession(outputs: Record<string, Float32Array>) {
	const seen: OrtTensor[] = [];
	const session: OrtSession = {
		inputNames: ['input'],
		outputNames: Object.keys(outputs),
		async run(feeds) {
			seen.push(feeds.input);
			return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { data: v, dims: [1, v.length] }]));
		}
	};
	return { session, seen };
}

const runtime: OrtRuntime = { tensor: (data, dims) => ({ data, dims }) };

function setup() {
	const scores = new Float32Array(4420 * 2);
	const boxes = new Float32Array(4420 * 4);
	for (let i = 0; i < 4420; i++) scores[2 * i] = 1;
	scores.set([0.01, 0.99], 0);
	boxes.set([0.25, 0.25, 0.5, 0.75], 0);
	// Landmarks of a frontal face filling the 64×64 landmark crop, in crop-relative units.
	const l = frontalLandmarks(0.5, 0.45, 0.4);
	const feature = new Float32Array(512);
	feature[0] = 3;
	feature[1] = 4;
	const detect = fakeSession({ scores, boxes });
	const landmark = fakeSession({ output: l });
	const feat = fakeSession({ output: feature });
	const live = fakeSession({ output: new Float32Array([2, 0, 0]) });
	const pipeline = new FacePipeline(runtime, { detect: detect.session, landmark: landmark.session, feature: feat.session, liveness: live.session });
	return { pipeline, detect, landmark, feat, live };
}

describe('FacePipeline', () => {
	it('runs detection → landmarks → embedding and liveness and returns one analysed face', async () => {
		const { pipeline, detect, feat, live } = setup();
		const image = createRgba(640, 480);
		image.data.fill(128);
		const [face, ...rest] = await pipeline.analyse(image);
		expect(rest).toEqual([]);
		expect(face.box).toEqual({ x: 160, y: 120, width: 160, height: 240 });
		expect(face.score).toBeCloseTo(0.99, 5);
		expect(Array.from(face.embedding!.subarray(0, 2))).toEqual([0.6000000238418579, 0.800000011920929]);
		expect(face.liveness).toBeCloseTo(Math.exp(2) / (Math.exp(2) + 2), 5);
		expect(face.quality.faceSize).toBeCloseTo(160, 5);
		expect(detect.seen[0].dims).toEqual([1, 3, 240, 320]);
		expect(feat.seen[0].dims).toEqual([1, 3, 112, 112]);
		expect(live.seen[0].dims).toEqual([1, 3, 128, 128]);
		// Landmarks are mapped from the square crop (side 240, centred on the box) to image pixels.
		expect(face.landmarks[60]).toBeCloseTo(120 + 0.5 * 240, 3);
	});

	it('reuses its input tensors from frame to frame', async () => {
		const { pipeline, detect } = setup();
		const image = createRgba(320, 240);
		await pipeline.detect(image);
		await pipeline.detect(image);
		expect(detect.seen[0]).toBe(detect.seen[1]);
	});

	it('skips embedding and liveness when not asked for them', async () => {
		const { pipeline, feat, live } = setup();
		const [face] = await pipeline.analyse(createRgba(640, 480), { embed: false, liveness: false });
		expect(face.embedding).toBeNull();
		expect(face.liveness).toBeNull();
		expect(feat.seen).toHaveLength(0);
		expect(live.seen).toHaveLength(0);
	});
});

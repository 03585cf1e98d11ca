import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { faceModelDir } from './face-engine.ts';
import { compressWeights, DATA_TYPE, fromFloat16, quantizeInt8, readFields, toFloat16 } from './onnx-weights.js';

describe('float32 → float16', () => {
	it('rounds to nearest even, with subnormals, overflow and NaN as IEEE 754 says', () => {
		const cases: Array<[number, number]> = [
			[0, 0x0000],
			[-0, 0x8000],
			[1, 0x3c00],
			[-2, 0xc000],
			[65504, 0x7bff], // largest half
			[65520, 0x7c00], // rounds up to infinity
			[1e6, 0x7c00],
			[2 ** -24, 0x0001], // smallest subnormal
			[2 ** -26, 0x0000], // below half of it: zero
			[1 + 2 ** -11, 0x3c00], // exactly halfway between 1 and the next half: to even (1)
			[1 + 3 * 2 ** -11, 0x3c02], // halfway between 0x3c01 and 0x3c02: to even (0x3c02)
			[0.1, 0x2e66],
			[Infinity, 0x7c00]
		];
		const halves = toFloat16(Float32Array.from(cases.map(([v]) => v)));
		expect([...halves].map((h) => h.toString(16))).toEqual(cases.map(([, h]) => h.toString(16)));
		expect(toFloat16(Float32Array.of(NaN))[0] & 0x7c00).toBe(0x7c00);
		expect(toFloat16(Float32Array.of(NaN))[0] & 0x3ff).not.toBe(0);
	});

	it('round-trips every half exactly', () => {
		const all = Uint16Array.from({ length: 0x7c00 }, (_, i) => i);
		expect(toFloat16(fromFloat16(all))).toEqual(all);
	});
});

describe('int8 per output channel', () => {
	it('maps each channel’s largest magnitude to ±127', () => {
		const { q, scales } = quantizeInt8(Float32Array.of(1, -0.5, 0.25, 0.02, -0.04, 0.01), [2, 3]);
		expect([...q]).toEqual([127, -64, 32, 64, -127, 32]);
		expect(scales[0]).toBeCloseTo(1 / 127, 9);
		expect(scales[1]).toBeCloseTo(0.04 / 127, 9);
	});
});

describe('compressWeights on a real model', () => {
	const model = new Uint8Array(readFileSync(join(faceModelDir(), 'fr_liveness.onnx')));

	it('stores the float32 weights as float16 behind Cast nodes placed first, and copies the rest', () => {
		const { bytes, converted, kept } = compressWeights(model, { format: 'float16' });
		expect(converted).toBeGreaterThan(100);
		expect(bytes.length).toBeLessThan(model.length * 0.55);
		// Every field of the model but the graph is copied unchanged (ir_version, opset_import, producer…).
		const before = readFields(model).filter((f) => f.no !== 7);
		const after = readFields(bytes).filter((f) => f.no !== 7);
		expect(after.map((f) => Buffer.from(bytes.subarray(f.start, f.end)).toString('hex'))).toEqual(before.map((f) => Buffer.from(model.subarray(f.start, f.end)).toString('hex')));
		const graph = readFields(bytes).find((f) => f.no === 7)!.body!;
		const fields = readFields(graph);
		const nodes = fields.filter((f) => f.no === 1);
		const opType = (n: (typeof nodes)[number]) => new TextDecoder().decode(readFields(n.body!).find((g) => g.no === 4)!.body);
		expect(nodes.slice(0, converted).every((n) => opType(n) === 'Cast')).toBe(true);
		const types = fields.filter((f) => f.no === 5).map((f) => Number(readFields(f.body!).find((g) => g.no === 2)!.value));
		expect(types.filter((t) => t === DATA_TYPE.float16)).toHaveLength(converted);
		expect(types.filter((t) => t === DATA_TYPE.float)).toHaveLength(kept);
	});

	it('runs in onnxruntime with the same input and output names and nearly the same output', async () => {
		const [a, b] = await Promise.all([model, compressWeights(model, { format: 'float16' }).bytes].map((m) => ort.InferenceSession.create(m)));
		expect(b.inputNames).toEqual(a.inputNames);
		expect(b.outputNames).toEqual(a.outputNames);
		const input = new Float32Array(3 * 128 * 128).map((_, i) => (i * 7919) % 256);
		const feeds = { [a.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, 128, 128]) };
		const [x, y] = [(await a.run(feeds))[a.outputNames[0]].data as Float32Array, (await b.run(feeds))[b.outputNames[0]].data as Float32Array];
		expect(y).toHaveLength(x.length);
		const scale = Math.max(...x.map(Math.abs));
		for (let i = 0; i < x.length; i++) expect(Math.abs(x[i] - y[i])).toBeLessThan(0.01 * scale);
	});
});

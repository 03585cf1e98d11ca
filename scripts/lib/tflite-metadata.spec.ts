import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaceDetectorMetadata, buildModels, entries } from '../build-models.js';
import { Reader, refs, scalar, scalars, serialize, string, table } from './flatbuffers.js';
import { readModelMetadata, readModelSummary } from './tflite-metadata.js';

const original = new Uint8Array(
	readFileSync('node_modules/@mediapipe/face_detection/face_detection_short_range.tflite')
);

describe('flatbuffers writer', () => {
	it('writes tables, strings, vectors and scalars that read back', () => {
		const { bytes } = serialize(
			table([
				[0, string('héllo')],
				[2, scalar('u32', 0xdeadbeef)],
				[3, scalars('f32', [127.5, -1])],
				[4, refs([table([[1, scalar('i8', -3)]]), table([[0, string('b')]])])],
				[5, scalar('u64', 2n ** 40n)]
			]),
			'TEST'
		);
		const r = new Reader(bytes);
		const root = r.root();
		expect(r.identifier()).toBe('TEST');
		expect(r.string(root, 0)).toBe('héllo');
		expect(r.field(root, 1)).toBe(0);
		expect(r.scalar(root, 2, 'u32', 0)).toBe(0xdeadbeef);
		expect(r.floats(root, 3)).toEqual([127.5, -1]);
		const [a, b] = r.tables(root, 4);
		expect(r.scalar(a, 1, 'i8', 0)).toBe(-3);
		expect(r.string(b, 0)).toBe('b');
		const u64 = r.field(root, 5);
		expect(u64 % 8).toBe(0);
		expect(r.view.getBigUint64(u64, true)).toBe(2n ** 40n);
	});
});

describe('face detector metadata', () => {
	const patched = addFaceDetectorMetadata(original);

	it('is absent from the shipped model and present, with NormalizationOptions, after the build', () => {
		expect(readModelMetadata(original)).toBeNull();
		const meta = readModelMetadata(patched);
		expect(meta?.minParserVersion).toBe('1.0.0');
		const input = meta?.subgraphs[0].inputs[0];
		expect(input?.name).toBe('input');
		expect(input?.colorSpace).toBe(1); // RGB
		expect(input?.processUnits).toEqual([{ type: 'NormalizationOptions', mean: [127.5], std: [127.5] }]);
		expect(meta?.subgraphs[0].outputs.map((o) => o.name)).toEqual(['regressors', 'classificators']);
		expect(meta?.alignment).toBe(0);
	});

	it('keeps every tensor, operator and weight of the model, with the same 16-byte alignment', () => {
		const before = readModelSummary(original);
		const after = readModelSummary(patched);
		expect(after.version).toBe(before.version);
		expect(after.operatorCodes).toBe(before.operatorCodes);
		expect(after.subgraphs).toEqual(before.subgraphs);
		expect(after.buffers.length).toBe(before.buffers.length + 1);
		for (let i = 0; i < before.buffers.length; i++) {
			expect(Buffer.from(after.buffers[i]).equals(Buffer.from(before.buffers[i]))).toBe(true);
			const offBefore = before.buffers[i].byteOffset - original.byteOffset;
			const offAfter = after.buffers[i].byteOffset - patched.byteOffset;
			expect(offAfter % 16).toBe(offBefore % 16);
		}
		expect(after.metadata).toEqual([{ name: 'TFLITE_METADATA', buffer: before.buffers.length }]);
	});

	it('is accepted by tasks-vision FaceDetector, which refuses the shipped model', () => {
		const dir = mkdtempSync(join(tmpdir(), 'veriflow-tflite-'));
		try {
			const probe = (model: Uint8Array) => {
				const file = join(dir, 'model.tflite');
				writeFileSync(file, model);
				const out = execFileSync(process.execPath, ['scripts/lib/tasks-vision-probe.js', file], {
					encoding: 'utf8',
					stdio: ['ignore', 'pipe', 'ignore']
				});
				return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { stage: string; error: string };
			};
			expect(probe(original)).toMatchObject({ stage: 'metadata' });
			// Node has no WebGL: getting as far as the GPU service means the graph, metadata included, was accepted.
			expect(probe(patched)).toMatchObject({ stage: 'gpu-service' });
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('build-models', () => {
	it('writes every file with its sha256 and is a no-op the second time', async () => {
		const { createHash } = await import('node:crypto');
		const outDir = mkdtempSync(join(tmpdir(), 'veriflow-models-'));
		try {
			const log = () => {};
			expect(buildModels({ outDir, log, compress: false }).written).toBe(entries().length);
			const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8'));
			expect(Object.keys(manifest.files).sort()).toEqual(entries().map((e) => e.to).sort());
			for (const [file, info] of Object.entries<{ size: number; sha256: string }>(manifest.files)) {
				const bytes = readFileSync(join(outDir, file));
				expect(bytes.length).toBe(info.size);
				expect(createHash('sha256').update(bytes).digest('hex')).toBe(info.sha256);
			}
			expect(buildModels({ outDir, log, compress: false }).written).toBe(0);
			expect(buildModels({ outDir, log, check: true, compress: false }).stale).toEqual([]);
			const tflite = new Uint8Array(readFileSync(join(outDir, 'mediapipe/face_detection_short_range.tflite')));
			expect(readModelMetadata(tflite)?.subgraphs[0].inputs[0].processUnits[0]).toMatchObject({ mean: [127.5] });
		} finally {
			rmSync(outDir, { recursive: true, force: true });
		}
	});
});

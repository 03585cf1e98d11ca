// TFLite metadata for MediaPipe Tasks models, written by us instead of the Python metadata writer.
// Field indices follow tensorflow/lite/schema/schema.fbs (Model, Buffer, Metadata) and
// tensorflow_lite_support/metadata/metadata_schema.fbs 1.x (ModelMetadata, identifier "M001").
// tasks-vision's FaceDetector refuses a float model whose input tensor has no NormalizationOptions,
// and @mediapipe/face_detection ships its models without any metadata.
import { Reader, external, refs, resolveExternal, scalar, scalars, serialize, string, table } from './flatbuffers.js';

export const METADATA_NAME = 'TFLITE_METADATA';
const MODEL = { version: 0, operatorCodes: 1, subgraphs: 2, description: 3, buffers: 4, metadataBuffer: 5, metadata: 6, signatureDefs: 7 };
const MODEL_FIELDS = 8;
const PROCESS_UNIT_NORMALIZATION = 1;
const CONTENT_IMAGE_PROPERTIES = 2;
const COLOR_SPACE_RGB = 1;

/**
 * @typedef {{ name: string, description?: string, version?: string, author?: string, license?: string,
 *   input: { name: string, description?: string, mean: number[], std: number[] },
 *   outputs: Array<{ name: string, description?: string }> }} ImageModelMetadata
 */

/** Builds a ModelMetadata FlatBuffer for a single-input RGB image model. @param {ImageModelMetadata} meta */
export function buildImageModelMetadata(meta) {
	const normalization = table([
		[0, scalars('f32', meta.input.mean)],
		[1, scalars('f32', meta.input.std)]
	]);
	// Stats record the value range the normalisation produces (for 0–255 input).
	const lo = meta.input.mean.map((m, i) => (0 - m) / meta.input.std[i]);
	const hi = meta.input.mean.map((m, i) => (255 - m) / meta.input.std[i]);
	const input = table([
		[0, string(meta.input.name)],
		[1, meta.input.description ? string(meta.input.description) : undefined],
		[3, table([
			[0, scalar('u8', CONTENT_IMAGE_PROPERTIES)],
			[1, table([[0, scalar('i8', COLOR_SPACE_RGB)]])]
		])],
		[4, refs([table([[0, scalar('u8', PROCESS_UNIT_NORMALIZATION)], [1, normalization]])])],
		[5, table([[0, scalars('f32', hi)], [1, scalars('f32', lo)]])]
	]);
	const outputs = meta.outputs.map((o) =>
		table([[0, string(o.name)], [1, o.description ? string(o.description) : undefined]])
	);
	const root = table([
		[0, string(meta.name)],
		[1, meta.description ? string(meta.description) : undefined],
		[2, meta.version ? string(meta.version) : undefined],
		[3, refs([table([[2, refs([input])], [3, refs(outputs)]])])],
		[4, meta.author ? string(meta.author) : undefined],
		[5, meta.license ? string(meta.license) : undefined],
		// NormalizationOptions and ImageProperties exist since schema 1.0.0.
		[7, string('1.0.0')]
	]);
	return serialize(root, 'M001').bytes;
}

/**
 * Returns a copy of a .tflite model whose `metadata` holds `metadataBytes` under TFLITE_METADATA
 * (replacing an existing entry), in a new buffer, as the TFLite metadata populator does.
 * The original model is kept byte for byte after a new root table; its internal offsets are relative,
 * so moving it by a multiple of 16 keeps every buffer's alignment.
 * @param {Uint8Array} model @param {Uint8Array} metadataBytes
 */
export function embedMetadata(model, metadataBytes) {
	const r = new Reader(model);
	if (r.identifier() !== 'TFL3') throw new Error('not a TFLite model (identifier is not TFL3)');
	const root = r.root();
	for (let i = MODEL_FIELDS; i < r.fieldCount(root); i++) {
		if (r.field(root, i) !== 0) throw new Error(`unknown Model field ${i}: refusing to drop it`);
	}
	const oldBuffers = r.vector(root, MODEL.buffers);
	if (!oldBuffers) throw new Error('model has no buffers');
	/** @param {number} index */
	const keep = (index) => {
		const at = r.field(root, index);
		return at === 0 ? undefined : external(r.deref(at));
	};
	const bufferItems = [];
	for (let i = 0; i < oldBuffers.length; i++) bufferItems.push(external(r.deref(oldBuffers.start + 4 * i)));
	const metadataIndex = bufferItems.length;
	bufferItems.push(table([[0, scalars('u8', metadataBytes, 16)]]));
	const metadataItems = [];
	for (const entry of r.tables(root, MODEL.metadata)) {
		if (r.string(entry, 0) !== METADATA_NAME) metadataItems.push(external(entry));
	}
	metadataItems.push(table([[0, string(METADATA_NAME)], [1, scalar('u32', metadataIndex)]]));
	const newRoot = table([
		[MODEL.version, scalar('u32', r.scalar(root, MODEL.version, 'u32', 0))],
		[MODEL.operatorCodes, keep(MODEL.operatorCodes)],
		[MODEL.subgraphs, keep(MODEL.subgraphs)],
		[MODEL.description, keep(MODEL.description)],
		[MODEL.buffers, refs(bufferItems)],
		[MODEL.metadataBuffer, keep(MODEL.metadataBuffer)],
		[MODEL.metadata, refs(metadataItems)],
		[MODEL.signatureDefs, keep(MODEL.signatureDefs)]
	]);
	const { bytes: head, externals } = serialize(newRoot, 'TFL3');
	const base = Math.ceil(head.length / 16) * 16;
	resolveExternal(head, externals, base);
	const out = new Uint8Array(base + model.length);
	out.set(head, 0);
	out.set(model, base);
	return out;
}

/** Reads the tensors' names of subgraph 0, to name the metadata's tensors after the model's. @param {Uint8Array} model */
export function readModelIo(model) {
	const r = new Reader(model);
	const subgraph = r.tables(r.root(), MODEL.subgraphs)[0];
	const tensors = r.tables(subgraph, 0);
	/** @param {number} field */
	const names = (field) => {
		const vec = r.vector(subgraph, field);
		if (!vec) return [];
		return Array.from({ length: vec.length }, (_, i) => {
			const tensor = tensors[r.view.getInt32(vec.start + 4 * i, true)];
			return {
				name: r.string(tensor, 3) ?? '',
				type: r.scalar(tensor, 1, 'i8', 0),
				shape: (() => {
					const s = r.vector(tensor, 0);
					return s ? Array.from({ length: s.length }, (_, k) => r.view.getInt32(s.start + 4 * k, true)) : [];
				})()
			};
		});
	};
	return { inputs: names(1), outputs: names(2) };
}

/**
 * A structural summary of a model (for checking that embedding kept everything):
 * Model version, number of tensors and operators per subgraph, and a hash-free digest of every buffer.
 * @param {Uint8Array} model
 */
export function readModelSummary(model) {
	const r = new Reader(model);
	const root = r.root();
	const subgraphs = r.tables(root, MODEL.subgraphs).map((sg) => ({
		tensors: r.tables(sg, 0).length,
		operators: r.tables(sg, 3).length,
		name: r.string(sg, 4)
	}));
	const buffers = r.tables(root, MODEL.buffers).map((b) => r.bytesOf(b, 0) ?? new Uint8Array(0));
	const metadata = r.tables(root, MODEL.metadata).map((m) => ({
		name: r.string(m, 0),
		buffer: r.scalar(m, 1, 'u32', 0)
	}));
	return {
		version: r.scalar(root, MODEL.version, 'u32', 0),
		operatorCodes: r.tables(root, MODEL.operatorCodes).length,
		subgraphs,
		buffers,
		metadata
	};
}

/**
 * Reads back the TFLITE_METADATA of a model as MediaPipe's ModelMetadataExtractor finds it,
 * or null when the model has none.
 * @param {Uint8Array} model
 */
export function readModelMetadata(model) {
	const summary = readModelSummary(model);
	const entry = summary.metadata.find((m) => m.name === METADATA_NAME);
	if (!entry) return null;
	const data = summary.buffers[entry.buffer];
	if (!data || data.length === 0) throw new Error('metadata buffer is empty');
	const r = new Reader(data);
	if (r.identifier() !== 'M001') throw new Error(`metadata identifier is ${r.identifier()}, expected M001`);
	const root = r.root();
	/** @param {number} t */
	const tensor = (t) => {
		const content = r.table(t, 3);
		const unitTables = r.tables(t, 4);
		return {
			name: r.string(t, 0),
			contentType: content ? r.scalar(content, 0, 'u8', 0) : 0,
			colorSpace: content && r.scalar(content, 0, 'u8', 0) === CONTENT_IMAGE_PROPERTIES
				? r.scalar(r.table(content, 1), 0, 'i8', 0)
				: null,
			processUnits: unitTables.map((u) => {
				const type = r.scalar(u, 0, 'u8', 0);
				const options = r.table(u, 1);
				return type === PROCESS_UNIT_NORMALIZATION
					? { type: 'NormalizationOptions', mean: r.floats(options, 0), std: r.floats(options, 1) }
					: { type: `ProcessUnitOptions#${type}` };
			})
		};
	};
	const subgraphs = r.tables(root, 3).map((sg) => ({
		inputs: r.tables(sg, 2).map(tensor),
		outputs: r.tables(sg, 3).map(tensor)
	}));
	return {
		name: r.string(root, 0),
		license: r.string(root, 5),
		minParserVersion: r.string(root, 7),
		subgraphs,
		alignment: (data.byteOffset - model.byteOffset) % 16
	};
}

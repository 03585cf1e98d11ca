// Smaller copies of ONNX models for the face set: the float32 weights stored as float16 (or as int8
// with a float scale per output channel), each turned back into the float32 tensor the graph
// expects by a Cast (and Mul) node placed before the rest of the graph. The graph itself, its
// opset and its operators stay as they are, so every runtime that ran the original runs the copy;
// onnxruntime folds the Cast/Mul constants into float32 weights when it loads the model, so the
// copy also runs at the original's speed. Page and server load the same converted file, so both
// compute with exactly the same (rounded) weights.
//
// Written by hand against onnx/onnx.proto3 (ModelProto, GraphProto, NodeProto, TensorProto,
// AttributeProto): only the few fields touched here are understood; every other field is copied
// byte for byte. No protobuf package is a dependency of the app.

const MODEL_GRAPH = 7;
const GRAPH = { node: 1, initializer: 5 };
const NODE = { input: 1, output: 2, name: 3, opType: 4, attribute: 5 };
const ATTRIBUTE = { name: 1, i: 3, type: 20 };
const ATTRIBUTE_INT = 2;
const TENSOR = { dims: 1, dataType: 2, floatData: 4, name: 8, rawData: 9, externalData: 13, dataLocation: 14 };
export const DATA_TYPE = { float: 1, int8: 3, float16: 10 };

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/**
 * @typedef {{ no: number, wire: number, start: number, end: number, value?: bigint, body?: Uint8Array }} Field
 * `start`–`end`: the whole field (key included) in the buffer; `body`: a length-delimited field's content.
 */

/** The fields of one protobuf message, in order. @param {Uint8Array} buf @returns {Field[]} */
export function readFields(buf) {
	/** @type {Field[]} */
	const out = [];
	let p = 0;
	const varint = () => {
		let result = 0n;
		let shift = 0n;
		for (;;) {
			if (p >= buf.length) throw new Error('truncated protobuf varint');
			const b = buf[p++];
			result |= BigInt(b & 0x7f) << shift;
			if (!(b & 0x80)) return result;
			shift += 7n;
		}
	};
	while (p < buf.length) {
		const start = p;
		const key = Number(varint());
		const no = key >>> 3;
		const wire = key & 7;
		if (wire === WIRE_VARINT) {
			const value = varint();
			out.push({ no, wire, start, end: p, value });
		} else if (wire === WIRE_LEN) {
			const len = Number(varint());
			if (p + len > buf.length) throw new Error('truncated protobuf field');
			out.push({ no, wire, start, end: p + len, body: buf.subarray(p, p + len) });
			p += len;
		} else if (wire === WIRE_I64 || wire === WIRE_I32) {
			p += wire === WIRE_I64 ? 8 : 4;
			out.push({ no, wire, start, end: p });
		} else throw new Error(`unsupported protobuf wire type ${wire}`);
	}
	return out;
}

/** @param {number | bigint} n */
function encodeVarint(n) {
	let v = BigInt(n);
	if (v < 0n) v += 1n << 64n;
	const bytes = [];
	do {
		let b = Number(v & 0x7fn);
		v >>= 7n;
		if (v) b |= 0x80;
		bytes.push(b);
	} while (v);
	return Uint8Array.from(bytes);
}

/** @param {Uint8Array[]} parts */
function concat(parts) {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let o = 0;
	for (const part of parts) {
		out.set(part, o);
		o += part.length;
	}
	return out;
}

/** @param {number} no @param {number | bigint} value */
const varintField = (no, value) => concat([encodeVarint((no << 3) | WIRE_VARINT), encodeVarint(value)]);
/** @param {number} no @param {Uint8Array | string} body */
function lenField(no, body) {
	const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
	return concat([encodeVarint((no << 3) | WIRE_LEN), encodeVarint(bytes.length), bytes]);
}

const text = (/** @type {Uint8Array} */ b) => new TextDecoder().decode(b);

/**
 * One float32 → float16 conversion, rounding to nearest even (IEEE 754), as numpy's astype does.
 * @param {Float32Array} src @returns {Uint16Array}
 */
export function toFloat16(src) {
	const bits = new Uint32Array(src.buffer, src.byteOffset, src.length);
	const out = new Uint16Array(src.length);
	for (let i = 0; i < src.length; i++) {
		const x = bits[i];
		const sign = (x >>> 16) & 0x8000;
		const exp = (x >>> 23) & 0xff;
		let mant = x & 0x7fffff;
		if (exp === 0xff) {
			out[i] = sign | 0x7c00 | (mant ? 0x200 : 0);
			continue;
		}
		const e = exp - 127 + 15;
		if (e >= 0x1f) {
			out[i] = sign | 0x7c00;
			continue;
		}
		if (e <= 0) {
			// Subnormal half (or zero): shift the implicit 1 in, round to nearest even.
			if (e < -10) {
				out[i] = sign;
				continue;
			}
			mant |= 0x800000;
			const shift = 14 - e;
			let half = mant >>> shift;
			const rest = mant & ((1 << shift) - 1);
			const mid = 1 << (shift - 1);
			if (rest > mid || (rest === mid && half & 1)) half++;
			out[i] = sign | half;
			continue;
		}
		let half = (e << 10) | (mant >>> 13);
		const rest = mant & 0x1fff;
		// A carry out of the mantissa moves into the exponent, which is the right result (up to inf).
		if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
		out[i] = sign | half;
	}
	return out;
}

/** float16 bits → float32 (for tests and the int8 path's checks). @param {Uint16Array} src */
export function fromFloat16(src) {
	const out = new Float32Array(src.length);
	for (let i = 0; i < src.length; i++) {
		const h = src[i];
		const sign = h & 0x8000 ? -1 : 1;
		const exp = (h >>> 10) & 0x1f;
		const mant = h & 0x3ff;
		out[i] = exp === 0 ? sign * mant * 2 ** -24 : exp === 0x1f ? (mant ? NaN : sign * Infinity) : sign * (1 + mant / 1024) * 2 ** (exp - 15);
	}
	return out;
}

/**
 * Symmetric int8 per slice along axis 0 (a convolution's output channel): each slice's largest
 * magnitude maps to 127. @param {Float32Array} src @param {number[]} dims
 */
export function quantizeInt8(src, dims) {
	const channels = dims.length > 1 ? dims[0] : 1;
	const per = src.length / channels;
	const q = new Int8Array(src.length);
	const scales = new Float32Array(channels);
	for (let c = 0; c < channels; c++) {
		let max = 0;
		for (let i = c * per; i < (c + 1) * per; i++) max = Math.max(max, Math.abs(src[i]));
		const scale = max > 0 ? max / 127 : 1;
		scales[c] = scale;
		// Half away from zero, symmetric for both signs (Math.round alone takes -63.5 to -63).
		for (let i = c * per; i < (c + 1) * per; i++) q[i] = Math.max(-127, Math.min(127, Math.sign(src[i]) * Math.round(Math.abs(src[i]) / scale)));
	}
	return { q, scales };
}

/**
 * @typedef {{ name: string, dims: number[], dataType: number, data: Float32Array | null }} Initializer
 * `data`: float32 values when the tensor holds them inline (raw_data or float_data).
 */

/** @param {Uint8Array} body @returns {Initializer} */
function readInitializer(body) {
	/** @type {Initializer} */
	const t = { name: '', dims: [], dataType: 0, data: null };
	let external = false;
	for (const f of readFields(body)) {
		if (f.no === TENSOR.name && f.body) t.name = text(f.body);
		else if (f.no === TENSOR.dataType && f.value !== undefined) t.dataType = Number(f.value);
		else if (f.no === TENSOR.dims) {
			if (f.value !== undefined) t.dims.push(Number(f.value));
			else if (f.body) for (const d of readPackedVarints(f.body)) t.dims.push(Number(d));
		} else if (f.no === TENSOR.rawData && f.body) {
			const copy = f.body.slice();
			t.data = new Float32Array(copy.buffer, 0, copy.length >> 2);
		} else if (f.no === TENSOR.floatData && f.body) {
			const copy = f.body.slice();
			t.data = new Float32Array(copy.buffer, 0, copy.length >> 2);
		} else if (f.no === TENSOR.externalData || f.no === TENSOR.dataLocation) external = true;
	}
	if (external || t.dataType !== DATA_TYPE.float) t.data = null;
	return t;
}

/** @param {Uint8Array} buf */
function readPackedVarints(buf) {
	const out = [];
	let p = 0;
	while (p < buf.length) {
		let v = 0n;
		let s = 0n;
		for (;;) {
			const b = buf[p++];
			v |= BigInt(b & 0x7f) << s;
			if (!(b & 0x80)) break;
			s += 7n;
		}
		out.push(v);
	}
	return out;
}

/** @param {string} name @param {number[]} dims @param {number} dataType @param {Uint8Array} raw */
function tensor(name, dims, dataType, raw) {
	return concat([...dims.map((d) => varintField(TENSOR.dims, d)), varintField(TENSOR.dataType, dataType), lenField(TENSOR.name, name), lenField(TENSOR.rawData, raw)]);
}

/** @param {string} opType @param {string[]} inputs @param {string} output @param {Uint8Array[]} [attributes] */
function node(opType, inputs, output, attributes = []) {
	return concat([...inputs.map((i) => lenField(NODE.input, i)), lenField(NODE.output, output), lenField(NODE.name, `${output}::restore`), lenField(NODE.opType, opType), ...attributes.map((a) => lenField(NODE.attribute, a))]);
}

/** @param {string} name @param {number} value */
const intAttribute = (name, value) => concat([lenField(ATTRIBUTE.name, name), varintField(ATTRIBUTE.i, value), varintField(ATTRIBUTE.type, ATTRIBUTE_INT)]);

/** @param {ArrayBufferView} view */
const bytesOf = (view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

/**
 * @typedef {'float16' | 'int8'} WeightFormat
 * @typedef {{ format: WeightFormat, minElements?: number, int8For?: (t: Initializer) => boolean }} CompressOptions
 * `minElements`: smaller tensors (biases, norms) stay float32; they weigh nothing. `int8For`: with
 * format int8, which tensors get int8 (the rest float16); by default those of rank ≥ 2.
 */

/**
 * A copy of `model` whose float32 initializers of at least `minElements` values are stored as
 * `format`, each restored to float32 under its own name by nodes placed before the graph's own.
 * @param {Uint8Array} model @param {CompressOptions} options
 * @returns {{ bytes: Uint8Array, converted: number, kept: number }}
 */
export function compressWeights(model, { format, minElements = 16, int8For = (t) => t.dims.length >= 2 }) {
	const top = readFields(model);
	const graphField = top.find((f) => f.no === MODEL_GRAPH && f.body);
	if (!graphField?.body) throw new Error('not an ONNX model: no graph');
	/** @type {Uint8Array[]} */
	const restore = [];
	/** @type {Uint8Array[]} */
	const rest = [];
	let converted = 0;
	let kept = 0;
	for (const f of readFields(graphField.body)) {
		const whole = graphField.body.subarray(f.start, f.end);
		if (f.no !== GRAPH.initializer || !f.body) {
			rest.push(whole);
			continue;
		}
		const t = readInitializer(f.body);
		if (!t.data || t.data.length < minElements) {
			if (t.dataType === DATA_TYPE.float) kept++;
			rest.push(whole);
			continue;
		}
		converted++;
		if (format === 'int8' && int8For(t)) {
			const { q, scales } = quantizeInt8(t.data, t.dims);
			const scaleDims = t.dims.length > 1 ? [t.dims[0], ...t.dims.slice(1).map(() => 1)] : [1];
			rest.push(lenField(GRAPH.initializer, tensor(`${t.name}::int8`, t.dims, DATA_TYPE.int8, bytesOf(q))));
			rest.push(lenField(GRAPH.initializer, tensor(`${t.name}::scale`, scaleDims, DATA_TYPE.float, bytesOf(scales))));
			restore.push(lenField(GRAPH.node, node('Cast', [`${t.name}::int8`], `${t.name}::float`, [intAttribute('to', DATA_TYPE.float)])));
			restore.push(lenField(GRAPH.node, node('Mul', [`${t.name}::float`, `${t.name}::scale`], t.name)));
		} else {
			rest.push(lenField(GRAPH.initializer, tensor(`${t.name}::fp16`, t.dims, DATA_TYPE.float16, bytesOf(toFloat16(t.data)))));
			restore.push(lenField(GRAPH.node, node('Cast', [`${t.name}::fp16`], t.name, [intAttribute('to', DATA_TYPE.float)])));
		}
	}
	// The restoring nodes first: they read only initializers, and the graph's own nodes read their outputs.
	const graph = concat([...restore, ...rest]);
	const parts = top.map((f) => (f === graphField ? lenField(MODEL_GRAPH, graph) : model.subarray(f.start, f.end)));
	return { bytes: concat(parts), converted, kept };
}

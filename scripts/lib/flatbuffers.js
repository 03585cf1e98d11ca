// A deliberately small FlatBuffers reader and writer: just enough to add TFLite metadata to a model
// without pulling in a FlatBuffers dependency. Format reference: flatbuffers.dev "Internals".
//
// Writer layout is front-to-back: every offset we write points forward (uoffset_t is unsigned), so a
// parent is always written before its children (breadth-first queue). Offsets into an existing buffer
// that will be appended after our output ("external" references) are patched once its base is known.

/** @typedef {'u8'|'i8'|'u16'|'i16'|'u32'|'i32'|'f32'|'u64'|'i64'|'f64'} ScalarType */
/**
 * @typedef {{ kind: 'table', fields: Array<{ index: number, scalar?: ScalarType, value?: number|bigint, child?: Node }> }} TableNode
 * @typedef {{ kind: 'string', value: string }} StringNode
 * @typedef {{ kind: 'scalars', type: ScalarType, values: ArrayLike<number>|Uint8Array, align?: number }} ScalarVectorNode
 * @typedef {{ kind: 'refs', items: Node[] }} RefVectorNode
 * @typedef {{ kind: 'external', position: number }} ExternalNode
 * @typedef {TableNode|StringNode|ScalarVectorNode|RefVectorNode|ExternalNode} Node
 */

const SIZE = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, u64: 8, i64: 8, f64: 8 };

/** @param {Array<[number, Node | { scalar: ScalarType, value: number|bigint } | undefined]>} entries @returns {TableNode} */
export function table(entries) {
	const fields = [];
	for (const [index, entry] of entries) {
		if (entry === undefined) continue;
		if ('scalar' in entry) fields.push({ index, scalar: entry.scalar, value: entry.value });
		else fields.push({ index, child: /** @type {Node} */ (entry) });
	}
	return { kind: 'table', fields };
}
/** @param {ScalarType} type @param {number|bigint} value */
export const scalar = (type, value) => ({ scalar: type, value });
/** @param {string} value @returns {StringNode} */
export const string = (value) => ({ kind: 'string', value });
/** @param {ScalarType} type @param {ArrayLike<number>} values @param {number} [align] @returns {ScalarVectorNode} */
export const scalars = (type, values, align) => ({ kind: 'scalars', type, values, align });
/** @param {Node[]} items @returns {RefVectorNode} */
export const refs = (items) => ({ kind: 'refs', items });
/** @param {number} position absolute position inside the buffer appended after ours @returns {ExternalNode} */
export const external = (position) => ({ kind: 'external', position });

class Output {
	constructor() {
		this.bytes = new Uint8Array(1024);
		this.view = new DataView(this.bytes.buffer);
		this.length = 0;
	}
	/** @param {number} n */
	reserve(n) {
		if (this.length + n <= this.bytes.length) return;
		let size = this.bytes.length * 2;
		while (size < this.length + n) size *= 2;
		const next = new Uint8Array(size);
		next.set(this.bytes.subarray(0, this.length));
		this.bytes = next;
		this.view = new DataView(next.buffer);
	}
	/** Pads with zeros until (length + ahead) is a multiple of align. @param {number} align @param {number} [ahead] */
	align(align, ahead = 0) {
		const pad = (align - ((this.length + ahead) % align)) % align;
		this.reserve(pad);
		this.length += pad;
	}
	/** @param {number} n */
	skip(n) {
		this.reserve(n);
		const at = this.length;
		this.length += n;
		return at;
	}
	/** @param {ScalarType} type @param {number} at @param {number|bigint} value */
	put(type, at, value) {
		const v = this.view;
		switch (type) {
			case 'u8': v.setUint8(at, Number(value)); break;
			case 'i8': v.setInt8(at, Number(value)); break;
			case 'u16': v.setUint16(at, Number(value), true); break;
			case 'i16': v.setInt16(at, Number(value), true); break;
			case 'u32': v.setUint32(at, Number(value), true); break;
			case 'i32': v.setInt32(at, Number(value), true); break;
			case 'f32': v.setFloat32(at, Number(value), true); break;
			case 'f64': v.setFloat64(at, Number(value), true); break;
			case 'u64': v.setBigUint64(at, BigInt(value), true); break;
			case 'i64': v.setBigInt64(at, BigInt(value), true); break;
		}
	}
}

/**
 * Serialises a tree of nodes into a FlatBuffer with `identifier` (4 ASCII characters).
 * Returns the bytes plus the slots that refer to external positions, for `resolveExternal`.
 * @param {TableNode} root @param {string} identifier
 */
export function serialize(root, identifier) {
	const out = new Output();
	out.skip(8);
	for (let i = 0; i < 4; i++) out.put('u8', 4 + i, identifier.charCodeAt(i));
	/** @type {Array<{ slot: number, node: Node }>} */
	const queue = [{ slot: 0, node: root }];
	/** @type {Array<{ slot: number, position: number }>} */
	const externals = [];
	while (queue.length > 0) {
		const { slot, node } = /** @type {{ slot: number, node: Node }} */ (queue.shift());
		if (node.kind === 'external') {
			externals.push({ slot, position: node.position });
			continue;
		}
		const at = writeNode(out, node, queue);
		out.put('u32', slot, at - slot);
	}
	return { bytes: out.bytes.slice(0, out.length), externals };
}

/** Patches external slots for an appended buffer that starts at `base`. @param {Uint8Array} bytes @param {Array<{slot:number, position:number}>} externals @param {number} base */
export function resolveExternal(bytes, externals, base) {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	for (const { slot, position } of externals) view.setUint32(slot, base + position - slot, true);
}

/** @param {Output} out @param {Node} node @param {Array<{ slot: number, node: Node }>} queue @returns {number} */
function writeNode(out, node, queue) {
	switch (node.kind) {
		case 'string': {
			const utf8 = new TextEncoder().encode(node.value);
			out.align(4);
			const at = out.skip(4 + utf8.length + 1);
			out.put('u32', at, utf8.length);
			out.bytes.set(utf8, at + 4);
			return at;
		}
		case 'scalars': {
			const size = SIZE[node.type];
			out.align(Math.max(4, size, node.align ?? 1), 4);
			const at = out.skip(4 + size * node.values.length);
			out.put('u32', at, node.values.length);
			for (let i = 0; i < node.values.length; i++) out.put(node.type, at + 4 + i * size, node.values[i]);
			return at;
		}
		case 'refs': {
			out.align(4);
			const at = out.skip(4 + 4 * node.items.length);
			out.put('u32', at, node.items.length);
			node.items.forEach((item, i) => queue.push({ slot: at + 4 + 4 * i, node: item }));
			return at;
		}
		case 'table':
			return writeTable(out, node, queue);
		default:
			throw new Error(`cannot write node ${node.kind}`);
	}
}

/** @param {Output} out @param {TableNode} node @param {Array<{ slot: number, node: Node }>} queue */
function writeTable(out, node, queue) {
	// Largest fields first, so that every field is naturally aligned once the table start is.
	const fields = [...node.fields].sort((a, b) => fieldSize(b) - fieldSize(a));
	let tableAlign = 4;
	let cursor = 4; // the soffset to the vtable comes first
	/** @type {Map<number, number>} */
	const offsets = new Map();
	for (const field of fields) {
		const size = fieldSize(field);
		tableAlign = Math.max(tableAlign, size);
		cursor += (size - (cursor % size)) % size;
		offsets.set(field.index, cursor);
		cursor += size;
	}
	const tableSize = cursor + ((4 - (cursor % 4)) % 4);
	const slots = node.fields.reduce((n, f) => Math.max(n, f.index + 1), 0);
	const vtableSize = 4 + 2 * slots;
	out.align(2);
	out.align(tableAlign, vtableSize);
	const vtable = out.skip(vtableSize);
	out.put('u16', vtable, vtableSize);
	out.put('u16', vtable + 2, tableSize);
	const at = out.skip(tableSize);
	out.put('i32', at, at - vtable);
	for (const field of fields) {
		const offset = /** @type {number} */ (offsets.get(field.index));
		out.put('u16', vtable + 4 + 2 * field.index, offset);
		if (field.scalar) out.put(field.scalar, at + offset, /** @type {number|bigint} */ (field.value));
		else queue.push({ slot: at + offset, node: /** @type {Node} */ (field.child) });
	}
	return at;
}

/** @param {{ scalar?: ScalarType }} field */
const fieldSize = (field) => (field.scalar ? SIZE[field.scalar] : 4);

/** Random access to a FlatBuffer; positions are absolute byte offsets. */
export class Reader {
	/** @param {Uint8Array} bytes */
	constructor(bytes) {
		this.bytes = bytes;
		this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	}
	root() {
		return this.view.getUint32(0, true);
	}
	identifier() {
		return String.fromCharCode(...this.bytes.subarray(4, 8));
	}
	/** Absolute position of field `index` of the table at `table`, or 0 when absent. @param {number} table @param {number} index */
	field(table, index) {
		const vtable = table - this.view.getInt32(table, true);
		const vtableSize = this.view.getUint16(vtable, true);
		if (4 + 2 * index >= vtableSize) return 0;
		const offset = this.view.getUint16(vtable + 4 + 2 * index, true);
		return offset === 0 ? 0 : table + offset;
	}
	/** Number of field slots the table's vtable declares. @param {number} table */
	fieldCount(table) {
		const vtable = table - this.view.getInt32(table, true);
		return (this.view.getUint16(vtable, true) - 4) / 2;
	}
	/** Follows the uoffset stored at `position`. @param {number} position */
	deref(position) {
		return position + this.view.getUint32(position, true);
	}
	/** @param {number} table @param {number} index @returns {number} table position or 0 */
	table(table, index) {
		const at = this.field(table, index);
		return at === 0 ? 0 : this.deref(at);
	}
	/** @param {number} table @param {number} index @returns {{ start: number, length: number } | null} */
	vector(table, index) {
		const at = this.field(table, index);
		if (at === 0) return null;
		const vec = this.deref(at);
		return { start: vec + 4, length: this.view.getUint32(vec, true) };
	}
	/** Tables of a vector of tables. @param {number} table @param {number} index */
	tables(table, index) {
		const vec = this.vector(table, index);
		if (!vec) return [];
		return Array.from({ length: vec.length }, (_, i) => this.deref(vec.start + 4 * i));
	}
	/** @param {number} table @param {number} index */
	string(table, index) {
		const vec = this.vector(table, index);
		if (!vec) return null;
		return new TextDecoder().decode(this.bytes.subarray(vec.start, vec.start + vec.length));
	}
	/** @param {number} table @param {number} index */
	floats(table, index) {
		const vec = this.vector(table, index);
		if (!vec) return null;
		return Array.from({ length: vec.length }, (_, i) => this.view.getFloat32(vec.start + 4 * i, true));
	}
	/** @param {number} table @param {number} index */
	bytesOf(table, index) {
		const vec = this.vector(table, index);
		if (!vec) return null;
		return this.bytes.subarray(vec.start, vec.start + vec.length);
	}
	/** @param {number} table @param {number} index @param {ScalarType} type @param {number} fallback */
	scalar(table, index, type, fallback) {
		const at = this.field(table, index);
		if (at === 0) return fallback;
		switch (type) {
			case 'u8': return this.view.getUint8(at);
			case 'i8': return this.view.getInt8(at);
			case 'u16': return this.view.getUint16(at, true);
			case 'u32': return this.view.getUint32(at, true);
			case 'i32': return this.view.getInt32(at, true);
			case 'f32': return this.view.getFloat32(at, true);
			default: throw new Error(`unsupported scalar ${type}`);
		}
	}
}

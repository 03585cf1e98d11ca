// Face templates are never stored raw (DESIGN.md): each account has a secret 32-byte key, from which a
// deterministic random orthogonal 512×512 matrix Q is derived; the stored template is Q·e. Orthogonal
// maps preserve dot products, so cosine similarity between protected templates equals the one between
// the embeddings and 1:N search works on protected templates directly; without the key a stored
// template cannot be compared with a face, and rotating the key (re-protecting) revokes old copies.
// Q is Haar-random: Gram–Schmidt of a Gaussian matrix drawn from an AES-256-CTR keystream.
import { createCipheriv, createHash, createHmac } from 'node:crypto';
import { EMBEDDING_LENGTH } from '#lib/face/face-thresholds.ts';

export const TEMPLATE_KEY_BYTES = 32;
const DOMAIN = 'veriflow/face-template-rotation/v1';
const CACHE_SIZE = 8;
const cache = new Map<string, Float32Array>();

/** The account's rotation (row-major dim×dim), derived once per key and cached (LRU). */
export function rotationFor(key: Uint8Array, dim = EMBEDDING_LENGTH): Float32Array {
	if (key.length !== TEMPLATE_KEY_BYTES) throw new RangeError(`template key must be ${TEMPLATE_KEY_BYTES} bytes`);
	const id = createHash('sha256').update(key).update(String(dim)).digest('base64');
	const hit = cache.get(id);
	if (hit) {
		cache.delete(id);
		cache.set(id, hit);
		return hit;
	}
	const q = deriveRotation(key, dim);
	cache.set(id, q);
	if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
	return q;
}

function deriveRotation(key: Uint8Array, dim: number): Float32Array {
	const seed = createHmac('sha256', key).update(DOMAIN).digest();
	const cipher = createCipheriv('aes-256-ctr', seed, Buffer.alloc(16));
	const stream = cipher.update(Buffer.alloc(dim * dim * 8));
	const words = new Uint32Array(stream.buffer, stream.byteOffset, stream.byteLength / 4);
	// Box–Muller on 53-bit uniforms in (0, 1).
	const m = new Float64Array(dim * dim);
	const uniform = (i: number) => ((words[i] >>> 5) * 67108864 + (words[i + 1] >>> 6) + 0.5) / 9007199254740992;
	for (let i = 0; i < dim * dim; i += 2) {
		const r = Math.sqrt(-2 * Math.log(uniform(2 * i)));
		const t = 2 * Math.PI * uniform(2 * i + 2);
		m[i] = r * Math.cos(t);
		if (i + 1 < dim * dim) m[i + 1] = r * Math.sin(t);
	}
	// Modified Gram–Schmidt on the rows, in float64: a Gaussian matrix is well enough conditioned that
	// one pass is orthogonal far below float32 precision (checked in the spec).
	for (let row = 0; row < dim; row++) {
		const r = row * dim;
		for (let prev = 0; prev < row; prev++) {
			const p = prev * dim;
			let dot = 0;
			for (let k = 0; k < dim; k++) dot += m[r + k] * m[p + k];
			for (let k = 0; k < dim; k++) m[r + k] -= dot * m[p + k];
		}
		let norm = 0;
		for (let k = 0; k < dim; k++) norm += m[r + k] * m[r + k];
		norm = Math.sqrt(norm);
		for (let k = 0; k < dim; k++) m[r + k] /= norm;
	}
	return Float32Array.from(m);
}

/** Q·e: the template to store for an embedding. */
export function protectTemplate(embedding: ArrayLike<number>, key: Uint8Array): Float32Array {
	const dim = embedding.length;
	const q = rotationFor(key, dim);
	const out = new Float32Array(dim);
	for (let i = 0; i < dim; i++) {
		let s = 0;
		const row = i * dim;
		for (let k = 0; k < dim; k++) s += q[row + k] * embedding[k];
		out[i] = s;
	}
	return out;
}

/** Qᵀ·t: the embedding back from a protected template (for re-protecting under a new key). */
export function unprotectTemplate(template: ArrayLike<number>, key: Uint8Array): Float32Array {
	const dim = template.length;
	const q = rotationFor(key, dim);
	const out = new Float64Array(dim);
	for (let i = 0; i < dim; i++) {
		const row = i * dim;
		const t = template[i];
		for (let k = 0; k < dim; k++) out[k] += q[row + k] * t;
	}
	return Float32Array.from(out);
}

/** Moves a template from one key to another (key rotation revokes the old stored copies). */
export function reprotectTemplate(template: ArrayLike<number>, from: Uint8Array, to: Uint8Array): Float32Array {
	return protectTemplate(unprotectTemplate(template, from), to);
}

const FORMAT_VERSION = 1;

/** Bytes to store: a version byte, three zero bytes, then little-endian float32 values. */
export function encodeTemplate(template: Float32Array): Uint8Array {
	const out = new Uint8Array(4 + template.length * 4);
	out[0] = FORMAT_VERSION;
	const view = new DataView(out.buffer);
	template.forEach((v, i) => view.setFloat32(4 + 4 * i, v, true));
	return out;
}

export function decodeTemplate(bytes: Uint8Array): Float32Array {
	if (bytes[0] !== FORMAT_VERSION || (bytes.length - 4) % 4 !== 0) throw new RangeError('not a stored face template');
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return Float32Array.from({ length: (bytes.length - 4) / 4 }, (_, i) => view.getFloat32(4 + 4 * i, true));
}

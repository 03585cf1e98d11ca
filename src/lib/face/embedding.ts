// Face embeddings are compared by cosine similarity; stored and searched L2-normalised, where the
// cosine is a dot product.

/** Scales `v` to unit length in place (a zero vector stays zero) and returns it. */
export function l2Normalize<T extends Float32Array | number[]>(v: T): T {
	let sum = 0;
	for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
	const norm = Math.sqrt(sum);
	if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
	return v;
}

/** Cosine similarity of two vectors of the same length, −1 to 1 (0 when either is zero). */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
	if (a.length !== b.length) throw new RangeError(`length mismatch: ${a.length} vs ${b.length}`);
	let dot = 0;
	let na = 0;
	let nb = 0;
	for (let i = 0; i < a.length; i++) {
		dot += a[i] * b[i];
		na += a[i] * a[i];
		nb += b[i] * b[i];
	}
	return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

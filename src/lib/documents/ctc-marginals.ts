/**
 * CTC forward–backward over a line whose length and per-position character set are known: the
 * probability that the recogniser's output is *some* string of exactly that shape, and for every
 * position the probability of each character there. This is what lets the MRZ decoder keep the
 * recogniser's doubt (a `<` that might be a `K`) instead of the single greedy guess.
 *
 * Input: a [T, 1 + K] matrix per time step, column 0 the CTC blank, column 1 + k the k-th
 * character of the alphabet the caller uses (rows need not sum to 1; they are the model's scores).
 *
 * Position j is only considered within a band of time steps around j·T/L (BAND of the line's
 * length either side): MRZ glyphs are evenly spaced, and the band keeps the search linear in the
 * line's length instead of quadratic.
 */
export interface LineMarginals {
	/** log P(output has this shape): comparable between shapes (line lengths) on the same matrix. */
	logLikelihood: number;
	/** [L][K]: P(character k at position j | the shape). Rows sum to 1. */
	posteriors: Float64Array[];
	/** [L]: the expected time step at which position j's character is first emitted (where its glyph is). */
	entrySteps: Float64Array;
}

/** Half-width of the band, as a share of the line's characters. */
const BAND = 0.2;

/**
 * `allowed[j]` is a K-long 0/1 mask of the characters position j may hold. Null when no path of
 * that shape fits (fewer time steps than characters, an empty position, nothing inside the band).
 */
export function lineMarginals(probs: Float32Array, steps: number, k: number, allowed: readonly Uint8Array[], options: { likelihoodOnly?: boolean } = {}): LineMarginals | null {
	const L = allowed.length;
	const C = 1 + k;
	if (L === 0 || steps < L || allowed.some((m) => !m.some((v) => v))) return null;
	// State layout per time step: blanks b_0..b_L, then chars (j, c) at L + 1 + j * k + c.
	const S = L + 1 + L * k;
	const base = L + 1;
	// Only the allowed characters of each position are visited (letters-only, digits-only positions are common).
	const lists = allowed.map((m) => Int32Array.from([...m.keys()].filter((c) => m[c])));
	const half = Math.max(3, Math.ceil(BAND * L));
	const lo = new Int32Array(steps), hi = new Int32Array(steps);
	for (let t = 0; t < steps; t++) {
		const centre = ((t + 0.5) * L) / steps;
		lo[t] = Math.max(0, Math.floor(centre - half));
		hi[t] = Math.min(L - 1, Math.ceil(centre + half));
	}
	lo[0] = 0;
	hi[steps - 1] = L - 1;
	// Comparing shapes needs only the likelihood, so only two rows of α (the backward pass, for the
	// shape chosen, reads them all).
	const rolling = options.likelihoodOnly === true;
	const alpha = new Float64Array((rolling ? 2 : steps) * S);
	const at = (t: number) => (rolling ? t & 1 : t) * S;
	const logScale = new Float64Array(steps);
	const sums = new Float64Array(L + 1);

	alpha[0] = probs[0];
	for (let i = 0; i < lists[0].length; i++) alpha[base + lists[0][i]] = probs[1 + lists[0][i]];
	logScale[0] = normaliseBand(alpha, 0, base, k, lo[0], hi[0]);
	for (let t = 1; t < steps; t++) {
		const prev = at(t - 1), cur = at(t), row = t * C;
		if (rolling) alpha.fill(0, cur, cur + S);
		const pb = probs[row];
		const jl = lo[t], jh = hi[t];
		for (let j = Math.max(0, jl - 1); j <= jh; j++) {
			let s = 0;
			const list = lists[j], o = prev + base + j * k;
			for (let i = 0; i < list.length; i++) s += alpha[o + list[i]];
			sums[j] = s;
		}
		for (let j = jl; j <= jh + 1; j++) alpha[cur + j] = pb * (alpha[prev + j] + (j > 0 ? sums[j - 1] : 0));
		for (let j = jl; j <= jh; j++) {
			const before = alpha[prev + j];
			const list = lists[j], o = base + j * k, op = prev + base + (j - 1) * k;
			const sumBefore = j > 0 ? sums[j - 1] : 0;
			for (let i = 0; i < list.length; i++) {
				const c = list[i];
				// Stay on the character, come from the blank before it, or from a different character before it.
				const fromChar = j > 0 ? sumBefore - alpha[op + c] : 0;
				alpha[cur + o + c] = probs[row + 1 + c] * (alpha[prev + o + c] + before + fromChar);
			}
		}
		logScale[t] = logScale[t - 1] + normaliseBand(alpha, cur, base, k, jl, jh);
	}
	const last = at(steps - 1);
	let endMass = alpha[last + L];
	for (let i = 0; i < lists[L - 1].length; i++) endMass += alpha[last + base + (L - 1) * k + lists[L - 1][i]];
	if (!(endMass > 0) || !Number.isFinite(logScale[steps - 1])) return null;
	const logZ = Math.log(endMass) + logScale[steps - 1];
	// Comparing shapes needs only the likelihood: the backward pass is for the one chosen.
	if (options.likelihoodOnly) return { logLikelihood: logZ, posteriors: [], entrySteps: new Float64Array(0) };

	// Backward pass, accumulating for each (j, c) the probability of the paths that enter it at t.
	const post = Array.from({ length: L }, () => new Float64Array(k));
	const entryTime = new Float64Array(L), entryMass = new Float64Array(L);
	let beta = new Float64Array(S);
	let next = new Float64Array(S);
	beta[L] = 1;
	for (let i = 0; i < lists[L - 1].length; i++) beta[base + (L - 1) * k + lists[L - 1][i]] = 1;
	let logBeta = 0;
	for (let t = steps - 1; t >= 0; t--) {
		const row = t * C;
		const jl = lo[t], jh = hi[t];
		const weight = t > 0 ? Math.exp(logScale[t - 1] + logBeta - logZ) : Math.exp(logBeta - logZ);
		if (t === 0) {
			for (let i = 0; i < lists[0].length; i++) {
				const c = lists[0][i];
				const v = weight * probs[row + 1 + c] * beta[base + c];
				post[0][c] += v;
				entryMass[0] += v;
			}
		} else {
			const prev = (t - 1) * S;
			for (let j = jl; j <= jh; j++) {
				let s = 0;
				const op = prev + base + (j - 1) * k;
				if (j > 0) {
					const pl = lists[j - 1];
					for (let i = 0; i < pl.length; i++) s += alpha[op + pl[i]];
				}
				const list = lists[j], o = base + j * k, pj = post[j];
				const blankBefore = alpha[prev + j];
				let entered = 0;
				for (let i = 0; i < list.length; i++) {
					const c = list[i];
					const b = beta[o + c];
					if (b === 0) continue;
					const into = blankBefore + (j > 0 ? s - alpha[op + c] : 0);
					const v = weight * probs[row + 1 + c] * into * b;
					pj[c] += v;
					entered += v;
				}
				entryTime[j] += t * entered;
				entryMass[j] += entered;
			}
		}
		if (t === 0) break;
		// β_{t-1} from β_t, for the states inside the band at t - 1.
		next.fill(0);
		const pb = probs[row];
		const pl = lo[t - 1], ph = hi[t - 1];
		for (let j = pl; j <= ph + 1; j++) {
			let v = pb * beta[j];
			if (j < L) {
				const list = lists[j], o = base + j * k;
				for (let i = 0; i < list.length; i++) v += probs[row + 1 + list[i]] * beta[o + list[i]];
			}
			next[j] = v;
		}
		for (let j = pl; j <= ph; j++) {
			// Sum over the next position's characters, minus the same character (needs a blank between).
			let nextSum = 0;
			const on = base + (j + 1) * k;
			if (j + 1 < L) {
				const nl = lists[j + 1];
				for (let i = 0; i < nl.length; i++) nextSum += probs[row + 1 + nl[i]] * beta[on + nl[i]];
			}
			const nextMask = j + 1 < L ? allowed[j + 1] : null;
			const list = lists[j], o = base + j * k;
			const toBlank = pb * beta[j + 1];
			for (let i = 0; i < list.length; i++) {
				const c = list[i];
				const same = nextMask && nextMask[c] ? probs[row + 1 + c] * beta[on + c] : 0;
				next[o + c] = probs[row + 1 + c] * beta[o + c] + toBlank + nextSum - same;
			}
		}
		logBeta += normaliseBand(next, 0, base, k, pl, ph);
		[beta, next] = [next, beta];
	}
	for (const p of post) {
		let s = 0;
		for (let c = 0; c < k; c++) s += p[c];
		if (s > 0) for (let c = 0; c < k; c++) p[c] /= s;
	}
	const entrySteps = entryTime.map((v, j) => (entryMass[j] > 0 ? v / entryMass[j] : ((j + 0.5) * steps) / L));
	return { logLikelihood: logZ, posteriors: post, entrySteps };
}

/**
 * Scales one time step's states to sum 1 and returns the log of the factor taken out. Only the band
 * can hold mass (blanks jl…jh + 1, the characters of positions jl…jh); the rest of the row is 0, so
 * summing the band in index order gives the whole row's sum exactly.
 */
function normaliseBand(a: Float64Array, from: number, base: number, k: number, jl: number, jh: number): number {
	const b0 = from + jl, b1 = Math.min(from + base, from + jh + 2);
	const c0 = from + base + jl * k, c1 = from + base + (jh + 1) * k;
	let s = 0;
	for (let i = b0; i < b1; i++) s += a[i];
	for (let i = c0; i < c1; i++) s += a[i];
	if (!(s > 0)) return -Infinity;
	for (let i = b0; i < b1; i++) a[i] /= s;
	for (let i = c0; i < c1; i++) a[i] /= s;
	return Math.log(s);
}

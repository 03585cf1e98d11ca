/** Characters an MRZ may contain. */
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

export interface CtcResult {
	text: string;
	/** Mean probability of the emitted characters (0 when none). */
	confidence: number;
	/** Probability of each emitted character (so one unsure glyph is not averaged away). */
	charConfidences: number[];
}

/**
 * Greedy CTC decoding of a [T, C] probability matrix whose class 0 is the blank and class i is
 * `labels[i - 1]`. With `allowed`, only those characters (and the blank) compete for each step.
 */
export function ctcGreedyDecode(
	probs: Float32Array,
	steps: number,
	classes: number,
	labels: readonly string[],
	allowed?: ReadonlySet<number>,
	/** Class index → weight applied before the arg-max (a prior, e.g. for the MRZ filler). */
	weights?: ReadonlyMap<number, number>
): CtcResult {
	let text = '';
	let sum = 0;
	let n = 0;
	let prev = -1;
	const charConfidences: number[] = [];
	const candidates = allowed ? [0, ...allowed] : null;
	for (let t = 0; t < steps; t++) {
		const row = t * classes;
		let best = 0;
		let bestP = -Infinity;
		if (candidates) {
			for (const c of candidates) {
				const p = probs[row + c] * (weights?.get(c) ?? 1);
				if (p > bestP) (bestP = p), (best = c);
			}
		} else {
			for (let c = 0; c < classes; c++) if (probs[row + c] > bestP) (bestP = probs[row + c]), (best = c);
		}
		if (best !== 0 && best !== prev) {
			const label = labels[best - 1] ?? '';
			text += label;
			for (let k = 0; k < [...label].length; k++) charConfidences.push(probs[row + best]);
			sum += probs[row + best];
			n++;
		}
		prev = best;
	}
	return { text, confidence: n ? sum / n : 0, charConfidences };
}

/** Class indices (1-based, as in the model output) of the given characters in a label list. */
export function classIndices(labels: readonly string[], chars: string): Set<number> {
	const set = new Set<number>();
	for (const ch of chars) {
		const i = labels.indexOf(ch);
		if (i >= 0) set.add(i + 1);
	}
	return set;
}

/**
 * Weight of the MRZ filler `<` against the letters: the general-purpose recogniser often reads
 * OCR-B chevrons as `K` while still giving `<` a fair share, whereas a real `K` leaves `<` near zero.
 */
export const MRZ_FILLER_WEIGHT = 4;

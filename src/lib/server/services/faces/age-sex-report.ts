// How a network's age and sex estimate becomes the report's `ageMin`, `ageMax` and `sex`: the age as
// a range widened by the error measured on labelled faces, the sex only when the network is sure.
// The figures come from `npx tsx scripts/eval/age-sex.ts` (bench/results/age-sex-eval.md): 12 faces
// with a known age, 15 with a known sex. That is very few; the README says what they can and cannot
// promise.
import type { AgeSex } from '../../biometrics/age-sex-estimator.ts';

/**
 * Largest errors measured (estimate − true age): the network read Joe Biden at 78 as 59.9 (−18.1)
 * and Sasha Obama at 10 as 24.8 (+14.8). With 12 faces a 5–95 % interval cannot be told from the
 * whole range, so the range covers every measured error: it held for 12 of 12.
 */
export const AGE_UNDERESTIMATE_YEARS = 18.1;
export const AGE_OVERESTIMATE_YEARS = 14.8;
/**
 * Sex is reported at or above this probability. On the 15 faces, the one wrong answer came at 0.53
 * and every answer at ≥ 0.85 was right (12 of 12); two right answers (0.73, 0.83) fall below it.
 * 0.85 rather than the lowest threshold that separates them (0.54): one wrong answer is no basis
 * for a cut that close to chance.
 */
export const SEX_MIN_PROBABILITY = 0.85;

export interface AgeSexFinding {
	/** The network's estimate, rounded to a tenth. */
	age: number;
	ageMin: number;
	ageMax: number;
	sex?: 'male' | 'female';
	sexProbability: number;
}

/** The age range the person's true age fell in for every measured face: never below 0. */
export function ageRange(age: number): { ageMin: number; ageMax: number } {
	return { ageMin: Math.max(0, Math.floor(age - AGE_OVERESTIMATE_YEARS)), ageMax: Math.ceil(age + AGE_UNDERESTIMATE_YEARS) };
}

/** What the report may say about one estimate (`sex` absent below the threshold). */
export function ageSexFinding(estimate: AgeSex): AgeSexFinding {
	return {
		age: Math.round(estimate.age * 10) / 10,
		...ageRange(estimate.age),
		...(estimate.sexProbability >= SEX_MIN_PROBABILITY ? { sex: estimate.sex } : {}),
		sexProbability: Math.round(estimate.sexProbability * 100) / 100
	};
}

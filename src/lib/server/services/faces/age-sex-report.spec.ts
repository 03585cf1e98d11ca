import { describe, expect, it } from 'vitest';
import { AGE_OVERESTIMATE_YEARS, AGE_UNDERESTIMATE_YEARS, ageRange, ageSexFinding, SEX_MIN_PROBABILITY } from './age-sex-report.ts';

describe('ageSexFinding', () => {
	it('widens the estimate by the measured errors, in whole years, never below 0', () => {
		expect(ageRange(40)).toEqual({ ageMin: Math.floor(40 - AGE_OVERESTIMATE_YEARS), ageMax: Math.ceil(40 + AGE_UNDERESTIMATE_YEARS) });
		expect(ageRange(40)).toEqual({ ageMin: 25, ageMax: 59 });
		expect(ageRange(8).ageMin).toBe(0);
		// The worst reads of the evaluation stay inside: 78 read as 59.9, 10 read as 24.8.
		expect(ageRange(59.9).ageMax).toBeGreaterThanOrEqual(78);
		expect(ageRange(24.8).ageMin).toBeLessThanOrEqual(10);
	});

	it('keeps the sex only at or above the threshold, and the network values as they were', () => {
		expect(ageSexFinding({ age: 35.26, sex: 'female', sexProbability: SEX_MIN_PROBABILITY })).toEqual({ age: 35.3, ageMin: 20, ageMax: 54, sex: 'female', sexProbability: 0.85 });
		expect(ageSexFinding({ age: 35.26, sex: 'male', sexProbability: 0.84 })).not.toHaveProperty('sex');
	});
});

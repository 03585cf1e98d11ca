import { describe, expect, it } from 'vitest';
import { scores } from '../../../tests/helpers/mrz-scores.ts';
import { breakInDoubt, lineLogLikelihood, mrzSpellings, printedNames } from './printed-names.ts';
import type { VizText } from './viz-compare.ts';

const sure = (text: string): VizText => ({ text, charConfidences: [...text].map(() => 0.99) });
const LINE2 = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';
// The given name's O (position 15) hidden under an overprint: the recogniser half sees a filler there.
const TRUE_LINE = 'P<UTOERIKSSON<<ANNA<BOB<<<<<<<<<<<<<<<<<<<<<';
const HIDDEN_O = { 21: { '<': 0.5, O: 0.4, B: 0.05 } };

describe('mrzSpellings', () => {
	it('spells a printed name as the MRZ does, each 9303 choice', () => {
		expect(mrzSpellings(sure('Müller-Lüdenscheidt'))).toEqual(['MUELLER<LUEDENSCHEIDT', 'MUELLER<LUDENSCHEIDT', 'MULLER<LUEDENSCHEIDT', 'MULLER<LUDENSCHEIDT']);
		expect(mrzSpellings(sure("O'Neil"))).toEqual(['ONEIL']);
	});

	it('refuses a print read unsurely or holding digits', () => {
		expect(mrzSpellings({ text: 'BOB', charConfidences: [0.99, 0.6, 0.99] })).toBeNull();
		expect(mrzSpellings(sure('B0B'))).toBeNull();
		expect(mrzSpellings(sure('1990'))).toBeNull();
	});
});

describe('printedNames', () => {
	const lineScores = [scores(TRUE_LINE, HIDDEN_O), scores(LINE2)];
	const decoded = ['P<UTOERIKSSON<<ANNA<B<B<<<<<<<<<<<<<<<<<<<<<'.slice(0, 44), LINE2];

	it('scores an exact line: the hidden glyph makes both readings possible', () => {
		const withO = lineLogLikelihood(lineScores[0], TRUE_LINE)!;
		const withFiller = lineLogLikelihood(lineScores[0], 'P<UTOERIKSSON<<ANNA<B<B<<<<<<<<<<<<<<<<<<<<<')!;
		expect(Math.exp(withO - withFiller)).toBeCloseTo((0.4 / 0.5) ** 2, 1);
		// Six glyphs more than the line shows: possible only with every extra glyph unseen.
		expect(lineLogLikelihood(lineScores[0], TRUE_LINE + '<<<<<<')!).toBeLessThan(withO - 20);
		expect(lineLogLikelihood(lineScores[0], TRUE_LINE.toLowerCase())).toBeNull();
	});

	it('takes a doubted given name as printed where the MRZ cannot tell', () => {
		const named = printedNames('TD3', decoded, lineScores, { firstName: sure('Anna Bob') }, ['firstName']);
		expect(named?.lines[0]).toBe(TRUE_LINE);
		expect(named?.fields).toEqual(['firstName']);
	});

	it('keeps the MRZ where its glyphs clearly say otherwise (a tampered print)', () => {
		// The print says ANNA ROB; the MRZ's R position clearly reads B.
		expect(printedNames('TD3', decoded, lineScores, { firstName: sure('Anna Rob') }, ['firstName'])).toBeNull();
		// Altered in one clear glyph while the decoding itself is poor: still refused.
		const smeared = ['P<UTOERIKSSON<<ANXA<B<B<<<<<<<<<<<<<<<<<<<<<', LINE2];
		expect(printedNames('TD3', smeared, lineScores, { firstName: sure('Anne Bob') }, ['firstName'])).toBeNull();
	});

	it('keeps the MRZ where it shows a filler the print reading dropped', () => {
		// The print says ANNA BOB, its recogniser read ANNABOB. Under an overprint the MRZ's <BOB is
		// smeared (each glyph 0.7, the print's shifted glyph 0.28), yet with the filler it is still
		// 0.7⁴ / 0.28⁴ = 39 times likelier than without; no single letter changed says so.
		const smearedTail = { 19: { '<': 0.7, B: 0.28 }, 20: { B: 0.7, O: 0.28 }, 21: { O: 0.7, B: 0.28 }, 22: { B: 0.7, '<': 0.28 } };
		const tail = [scores(TRUE_LINE, smearedTail), scores(LINE2)];
		const poor = ['P<UTOERIKSSON<<ANXA<BOB<<<<<<<<<<<<<<<<<<<<<', LINE2];
		expect(printedNames('TD3', poor, tail, { firstName: sure('AnnaBob') }, ['firstName'])).toBeNull();
		// Printed with its space, the same name is taken.
		expect(printedNames('TD3', poor, tail, { firstName: sure('Anna Bob') }, ['firstName'])?.lines[0]).toBe(TRUE_LINE);
	});

	it('leaves a name the reading was sure of, or one the print does not give', () => {
		expect(printedNames('TD3', decoded, lineScores, { firstName: sure('Anna Bob') }, ['lastName'])).toBeNull();
		expect(printedNames('TD3', decoded, lineScores, { lastName: sure('Eriksson') }, ['firstName'])).toBeNull();
	});

	it('does not try a printed name longer than the field', () => {
		expect(printedNames('TD3', decoded, lineScores, { firstName: sure('Anna Bob Maximilian Alexander Constantine') }, ['firstName'])).toBeNull();
	});
});

describe('breakInDoubt', () => {
	const RUN_TOGETHER = 'P<UTOERIKSSON<<ANNABOB<<<<<<<<<<<<<<<<<<<<<<';

	it('finds a filler the MRZ may hold between two letters of a name read without one', () => {
		// The given name's <BOB smeared as in the test above: ANNA<BOB is 39 times likelier than ANNABOB.
		const smearedTail = { 19: { '<': 0.7, B: 0.28 }, 20: { B: 0.7, O: 0.28 }, 21: { O: 0.7, B: 0.28 }, 22: { B: 0.7, '<': 0.28 } };
		expect(breakInDoubt('TD3', [RUN_TOGETHER, LINE2], [scores(TRUE_LINE, smearedTail), scores(LINE2)], 'firstName')).toBe(true);
		// Only the given name holds the doubt.
		expect(breakInDoubt('TD3', [RUN_TOGETHER, LINE2], [scores(TRUE_LINE, smearedTail), scores(LINE2)], 'lastName')).toBe(false);
	});

	it('finds none where the glyphs are clear, whichever way the name is written', () => {
		expect(breakInDoubt('TD3', [RUN_TOGETHER, LINE2], [scores(RUN_TOGETHER), scores(LINE2)], 'firstName')).toBe(false);
		expect(breakInDoubt('TD3', [TRUE_LINE, LINE2], [scores(TRUE_LINE), scores(LINE2)], 'firstName')).toBe(false);
		// A filler hidden under an overprint where the name already has one: nothing to put in.
		expect(breakInDoubt('TD3', [TRUE_LINE, LINE2], [scores(TRUE_LINE, HIDDEN_O), scores(LINE2)], 'firstName')).toBe(false);
	});
});

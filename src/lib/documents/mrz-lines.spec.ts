import { describe, expect, it } from 'vitest';
import { cleanMrzLine, countValidChecks, findMrzCandidate, fitLineLength, normaliseMrzLines } from './mrz-lines.ts';

const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

describe('cleanMrzLine', () => {
	it('keeps only A–Z 0–9 < and maps chevron look-alikes', () => {
		expect(cleanMrzLine('p<uto erik«son‹x')).toBe('P<UTOERIK<<SON<X');
		expect(cleanMrzLine('L898 902C3-6')).toBe('L898902C36');
	});
});

describe('fitLineLength', () => {
	it('grows or shrinks the longest filler run', () => {
		expect(fitLineLength('AB<<<<CD<', 10)).toBe('AB<<<<<CD<');
		expect(fitLineLength('AB<<<<CD<', 7)).toBe('AB<<CD<');
		expect(fitLineLength(TD3[0].slice(0, 42), 44)).toBe(TD3[0]);
	});

	it('gives up when the line is too far off or has nothing to adjust', () => {
		expect(fitLineLength('ABCDEFGH', 14)).toBeNull();
		expect(fitLineLength('ABCDEFGH', 7)).toBeNull();
	});
});

describe('normaliseMrzLines', () => {
	it("reads a passport's document code as letters, and leaves a card's digit there", () => {
		expect(normaliseMrzLines(['P0' + TD3[0].slice(2), TD3[1]], 'TD3').lines[0].slice(0, 2)).toBe('PO');
		expect(normaliseMrzLines(['C1' + TD1[0].slice(2), TD1[1], TD1[2]], 'TD1').lines[0].slice(0, 2)).toBe('C1');
	});

	it('fixes letters in numeric fields and digits in alphabetic ones', () => {
		const noisy = ['P<UT0ERIKSS0N<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO74O8I22F12O4159ZE184226B<<<<<1O'];
		const { lines, corrections } = normaliseMrzLines(noisy, 'TD3');
		expect(lines).toEqual(TD3);
		expect(corrections.every((c) => c.reason === 'character-class')).toBe(true);
	});

	it('repairs a look-alike in the document number only when check digit and composite confirm it', () => {
		// 0 misread as O inside the alphanumeric document number.
		const noisy = [TD3[0], 'L8989O2C36UTO7408122F1204159ZE184226B<<<<<10'];
		const { lines, corrections } = normaliseMrzLines(noisy, 'TD3');
		expect(lines[1]).toBe(TD3[1]);
		expect(corrections).toContainEqual({ line: 1, column: 5, from: 'O', to: '0', reason: 'check-digit' });
	});

	it('picks the most uniform repair when several satisfy the check digits', () => {
		const noisy = ['P<ISLAEVARSDOTTIR<<THURIDUR<OESP<<<<<<<<<<<<', 'A00D0000<0ISL6612315F0905264311266<9539<<<32'];
		const { lines } = normaliseMrzLines(noisy, 'TD3');
		expect(lines[1]).toBe('A0000000<0ISL6612315F0905264311266<9539<<<32');
	});

	it('turns chevrons read as K after the last name into fillers, keeping a final K of a name', () => {
		const { lines } = normaliseMrzLines(['P<UTOERIKSSON<<ANNA<MARIAKKKK<KK<K<<<KK<KKSK', TD3[1]], 'TD3');
		expect(lines[0]).toBe(TD3[0]);
		const novak = normaliseMrzLines(['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'NOVAK<<JANEK<<<<<<<<<<<<<<<<<<'], 'TD1');
		expect(novak.lines[2]).toBe('NOVAK<<JANEK<<<<<<<<<<<<<<<<<<');
		const thomas = normaliseMrzLines(['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'DOE<<THOMAS<<K<<<<<<<<<<<<<<<<'], 'TD1');
		expect(thomas.lines[2]).toBe('DOE<<THOMAS<<<<<<<<<<<<<<<<<<<');
	});

	it('keeps a name that ends in CK, and turns a CK that follows a filler into fillers', () => {
		const line1 = 'I<UTOD231458907<<<<<<<<<<<<<<<', line2 = '7408122M1204159UTO<<<<<<<<<<<6';
		expect(normaliseMrzLines([line1, line2, 'SMITH<<PATRICK<<<<<<<<<<<<<<<<'], 'TD1').lines[2]).toBe('SMITH<<PATRICK<<<<<<<<<<<<<<<<');
		expect(normaliseMrzLines([line1, line2, 'BECK<<JACK<CK<<<<<<<<<<<<<<<<<'], 'TD1').lines[2]).toBe('BECK<<JACK<<<<<<<<<<<<<<<<<<<<');
		expect(normaliseMrzLines([line1, line2, 'SMITH<<ANNACKK<<<<<<<<<<<<<<<<'], 'TD1').lines[2]).toBe('SMITH<<ANNA<<<<<<<<<<<<<<<<<<<');
	});

	it('restores a misread surname separator only when the names have none', () => {
		const deu = normaliseMrzLines(['IDD<<T220001293<<<<<<<<<<<<<<<', '6408125<2010315D<<<<<<<<<<<<<4', 'MUSTERMANNK<ERIKA<<<<<<<<<<<<<'], 'TD1');
		expect(deu.lines[2]).toBe('MUSTERMANN<<ERIKA<<<<<<<<<<<<<');
		const compound = normaliseMrzLines(['IDD<<T220001293<<<<<<<<<<<<<<<', '6408125<2010315D<<<<<<<<<<<<<4', 'DVORAK<NOVAKOVA<<JANA<<<<<<<<<'], 'TD1');
		expect(compound.lines[2]).toBe('DVORAK<NOVAKOVA<<JANA<<<<<<<<<');
	});

	it('restores filler runs in optional data when the composite check digit confirms them', () => {
		const noisy = ['P<CANMARTIN<<SARAH<<<<<<<<<<<<<<<<<<<<<<C<<<', 'ZE000509<9CAN8501019F2301147<<<C<<CC<<<<<<08'];
		const { lines } = normaliseMrzLines(noisy, 'TD3');
		expect(lines).toEqual(['P<CANMARTIN<<SARAH<<<<<<<<<<<<<<<<<<<<<<<<<<', 'ZE000509<9CAN8501019F2301147<<<<<<<<<<<<<<08']);
	});

	it('leaves a genuinely wrong check digit alone (and reports it through the checks)', () => {
		const broken = [TD3[0], 'L898902C37UTO7408122F1204159ZE184226B<<<<<10'];
		const { lines } = normaliseMrzLines(broken, 'TD3');
		expect(lines[1]).toBe(broken[1]);
		expect(countValidChecks(lines, 'TD3')).toEqual({ valid: 3, total: 5 });
	});
});

describe('findMrzCandidate', () => {
	it('finds a TD3 among other text, fixing a miscounted filler run', () => {
		const c = findMrzCandidate(['PASSPORT', 'ERIKSSON', TD3[0].slice(0, 41), TD3[1]]);
		expect(c?.layout).toBe('TD3');
		expect(c?.lines).toEqual(TD3);
		expect(c?.start).toBe(2);
	});

	it('finds TD1, TD2 and the visa layouts', () => {
		expect(findMrzCandidate(TD1)?.layout).toBe('TD1');
		expect(findMrzCandidate(['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'])?.layout).toBe('TD2');
		expect(findMrzCandidate(['VIUSATRAVELER<<HAPPYPERSON<<<<<<<<<<<<<<<<<<', '555123ABC6GBR6502056F04122361FLND00AMS803085'])?.layout).toBe('MRV-A');
		expect(findMrzCandidate(['VCPOLKOWALSKA<KWIATKOWSKA<<BEATA<<<<', 'PL00000008POL6002084F0505011<<<<<<<0'])?.layout).toBe('MRV-B');
	});

	it('finds nothing in ordinary text', () => {
		expect(findMrzCandidate(['UTOPIA', 'PASSPORTPASSEPORT', 'HOLLOWAY'])).toBeNull();
	});
});

import { describe, expect, it } from 'vitest';
import { buildMrz } from '#lib/documents/mrz-build.ts';
import { parseMrzLines } from '#lib/documents/mrz-parse.ts';
import type { Quad, Raster } from '#lib/documents/raster.ts';
import type { TextBox } from '#lib/documents/text-detection.ts';
import type { CtcResult } from '#lib/documents/ctc-decode.ts';
import { readViz, stillOpen } from './viz-reader.ts';
import type { VizCheck } from '#lib/documents/viz-compare.ts';

// ICAO 9303's specimen holder, upright page, MRZ at y 500–540 (two 18 px lines).
const mrz = parseMrzLines(
	buildMrz('TD3', { documentCode: 'P', issuingState: 'UTO', lastName: 'ERIKSSON', firstName: 'ANNA MARIA', documentNumber: 'L898902C3', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '340415' })
);
const mrzQuads: Quad[] = [line(40, 500, 900, 18), line(40, 522, 900, 18)];
const image: Raster = { width: 1000, height: 600, channels: 3, data: new Uint8Array(1000 * 600 * 3) };

function line(x: number, y: number, w: number, h: number): Quad {
	return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
}

/** A data page: captions (12 px) with their values (18 px) under them, and other print above them. */
const PRINT: { text: string; quad: Quad; unsureAt?: number }[] = [
	{ text: 'Surname', quad: line(300, 100, 70, 12) },
	{ text: 'ERIKSSON', quad: line(300, 114, 100, 18), unsureAt: 3 },
	{ text: 'Given names', quad: line(300, 150, 110, 12) },
	{ text: 'ANNA MARIA', quad: line(300, 164, 126, 18) },
	{ text: 'Passport No.', quad: line(700, 60, 100, 12) },
	{ text: 'L898902C3', quad: line(700, 74, 113, 18) },
	{ text: 'Date of birth', quad: line(300, 200, 110, 12) },
	{ text: '12 AUG 1974', quad: line(300, 214, 126, 18) },
	{ text: 'Date of expiry', quad: line(300, 300, 110, 12) },
	{ text: '15 APR 2034', quad: line(300, 314, 126, 18) },
	// Print that is none of the five fields: the page's other captions and values.
	...['Authority', 'PASSPORT OFFICE', 'Place of birth', 'ZENITH', 'Sex', 'Remarks', 'NONE', 'Height', '168 CM'].map((text, i) => ({ text, quad: line(600, 200 + 20 * i, 100, 12) }))
];
const boxes: TextBox[] = PRINT.map((p) => ({ quad: p.quad, score: 0.9, rect: { cx: 0, cy: 0, width: 1, height: 1, angle: 0 } }));

/** Reads each box as printed; one glyph of the surname at 0.7 (neither vouches nor contradicts). */
function engine() {
	const read: string[] = [];
	return {
		read,
		async recognizeMany(_image: Raster, quads: readonly Quad[]): Promise<CtcResult[]> {
			return quads.map((q) => {
				const p = PRINT.find((x) => x.quad[0][0] === q[0][0] && x.quad[0][1] === q[0][1])!;
				read.push(p.text);
				const charConfidences = [...p.text].map((_, i) => (i === p.unsureAt ? 0.7 : 0.99));
				return { text: p.text, confidence: 0.95, charConfidences };
			});
		}
	};
}

const at = { skew: 0, flipped: false, mrzQuads };

describe('readViz', () => {
	it('stops once every field is settled: a doubtful surname the MRZ read surely is not worth reading the rest of the page for', async () => {
		const e = engine();
		const v = await readViz(e, image, boxes, mrz, at, []);
		expect(v.check.fields).toEqual({ lastName: 'unsure', firstName: 'agree', documentNumber: 'agree', dateOfBirth: 'agree', expiryDate: 'agree' });
		expect(v.check.mismatched).toEqual([]);
		// Not the whole page (batches of four, the likeliest values first), nothing read twice.
		expect(v.texts).toBeLessThan(PRINT.length);
		expect(new Set(e.read).size).toBe(e.read.length);
	});

	it('reads on, and again unsqueezed, when the MRZ needs the print to vouch for the doubtful field', async () => {
		const e = engine();
		const v = await readViz(e, image, boxes, mrz, at, ['lastName']);
		expect(v.check.fields.lastName).toBe('unsure');
		expect(v.texts).toBe(PRINT.length);
		expect(e.read).toContain('ZENITH');
		// The second, unsqueezed pass reads again what was neither a caption nor a caption's value.
		expect(e.read.filter((t) => t === 'ZENITH')).toHaveLength(2);
	});

	it('finds the captions when an overprint has merged into one MRZ line\'s box and made it tall', async () => {
		// A SPECIMEN across the first line: its box 60 px tall for 18-px glyphs (seed 1031 #249). Measured
		// by that box, the 12-px captions were specks: no caption, no labelled value, nothing compared.
		const e = engine();
		const v = await readViz(e, image, boxes, mrz, { ...at, mrzQuads: [line(40, 470, 900, 60), mrzQuads[1]] }, ['lastName']);
		expect(v.check.fields.firstName).toBe('agree');
		expect(v.printed.labelled.firstName?.text).toBe('ANNA MARIA');
		expect(e.read).toContain('Given names');
	});

	it('"all" (a reading without confidences) treats every doubtful field as needing the print', async () => {
		const e = engine();
		const v = await readViz(e, image, boxes, mrz, at, ['all']);
		expect(v.texts).toBe(PRINT.length);
	});
});

describe('stillOpen', () => {
	const side = { lastName: 'ERIKSSON', firstName: 'ANNA MARIA', documentNumber: 'L898902C3', dateOfBirth: '1974-08-12', expiryDate: undefined, namesTruncated: false };
	const check = (fields: VizCheck['fields']): VizCheck => ({ fields, mismatched: [], confirmed: [], read: {} });
	it('keeps looking for a field not found (the print may yet contradict it) and for a doubtful one only where the MRZ needs vouching for', () => {
		const c = check({ lastName: 'unsure', firstName: 'notChecked', documentNumber: 'disagree', dateOfBirth: 'agree', expiryDate: 'notChecked' });
		// expiryDate: nothing on the MRZ side to compare with.
		expect(stillOpen(c, side, [])).toEqual(['firstName']);
		expect(stillOpen(c, side, ['lastName'])).toEqual(['lastName', 'firstName']);
	});
});

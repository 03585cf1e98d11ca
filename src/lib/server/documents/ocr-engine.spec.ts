import { describe, expect, it, vi } from 'vitest';
import { MRZ_ALPHABET } from '#lib/documents/ctc-decode.ts';
import type { Quad } from '#lib/documents/raster.ts';
import { syntheticDocuments } from '../../../../scripts/eval/synthetic-documents.ts';
import { decodeImage } from './image-io.ts';
import { OcrEngine } from './ocr-engine.ts';
import { readMrz } from './mrz-reader.ts';

const copy = ([a, b, c, d]: Quad): Quad => [[...a], [...b], [...c], [...d]] as Quad;

describe('OcrEngine.recognize: a line read again the same way', () => {
	// The reader's looks at a reading in doubt ask again for lines an earlier look read with the same
	// settings; the recogniser runs once for them, and what it answered is answered again.
	it('runs the recogniser once for the same image, quad and settings, and again for any other', async () => {
		const engine = await OcrEngine.load();
		const doc = syntheticDocuments(1, 20261206, { damage: 'clean', layout: 'TD3' })[0];
		const bytes = await doc.render();
		// The MRZ's last line where the reader found it (on an image of its own: the reader's reads are
		// kept for the image it read).
		const lowest = { quad: (await readMrz(engine, await decodeImage(bytes), { now: new Date('2026-12-02T00:00:00Z') })).mrzQuads.at(-1)! };
		const image = await decodeImage(bytes);
		const runs = vi.spyOn(engine, 'recognizeStrip');
		const first = await engine.recognize(image, lowest.quad, { alphabet: MRZ_ALPHABET, stretch: 1.5 });
		// The greedy text (the constrained decoding makes the MRZ of the scores): the line's 44 glyphs.
		expect(first.text).toHaveLength(doc.mrz.at(-1)!.length);
		expect(runs).toHaveBeenCalledTimes(1);
		// The same quad as a new array of the same corners, the same settings: no second run.
		const again = await engine.recognize(image, copy(lowest.quad), { stretch: 1.5, alphabet: MRZ_ALPHABET });
		expect(again).toBe(first);
		expect(runs).toHaveBeenCalledTimes(1);
		// Another setting, another look, another image of the same bytes: each runs.
		await engine.recognize(image, lowest.quad, { alphabet: MRZ_ALPHABET, stretch: 1 });
		await engine.recognize(image, lowest.quad, { alphabet: MRZ_ALPHABET, stretch: 1.5, inkOnly: true });
		await engine.recognize(image, lowest.quad, { alphabet: MRZ_ALPHABET, stretch: 1.5, grey: true });
		const decodedAgain = await decodeImage(bytes);
		const other = await engine.recognize(decodedAgain, lowest.quad, { alphabet: MRZ_ALPHABET, stretch: 1.5 });
		expect(runs).toHaveBeenCalledTimes(5);
		// …and the same pixels read alike.
		expect(other.text).toBe(first.text);
		expect(Array.from(other.mrzScores!.probs)).toEqual(Array.from(first.mrzScores!.probs));
	}, 60_000);

	it('runs again after a run that failed', async () => {
		const engine = await OcrEngine.load();
		const image = await decodeImage(await syntheticDocuments(1, 20261206, { damage: 'clean', layout: 'TD3' })[0].render());
		const quad: Quad = [[10, 10], [400, 10], [400, 40], [10, 40]];
		const runs = vi.spyOn(engine, 'recognizeStrip').mockRejectedValueOnce(new Error('the runtime failed'));
		await expect(engine.recognize(image, quad)).rejects.toThrow('the runtime failed');
		await expect(engine.recognize(image, quad)).resolves.toHaveProperty('text');
		expect(runs).toHaveBeenCalledTimes(2);
	}, 60_000);
});

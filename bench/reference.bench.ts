// `npm run bench reference`: the server's analysis of a reference photo (FaceEngine.analyseReference:
// every way up, the subject, cut edges, covered features, and text across the face), per photo, on
// the fixture portraits. The peer, in the same run and interleaved round by round: the same analysis
// without the text check (overprint.ts, `readText: false`), so the ratio is what reading text across
// the face costs. The server reads it only for a reference that did not match (face-reference.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaceEngine } from '../src/lib/server/biometrics/face-engine.ts';
import { OcrEngine } from '../src/lib/server/documents/ocr-engine.ts';

const ROOT = join(import.meta.dirname, '..');
const FACES = join(ROOT, 'tests/fixtures/faces');
const PHOTOS = ['barack_obama_1.jpg', 'barack_obama_2.jpg', 'codait_luciano_1.jpg', 'eileen_collins_1.jpg', 'joe_biden_2_800w.jpg'];
const ROUNDS = Number(process.argv[2] ?? 5);

const ocr = await OcrEngine.load({ threads: 1 });
const engine = await FaceEngine.create({ text: async () => ocr });
const analyse = (b: Uint8Array, readText: boolean) => engine.analyseReference(b, { cutOff: false }, { readText });
const bytes = PHOTOS.map((p) => new Uint8Array(readFileSync(join(FACES, p))));

// Warm both (model graphs, first allocations).
for (const b of bytes) {
	await analyse(b, true);
	await analyse(b, false);
}
const ms: Record<'withText' | 'without', number[]> = { withText: [], without: [] };
for (let round = 0; round < ROUNDS; round++) {
	for (const b of bytes) {
		// Alternate which goes first: a busy machine slows both alike.
		const order = round % 2 ? (['without', 'withText'] as const) : (['withText', 'without'] as const);
		for (const which of order) {
			const t = performance.now();
			await analyse(b, which === 'withText');
			ms[which].push(performance.now() - t);
		}
	}
}
const median = (xs: number[]) => {
	const s = xs.slice().sort((a, b) => a - b);
	return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const a = median(ms.withText), b = median(ms.without);
const md = [
	`# Reference analysis (${new Date().toISOString().slice(0, 10)})`,
	'',
	`${PHOTOS.length} fixture portraits × ${ROUNDS} rounds, interleaved; one thread each.`,
	'',
	'| analysis | median ms per photo | ratio |',
	'|---|---|---|',
	`| with the text check (overprint.ts) | ${a.toFixed(0)} | ${(a / b).toFixed(2)}× |`,
	`| without it (the peer, same run) | ${b.toFixed(0)} | 1.00× |`,
	''
].join('\n');
console.log(md);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/reference.md'), md);

/**
 * Two builds of the document reader on the same images, in one process, each image read by one
 * build and then the other (so both meet the same machine load): time, ONNX model runs and whether
 * the two outputs are alike (MRZ lines, field confidences, problems, the visual-zone check, the
 * extracted fields, which sides' MRZ ran to the photo's edge and the glyphs unseen on each line). For a change meant to make reads cheaper and leave every verdict as it was.
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   npx tsx scripts/eval/documents-ab.ts --before /tmp/before FILE…
 *
 * FILE… are images (a folder of specimen-folder.ts, or pages rendered from synthetic-documents.ts).
 * Prints one line per image and a summary; exits 1 when an output differs.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { MIN_FIELD_CONFIDENCE } from '../../src/lib/documents/field-confidence.ts';
import { cliArg } from './face-photos.ts';

const here = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const before = cliArg('--before');
if (!before) throw new Error('--before DIR (a checkout of the other build) is required');
const files = process.argv.slice(2).filter((a, i, all) => a !== '--before' && all[i - 1] !== '--before');
const NOW = new Date('2026-11-22T12:00:00Z');

// Every model run of either build (both load onnxruntime-node from the same node_modules).
let runs = 0;
const session = (ort as unknown as { InferenceSession: { prototype: { run: (...a: unknown[]) => unknown } } }).InferenceSession.prototype;
const run = session.run;
session.run = function (...a: unknown[]) {
	runs++;
	return run.apply(this, a);
};

interface Reader {
	read(bytes: Buffer, options: object): Promise<{ mrz: { lines: string[]; fieldConfidence?: Record<string, number> } | null; problems: unknown; viz: unknown; fields: unknown; sides: { mrzAtEdge?: boolean; mrzUnseen?: number[] }[] }>;
}
const load = async (dir: string): Promise<Reader> => (await import(join(resolve(dir), 'src/lib/server/documents/document-reader.service.ts'))).DocumentReader.load();
const builds = [
	{ name: 'before', reader: await load(before), ms: [] as number[], runs: 0 },
	{ name: 'this', reader: await load(here), ms: [] as number[], runs: 0 }
];

let differ = 0;
for (const file of files) {
	const bytes = readFileSync(file);
	const seen: string[] = [];
	const cells: string[] = [];
	const summaries: string[] = [];
	for (const b of builds) {
		runs = 0;
		const t = performance.now();
		const out = await b.reader.read(bytes, { mode: 'SINGLE_SIDE', now: NOW, encodeImages: false, crossCheckViz: true });
		const ms = performance.now() - t;
		b.ms.push(ms);
		b.runs += runs;
		const atEdge = out.sides.map((s) => s.mrzAtEdge ?? false);
		const unseen = out.sides.map((s) => s.mrzUnseen ?? []);
		seen.push(JSON.stringify([out.mrz?.lines, out.mrz?.fieldConfidence, out.problems, out.viz, out.fields, atEdge, unseen]));
		const doubted = Object.entries(out.mrz?.fieldConfidence ?? {}).filter(([, p]) => p < MIN_FIELD_CONFIDENCE).map(([f, p]) => `${f}=${p.toFixed(2)}`);
		summaries.push(`${out.mrz?.lines.join(' | ') ?? 'no MRZ'}; doubted [${doubted.join(' ')}]; ${JSON.stringify(out.problems)}; at the edge ${JSON.stringify(atEdge)}; unseen ${JSON.stringify(unseen)}`);
		cells.push(`${Math.round(ms)} ms ${runs} runs`);
	}
	const alike = seen.every((s) => s === seen[0]);
	if (!alike) differ++;
	console.log(`${file}: ${cells.join(' | ')} ${alike ? 'alike' : 'DIFFERENT'}`);
	// What differs, for a reader of the log: each build's lines, its fields in doubt and its problems.
	if (!alike) for (const [k, b] of builds.entries()) console.log(`  ${b.name}: ${summaries[k]}`);
}
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
for (const b of builds) console.log(`${b.name}: median ${Math.round(median(b.ms))} ms, total ${(total(b.ms) / 1000).toFixed(1)} s, ${b.runs} model runs`);
console.log(`${files.length - differ} of ${files.length} outputs alike`);
process.exit(differ ? 1 : 0);

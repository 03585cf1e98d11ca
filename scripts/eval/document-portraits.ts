// The path most flows take: a document's portrait compared with the person's face. Each face photo
// of the fixture set is printed as the portrait of a generated passport data page (in colour, or
// laser-engraved in grey under fine security lines as polycarbonate pages are, lightly or deep), the page is
// photographed with the document damages of documents-synthetic.ts, read by the server's own
// document reader (which finds and crops the portrait, as a document_scan node saves it), and the
// crop goes through the reference analysis a face_compare runs (analyseReference). It is compared
// with the undamaged photos of the same person (genuine) and of everyone else (impostor) at the
// shipped threshold. Reports per print and damage: portrait found, face found in it, FNMR, FMR.
//
// Run: npx tsx scripts/eval/document-portraits.ts [--damages clean,glare] [--styles colour,laser] [--out FILE]
// Reads ../shared/fixtures when present (more identities), else tests/fixtures. Writes Markdown to
// bench/results/document-portraits-eval.md. Nothing here tunes anything.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { MATCH_THRESHOLD } from '../../src/lib/domain/face/thresholds.ts';
import { cosineSimilarity } from '../../src/lib/face/embedding.ts';
import { MIN_REFERENCE_FACE_WIDTH } from '../../src/lib/face/face-thresholds.ts';
import { referenceDoubts } from '../../src/lib/server/services/faces/face-reference.ts';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { DocumentReader } from '../../src/lib/server/documents/document-reader.service.ts';
import { cliArg, EVAL_ROOT, facePhotos, FIXTURE_SOURCE } from './face-photos.ts';
import { cleanReferences, doubtLabel, tallyPairs, type FaceBox, type PairTally } from './reference-pairs.ts';
import { syntheticDocuments, type SyntheticDamage, type SyntheticPortrait } from './synthetic-documents.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
/** The camera damages that reach the portrait (the MRZ-only ones, SPECIMEN and stamps, do not). */
const DAMAGES: SyntheticDamage[] = ['clean', 'perspective', 'blur', 'glare', 'jpeg', 'noise', 'exif', 'combined'];
const STYLES: SyntheticPortrait['style'][] = ['colour', 'laser', 'darkLaser'];

const damages = (cliArg('--damages')?.split(',') as SyntheticDamage[] | undefined) ?? DAMAGES;
const styles = (cliArg('--styles')?.split(',') as SyntheticPortrait['style'][] | undefined) ?? STYLES;

const engine = await FaceEngine.create();
const reader = await DocumentReader.load();
const all = facePhotos();

/**
 * The photo framed as an ID photo (35 × 45 mm: head and shoulders, the face a little above the
 * middle), from the clean analysis's face box; past the photo's edge it is filled with a plain
 * light background, as a studio's would be.
 */
async function idPhoto(bytes: Buffer, box: FaceBox): Promise<string> {
	const upright = await sharp(bytes).rotate().toBuffer();
	const { width = 1, height = 1 } = await sharp(upright).metadata();
	const w = Math.round(box.width * 1.9);
	const h = Math.round(w * 1.32);
	const left = Math.round(box.x + box.width / 2 - w / 2);
	const top = Math.round(box.y + box.height * 0.45 - h * 0.45);
	const pad = { top: Math.max(0, -top), left: Math.max(0, -left), bottom: Math.max(0, top + h - height), right: Math.max(0, left + w - width) };
	const padded = await sharp(upright)
		.extend({ ...pad, background: { r: 226, g: 230, b: 234 } })
		.png()
		.toBuffer();
	const png = await sharp(padded)
		.extract({ left: left + pad.left, top: top + pad.top, width: w, height: h })
		.resize({ width: 360 })
		.png()
		.toBuffer();
	return `data:image/png;base64,${png.toString('base64')}`;
}

// The clean embeddings everything is compared with, and each photo's face box in its upright pixels.
const { embeddings: clean, boxes } = await cleanReferences(engine, all);

interface Row extends PairTally {
	key: string;
	pages: number;
	noPortrait: number;
	noFace: number;
	tooSmall: number;
	washedOut: number;
	/** Portrait faces blurred past MIN_REFERENCE_SHARPNESS: a non-match is no verdict. */
	blurred: number;
	/** Portrait faces cut by the crop's edge (face-edges.ts): a non-match is no verdict. */
	cutByEdge: number;
	/** Portraits whose eyes or mouth the analysis found hidden (occlusion.ts): a non-match with them is no verdict. */
	hidden: number;
	faceWidths: number[];
	/** The portrait face's mean grey (the gate's luminance). */
	luminance: number[];
}

const rows: Row[] = [];
for (const style of styles) {
	for (const damage of damages) {
		const row: Row = { key: `${style}, ${damage}`, pages: 0, noPortrait: 0, noFace: 0, tooSmall: 0, washedOut: 0, blurred: 0, cutByEdge: 0, hidden: 0, noVerdict: 0, genuine: 0, falseNonMatch: 0, impostor: 0, falseMatch: 0, genuineScores: [], worstImpostor: -1, faceWidths: [], luminance: [], failures: [] };
		for (const p of all) {
			const box = boxes.get(p.file);
			if (!box || !clean.has(p.file)) continue;
			const name = p.file.split('/').pop()!;
			const portrait: SyntheticPortrait = { href: await idPhoto(readFileSync(p.file), box), style };
			// A page (identity, tint, camera) of its own per print, damage and photo, the same whichever
			// rows a run asks for (pages decide: the one weak pair passes on some and fails on others).
			const seed = 1 + STYLES.indexOf(style) * 10_000 + DAMAGES.indexOf(damage) * 1_000 + all.indexOf(p);
			const [doc] = syntheticDocuments(1, seed, { damage, layout: 'TD3', tampered: null, portrait });
			const read = await reader.read(await doc.render(), { mode: 'SINGLE_SIDE', now: NOW, encodeImages: true });
			row.pages++;
			if (!read.portrait?.jpeg) {
				row.noPortrait++;
				row.failures.push(`${name}: no portrait found on the page`);
				continue;
			}
			const found = await engine.analyseReference(new Uint8Array(read.portrait.jpeg));
			if (!found?.face.embedding) {
				row.noFace++;
				row.failures.push(`${name}: no face in the portrait crop`);
				continue;
			}
			const width = Math.round(found.face.box.width);
			row.faceWidths.push(width);
			row.luminance.push(found.face.quality.luminance);
			if (width < MIN_REFERENCE_FACE_WIDTH) {
				row.tooSmall++;
				row.failures.push(`${name}: face ${width} px, too small to compare`);
				continue;
			}
			// As compareWithReference marks it and the verdict reads it (face-reference.ts referenceDoubts).
			const doubts = referenceDoubts(found);
			if (doubts.washedOut) row.washedOut++;
			if (doubts.blurred) row.blurred++;
			if (doubts.cutByEdge) row.cutByEdge++;
			if (doubts.hidden) row.hidden++;
			tallyPairs(row, found.face.embedding, p, all, clean, { doubt: doubtLabel(doubts), label: `portrait face ${width} px` });
			// The portrait against its own photo: what the page did to the face, with no other change.
			const self = cosineSimilarity(found.face.embedding, clean.get(p.file)!);
			if (self < MATCH_THRESHOLD) row.failures.push(`${name}: its portrait against the photo it was printed from ${self.toFixed(2)}`);
		}
		rows.push(row);
		console.error(`${row.key}: ${row.noPortrait} no portrait, ${row.noFace} no face, ${row.tooSmall} too small, FNMR ${row.falseNonMatch}/${row.genuine}, FMR ${row.falseMatch}/${row.impostor}, washed ${row.washedOut}, cut ${row.cutByEdge}, hidden ${row.hidden}, unusable ${row.noVerdict}`);
	}
}

const pct = (n: number, d: number) => (d ? `${n}/${d}` : '–');
const med = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : NaN);
const out: string[] = [];
out.push('# Document portraits against the holder');
out.push('');
out.push(`${new Date().toISOString().slice(0, 10)}; ${all.length} face photos of ${new Set(all.map((p) => p.identity)).size} people from ${FIXTURE_SOURCE}, each printed as the portrait of a generated TD3 data page, photographed, read by the document reader (its portrait crop) and analysed as a reference (\`analyseReference\`); compared with every other clean photo at the shipped threshold ${MATCH_THRESHOLD}.`);
out.push('');
out.push('| print, damage | pages | no portrait found | no face in the crop | too small | washed out / blurred / cut by the edge / features hidden: pages / pairs unusable | FNMR | FMR | genuine similarity, median / lowest | highest impostor | portrait face width, median px | face mean grey, median |');
out.push('|---|---|---|---|---|---|---|---|---|---|---:|---:|');
for (const r of rows) {
	const lowest = r.genuineScores.length ? Math.min(...r.genuineScores).toFixed(2) : '–';
	out.push(`| ${r.key} | ${r.pages} | ${r.noPortrait} | ${r.noFace} | ${r.tooSmall} | ${r.washedOut + r.blurred + r.cutByEdge + r.hidden ? `${r.washedOut} / ${r.blurred} / ${r.cutByEdge} / ${r.hidden} / ${r.noVerdict}` : '–'} | ${pct(r.falseNonMatch, r.genuine)} | ${pct(r.falseMatch, r.impostor)} | ${r.genuineScores.length ? med(r.genuineScores).toFixed(2) : '–'} / ${lowest} | ${r.worstImpostor >= 0 ? r.worstImpostor.toFixed(2) : '–'} | ${r.faceWidths.length ? med(r.faceWidths) : '–'} | ${r.luminance.length ? Math.round(med(r.luminance)) : '–'} |`);
}
out.push('');
out.push('Failures:');
out.push('');
for (const r of rows) if (r.failures.length) out.push(`- **${r.key}**: ${r.failures.join('; ')}`);
const text = out.join('\n') + '\n';
const file = cliArg('--out') ?? join(EVAL_ROOT, 'bench/results/document-portraits-eval.md');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, text);
console.log(text);

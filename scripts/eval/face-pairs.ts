/**
 * 1:1 face verification on a folder of photos this project has never seen: every pair, at the
 * shipped threshold, through the server's own reference analysis (FaceEngine.analyseReference: the
 * subject chosen among several faces, second looks, ways up) and the rules the compare verdict
 * applies to a reference (face-reference.ts: no face, a face too small, washed out, cut by the
 * photo's edge, features hidden). Also lists, per photo, what the occlusion check marked: a bearded
 * face marked as masked would be asked to uncover, again and again.
 *
 *   npx tsx scripts/eval/face-pairs.ts --dir DIR --pairs CSV [--pairs CSV2] [--out FILE]
 *
 * CSV: `file_x,file_y,Decision` (Yes/No; deepface's tests/unit/dataset/master.csv has this shape, its
 * face-recognition-pivot.csv too, with paths). Identities are the groups the Yes pairs join; every
 * pair of photos within a group is genuine and across groups an impostor pair, so the groups must
 * be distinct people (look at them: the report lists each group's photos). Photos in no pair are left out.
 * Nothing is downloaded: point it at a folder you have (your own consented data is best).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { MATCH_THRESHOLD } from '../../src/lib/domain/face/thresholds.ts';
import { cosineSimilarity } from '../../src/lib/face/embedding.ts';
import { MIN_REFERENCE_FACE_WIDTH } from '../../src/lib/face/face-thresholds.ts';
import { hiddenList } from '../../src/lib/face/occlusion.ts';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { referenceDoubts } from '../../src/lib/server/services/faces/face-reference.ts';
import { doubtLabel } from './reference-pairs.ts';
import { cliArgs, EVAL_ROOT, identities, readPairs } from './face-photos.ts';

interface Photo {
	file: string;
	identity: number;
	embedding: Float32Array | null;
	/** Why a comparison with this photo has no verdict whatever its score (refused), or why a non-match is none (doubted). */
	refused?: string;
	doubted?: string;
	hidden: string[];
	look?: string;
}

async function main() {
	const dir = cliArgs('dir')[0];
	const csvs = cliArgs('pairs');
	if (!dir || csvs.length === 0) throw new Error('usage: face-pairs.ts --dir DIR --pairs CSV [--pairs CSV] [--out FILE]');
	const labelled = csvs.flatMap((f) => readPairs(readFileSync(f, 'utf8')));
	const ids = identities(labelled);
	const engine = await FaceEngine.create();
	const photos: Photo[] = [];
	for (const [file, identity] of [...ids].sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0], 'en', { numeric: true }))) {
		const bytes = new Uint8Array(readFileSync(join(dir, file)));
		const notes = { cutOff: false };
		const found = await engine.analyseReference(bytes, notes).catch(() => null);
		const photo: Photo = { file, identity, embedding: found?.face.embedding ?? null, hidden: found ? hiddenList(found.hidden) : [], look: found?.look };
		if (!found?.face.embedding) photo.refused = notes.cutOff ? 'cut off' : 'no face';
		else if (found.face.box.width < MIN_REFERENCE_FACE_WIDTH) photo.refused = `face ${Math.round(found.face.box.width)} px`;
		else photo.doubted = doubtLabel(referenceDoubts(found)) ?? undefined;
		photos.push(photo);
		process.stderr.write(`${file} #${identity}: ${photo.refused ?? photo.doubted ?? 'ok'} (${photo.look ?? '-'})\n`);
	}
	let genuine = 0, impostor = 0, fnm = 0, fm = 0, noVerdict = 0, noVerdictGenuine = 0;
	const genuineScores: number[] = [];
	let worstImpostor = -1;
	const failures: string[] = [];
	for (let i = 0; i < photos.length; i++)
		for (let j = i + 1; j < photos.length; j++) {
			const [p, q] = [photos[i], photos[j]];
			const same = p.identity === q.identity;
			same ? genuine++ : impostor++;
			if (!p.embedding || !q.embedding || p.refused || q.refused) {
				noVerdict++;
				if (same) noVerdictGenuine++;
				continue;
			}
			const s = cosineSimilarity(p.embedding, q.embedding);
			const doubt = p.doubted ?? q.doubted;
			if (same) {
				genuineScores.push(s);
				if (s < MATCH_THRESHOLD && doubt) {
					noVerdict++;
					noVerdictGenuine++;
					failures.push(`${p.file} vs ${q.file}: ${s.toFixed(2)}, no verdict (${doubt})`);
				} else if (s < MATCH_THRESHOLD) {
					fnm++;
					failures.push(`${p.file} vs ${q.file}: ${s.toFixed(2)}, false non-match`);
				}
			} else {
				worstImpostor = Math.max(worstImpostor, s);
				if (s >= MATCH_THRESHOLD) {
					fm++;
					failures.push(`${p.file} matched ${q.file}: ${s.toFixed(2)}, false match`);
				} else if (doubt) noVerdict++;
			}
		}
	const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(2)} %` : '–');
	const sorted = genuineScores.slice().sort((a, b) => a - b);
	const groups = [...new Set(photos.map((p) => p.identity))].map((id) => `${id}: ${photos.filter((p) => p.identity === id).map((p) => p.file).join(' ')}`);
	const md = [
		'# Face pairs',
		'',
		`${photos.length} photos of ${groups.length} people in \`${dir}\` (identities from ${csvs.map((c) => `\`${basename(c)}\``).join(', ')}); every pair at the shipped threshold ${MATCH_THRESHOLD}. ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}.`,
		'',
		'| pairs | genuine | impostor | FNMR | FMR | no verdict | lowest genuine | median genuine | highest impostor |',
		'|---|---|---|---|---|---|---|---|---|',
		`| ${genuine + impostor} | ${genuine} | ${impostor} | ${fnm}/${genuine - noVerdictGenuine} (${pct(fnm, genuine - noVerdictGenuine)}) | ${fm}/${impostor} (${pct(fm, impostor)}) | ${noVerdict} (${pct(noVerdict, genuine + impostor)}; genuine ${noVerdictGenuine}) | ${sorted[0]?.toFixed(3) ?? '–'} | ${sorted[sorted.length >> 1]?.toFixed(3) ?? '–'} | ${worstImpostor.toFixed(3)} |`,
		'',
		'## Photos refused or doubted, features marked hidden',
		'',
		...photos.filter((p) => p.refused || p.doubted || p.hidden.length || (p.look && p.look !== 'asIs')).map((p) => `- ${p.file} (person ${p.identity}): ${[p.refused, p.doubted, p.look !== 'asIs' ? `read ${p.look}` : ''].filter(Boolean).join(', ')}`),
		'',
		'## Failures',
		'',
		...(failures.length ? failures.map((f) => `- ${f}`) : ['none']),
		'',
		'## Groups',
		'',
		...groups.map((g) => `- ${g}`),
		''
	].join('\n');
	const out = cliArgs('out')[0] ?? join(EVAL_ROOT, 'bench/results/face-pairs.md');
	mkdirSync(dirname(resolve(out)), { recursive: true });
	writeFileSync(out, md);
	console.log(md);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();

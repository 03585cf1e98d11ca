// What the passive model (fr_liveness) scores, per kind of picture, through the server's own
// pipeline (largest face, crop ×2.7, median-free: one still, one score). Shows what its threshold
// can and cannot separate; it calibrates nothing by itself.
// Run: npx tsx scripts/eval/passive-liveness.ts [--shared]   (--shared reads ../shared/fixtures; evaluation only)
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { LIVENESS_THRESHOLD } from '../../src/lib/face/face-thresholds.ts';

interface Entry { file: string; kind: string; label?: string; attack?: string }
const root = path.resolve(import.meta.dirname, '..', '..');
const shared = path.resolve(root, '..', 'shared', 'fixtures');
const useShared = process.argv.includes('--shared') && existsSync(path.join(shared, 'MANIFEST.json'));
const base = useShared ? shared : path.join(root, 'tests', 'fixtures');
const manifest: { files: Entry[] } = JSON.parse(readFileSync(useShared ? path.join(shared, 'MANIFEST.json') : path.join(base, 'faces', 'manifest.json'), 'utf8'));
const engine = await FaceEngine.create();
const groups = new Map<string, { file: string; score: number }[]>();
for (const f of manifest.files.filter((x) => ['face', 'face_variant', 'liveness'].includes(x.kind))) {
	const faces = (await engine.analyseBytes(readFileSync(path.join(base, f.file)), { embed: false, maxFaces: 1 })).faces;
	if (!faces[0]) continue;
	// A portrait photo of a real person is, to the camera, a picture: bona fide only in the liveness set's own labels.
	const group = f.kind === 'liveness' ? (f.label === 'live' ? 'live capture (labelled live)' : `attack: ${f.attack ?? 'spoof'}`) : 'portrait photo (press/web still)';
	groups.set(group, [...(groups.get(group) ?? []), { file: path.basename(f.file), score: faces[0].liveness ?? 0 }]);
}
console.log(`fr_liveness live probability, ${useShared ? '../shared/fixtures' : 'tests/fixtures'}; shipped threshold ${LIVENESS_THRESHOLD}\n`);
console.log('| pictures | n | scores (sorted) | ≥ 0.3 | ≥ 0.6 | ≥ 0.9 |\n|---|---|---|---|---|---|');
for (const [group, xs] of groups) {
	const s = xs.map((x) => x.score).sort((a, b) => a - b);
	const at = (t: number) => `${s.filter((v) => v >= t).length}/${s.length}`;
	console.log(`| ${group} | ${s.length} | ${s.map((v) => v.toFixed(2)).join(' ')} | ${at(0.3)} | ${at(0.6)} | ${at(0.9)} |`);
}

// How well can we fill the report's aiAnalysis ageMin/ageMax/sex? face-api's AgeGenderNet (the
// server's estimator) on our own detector's boxes, against the fixture people whose age at photo time
// is public. The constants of src/lib/server/services/faces/age-sex-report.ts come from this table.
// Run: npx tsx scripts/eval/age-sex.ts [--local]   → bench/results/age-sex-eval.md
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { decodeImage } from '../../src/lib/server/biometrics/image-decode.ts';
import { createAgeSexEstimator } from '../../src/lib/server/biometrics/age-sex-estimator.ts';
import { ageRange, SEX_MIN_PROBABILITY } from '../../src/lib/server/services/faces/age-sex-report.ts';

interface Truth {
	file: string;
	/** Age at photo time (photo date from its caption/EXIF, birth date public), null when unknown. */
	age: number | null;
	sex: 'male' | 'female';
	note: string;
}
/** Faces of a group photo, left to right. */
interface GroupTruth {
	file: string;
	faces: Array<Omit<Truth, 'file'>>;
}

const SHARED: Array<Truth | GroupTruth> = [
	{ file: 'faces/barack_obama_1.jpg', age: 51, sex: 'male', note: '2012-12-06, born 1961-08-04' },
	{ file: 'faces/barack_obama_2.jpg', age: 48, sex: 'male', note: '2009-09-09' },
	{ file: 'faces/barack_obama_3.jpg', age: 48, sex: 'male', note: '2010-05-10' },
	{ file: 'faces/joe_biden_1.jpg', age: 67, sex: 'male', note: '2010-05-10, born 1942-11-20' },
	{ file: 'faces/joe_biden_2.jpg', age: 78, sex: 'male', note: 'presidential portrait, 2021' },
	{ file: 'faces/paul_rudd_1.jpg', age: 40, sex: 'male', note: '2009, born 1969-04-06' },
	{ file: 'faces/paul_rudd_2.jpg', age: null, sex: 'male', note: 'date unknown' },
	{ file: 'faces/chris_pratt_1.jpg', age: 38, sex: 'male', note: '2018, born 1979-06-21' },
	{ file: 'faces/eileen_collins_1.jpg', age: 42, sex: 'female', note: 'NASA portrait c. 1998–99, born 1956-11-19' },
	{ file: 'faces/codait_bryan_1.jpg', age: null, sex: 'male', note: 'age unknown, 115 px photo' },
	{ file: 'faces/codait_luciano_1.jpg', age: null, sex: 'male', note: 'age unknown' },
	{
		file: 'faces/group/obama_family_2011.jpg',
		faces: [
			{ age: 47, sex: 'female', note: 'Michelle Obama, December 2011, born 1964-01-17' },
			{ age: 13, sex: 'female', note: 'Malia Obama, born 1998-07-04' },
			{ age: 50, sex: 'male', note: 'Barack Obama' },
			{ age: 10, sex: 'female', note: 'Sasha Obama, born 2001-06-10' }
		]
	}
];
const LOCAL_NAMES: Record<string, string> = {
	'faces/joe_biden_2.jpg': 'faces/joe_biden_2_800w.jpg',
	'faces/group/obama_family_2011.jpg': 'faces/group_obama_family_2011.jpg'
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = resolve(root, '..', 'shared', 'fixtures');
const local = !existsSync(join(shared, 'MANIFEST.json')) || process.argv.includes('--local');
const base = local ? join(root, 'tests', 'fixtures') : shared;
const truths = SHARED.map((t) => ({ ...t, file: local ? (LOCAL_NAMES[t.file] ?? t.file) : t.file })).filter((t) =>
	existsSync(join(base, t.file))
);

const engine = await FaceEngine.create();
const t0 = performance.now();
const estimator = await createAgeSexEstimator();
const loadMs = performance.now() - t0;
const rows: Array<{ label: string; truth: Omit<Truth, 'file'>; age: number; sex: string; p: number }> = [];
const times: number[] = [];
for (const t of truths) {
	const image = await decodeImage(readFileSync(join(base, t.file)));
	const detections = (await engine.pipeline.detect(image)).sort((a, b) => a.box.x - b.box.x);
	const expected = 'faces' in t ? t.faces : [t];
	const picked = 'faces' in t ? detections : [detections.reduce((a, b) => (a.box.width >= b.box.width ? a : b))];
	for (let i = 0; i < expected.length && i < picked.length; i++) {
		const start = performance.now();
		const r = await estimator.estimate(image, picked[i].box);
		times.push(performance.now() - start);
		rows.push({ label: `${t.file.replace('faces/', '')}${'faces' in t ? ` #${i + 1}` : ''}`, truth: expected[i], age: r.age, sex: r.sex, p: r.sexProbability });
	}
}
const aged = rows.filter((r) => r.truth.age !== null);
const errors = aged.map((r) => r.age - (r.truth.age as number));
const within = (band: number) => errors.filter((e) => Math.abs(e) <= band).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const out: string[] = [];
out.push('# Age and sex estimation (face-api AgeGenderNet on tfjs-wasm)', '');
out.push(`Fixtures: ${local ? 'tests/fixtures (subset)' : '../shared/fixtures'}. Faces from our fr_detect; the network sees the square face box at 112×112.`, '');
out.push('| face | truth | estimate | error (years) | sex |', '|---|---|---|---|---|');
for (const r of rows) {
	const err = r.truth.age === null ? '–' : (r.age - r.truth.age >= 0 ? '+' : '') + (r.age - r.truth.age).toFixed(1);
	out.push(`| ${r.label} (${r.truth.note}) | ${r.truth.age ?? '?'} ${r.truth.sex} | ${r.age.toFixed(1)} ${r.sex} (${r.p.toFixed(2)}) | ${err} | ${r.sex === r.truth.sex ? 'right' : '**wrong**'} |`);
}
out.push('');
out.push('| metric | value |', '|---|---|');
out.push(`| sex correct | ${rows.filter((r) => r.sex === r.truth.sex).length}/${rows.length} |`);
out.push(`| age mean absolute error | ${(errors.reduce((a, e) => a + Math.abs(e), 0) / Math.max(1, errors.length)).toFixed(1)} years (n = ${errors.length}) |`);
out.push(`| age within ±8 / ±10 years | ${within(8)}/${errors.length} / ${within(10)}/${errors.length} |`);
const sorted = [...errors].sort((a, b) => a - b);
out.push(`| error range (estimate − truth), what ageMin/ageMax widen by | ${sorted[0].toFixed(1)} … +${sorted[sorted.length - 1].toFixed(1)} years |`);
const held = aged.filter((r) => { const { ageMin, ageMax } = ageRange(r.age); return ageMin <= (r.truth.age as number) && (r.truth.age as number) <= ageMax; }).length;
out.push(`| true age inside the reported ageMin–ageMax | ${held}/${aged.length} |`);
const confident = rows.filter((r) => r.p >= SEX_MIN_PROBABILITY);
out.push(`| sex at probability ≥ ${SEX_MIN_PROBABILITY} (reported): right / coverage | ${confident.filter((r) => r.sex === r.truth.sex).length}/${confident.length} / ${confident.length}/${rows.length} |`);
out.push(`| model load | ${loadMs.toFixed(0)} ms |`);
out.push(`| estimate per face (median, crop included) | ${median(times).toFixed(1)} ms |`);
out.push('');
const markdown = `${out.join('\n')}\n`;
process.stdout.write(markdown);
const target = join(root, 'bench', 'results', 'age-sex-eval.md');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, markdown);

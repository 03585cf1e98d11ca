// 1:N search time over 100 000 protected templates (one account), SIMD kernel and plain JavaScript.
// Run: npx tsx scripts/bench/template-search.ts [count]
import { randomBytes } from 'node:crypto';
import { TemplateIndex } from '../../src/lib/server/biometrics/template-index.ts';
import { protectTemplate, rotationFor } from '../../src/lib/server/biometrics/template-protection.ts';

const count = Number(process.argv[2] ?? 100_000);
const dim = 512;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const key = randomBytes(32);
let t = performance.now();
rotationFor(key);
const deriveMs = performance.now() - t;

// Protected templates of random faces are random unit vectors: fill the index with those, and plant
// one real protection of a known embedding.
const face = Float32Array.from({ length: dim }, () => Math.random() - 0.5);
const planted = protectTemplate(face, key);
const rows: Record<string, number> = {};
for (const simd of [true, false]) {
	const index = new TemplateIndex(dim, count + 1, { simd });
	const v = new Float32Array(dim);
	for (let i = 0; i < count; i++) {
		for (let k = 0; k < dim; k++) v[k] = Math.random() - 0.5;
		index.add(`t${i}`, v);
		if (i === count >> 1) index.add('planted', planted);
	}
	const probe = protectTemplate(face.map((x) => x + 0.3 * (Math.random() - 0.5)), key);
	const times: number[] = [];
	let found = '';
	for (let i = 0; i < 21; i++) {
		t = performance.now();
		found = index.search(probe)?.id ?? '';
		times.push(performance.now() - t);
	}
	if (found !== 'planted') throw new Error(`search found ${found}, not the planted template`);
	rows[simd && index.accelerated ? 'simd' : 'js'] = median(times);
}
console.log(`templates: ${count}, dim ${dim}`);
console.log(`rotation derivation (once per account key, cached): ${deriveMs.toFixed(0)} ms`);
for (const [name, ms] of Object.entries(rows)) console.log(`search median (${name}): ${ms.toFixed(1)} ms`);

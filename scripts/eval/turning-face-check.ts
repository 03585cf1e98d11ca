// Checks the simulated turning head (tests/e2e/support/turning-face.ts) with the server's own face
// pipeline: the portrait wrapped on a cylinder and turned by φ must read as a head whose 68-landmark
// yaw moves smoothly and monotonically with φ, through the intermediate poses a real turn shows.
// Run: npx tsx scripts/eval/turning-face-check.ts [faces/file.jpg …]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { renderTurn, type HeadGeometry } from '../../tests/e2e/support/turning-face.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const files = process.argv.slice(2).length ? process.argv.slice(2) : ['faces/barack_obama_1.jpg', 'faces/joe_biden_2_800w.jpg', 'faces/eileen_collins_1.jpg'];
const engine = await FaceEngine.create();
let failures = 0;
for (const file of files) {
	const bytes = readFileSync(path.join(root, 'tests/fixtures', file));
	const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	const src = { data: new Uint8ClampedArray(data), width: info.width, height: info.height };
	const frontal = (await engine.analyseBytes(bytes, { embed: false, liveness: false, maxFaces: 1 })).faces[0];
	if (!frontal) throw new Error(`${file}: no face`);
	const b = frontal.box;
	const head: HeadGeometry = { cx: Math.round(b.x + b.width / 2), radius: Math.round(0.5 * b.width), cy: Math.round(b.y + b.height / 2), halfHeight: Math.round(b.height / 2) };
	const rows: string[] = [];
	const yaws: number[] = [];
	for (let phi = -35; phi <= 35; phi += 5) {
		const turned = renderTurn(src, head, phi);
		const jpeg = await sharp(Buffer.from(turned.data), { raw: { width: turned.width, height: turned.height, channels: 4 } }).jpeg({ quality: 85 }).toBuffer();
		const face = (await engine.analyseBytes(jpeg, { embed: false, liveness: false, maxFaces: 1 })).faces[0];
		yaws.push(face ? face.quality.yaw : NaN);
		rows.push(`${String(phi).padStart(4)}° → ${face ? face.quality.yaw.toFixed(1).padStart(6) : '  none'}°`);
	}
	const steps = yaws.slice(1).map((y, i) => y - yaws[i]);
	const monotonic = steps.every((d) => d > 0) || steps.every((d) => d < 0);
	const spread = Math.max(...yaws) - Math.min(...yaws);
	console.log(`${file}: head ${JSON.stringify(head)} (image ${info.width}×${info.height}); yaw ${monotonic ? 'monotonic' : 'NOT monotonic'}, span ${spread.toFixed(1)}°, largest step ${Math.max(...steps.map(Math.abs)).toFixed(1)}°`);
	console.log(rows.map((r) => `  ${r}`).join('\n'));
	if (!monotonic || !(spread >= 36)) failures++;
}
process.exit(failures ? 1 : 0);

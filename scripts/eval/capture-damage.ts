// Genuine users on poor cameras: each face photo of the fixture set is set in a webcam-like frame
// (1280×720 or a low-end 640×480, the face about a third of the frame's height) and damaged as phone
// and laptop cameras damage faces (a dim room, a window behind, sensor noise, motion blur, heavy JPEG,
// a low-resolution sensor, a colour cast). Three such frames, each with its own noise, go through the
// server's own analysis of a face_scan capture (analyseEvidence), as the page would upload them. Reports
// per damage how often a real person would get through: a face found in the frames, the server's
// quality gate passed (face_scan needs it), passive liveness at or above its threshold (liveness
// nodes need it), and the same person as in their clean photo.
//
// Run: npx tsx scripts/eval/capture-damage.ts [--damages a,b] [--out FILE]
// CAPTURE_DAMAGE_DEBUG=1 prints each photo's face luminance, sharpness and passive score.
// The faces are photos, not live captures: passive liveness here says how the model treats these
// pixels, not how it treats a real person in front of a real camera (docs/accuracy.md).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { MATCH_THRESHOLD } from '../../src/lib/domain/face/thresholds.ts';
import { cosineSimilarity } from '../../src/lib/face/embedding.ts';
import { LIVENESS_THRESHOLD } from '../../src/lib/face/face-thresholds.ts';
import type { Box } from '../../src/lib/face/image.ts';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { cliArg, EVAL_ROOT, facePhotos, FIXTURE_SOURCE } from './face-photos.ts';
import { analyseEvidence } from '../../src/lib/server/services/faces/evidence-analysis.ts';


const photos = (): string[] => facePhotos().map((p) => p.file);

interface Camera {
	width: number;
	height: number;
}
const HD: Camera = { width: 1280, height: 720 };
const VGA: Camera = { width: 640, height: 480 };

/**
 * A frame: the scene of the photo as a camera would frame it, the face centred a little above the
 * middle and 38 % of the frame's height (a selfie at arm's length), the photo's own edges repeated
 * where the frame reaches past them (no pasted rectangle: a photo's edge inside the frame is what a
 * print held up looks like). A hand-held phone: the face a few pixels elsewhere in each frame.
 */
async function frame(photo: Buffer, face: Box, camera: Camera, seed: number): Promise<{ data: Buffer; info: OutputInfo }> {
	const scale = (0.38 * camera.height) / face.height;
	const rw = Math.round(camera.width / scale);
	const rh = Math.round(camera.height / scale);
	const dx = ((seed * 37) % 9) - 4;
	const dy = ((seed * 53) % 7) - 3;
	const left = Math.round(face.x + face.width / 2 - rw / 2 + dx / scale);
	const top = Math.round(face.y + face.height / 2 - rh * 0.45 + dy / scale);
	const upright = sharp(await sharp(photo).rotate().toBuffer());
	const { width: w = 1, height: h = 1 } = await upright.metadata();
	const pad = { left: Math.max(0, -left), top: Math.max(0, -top), right: Math.max(0, left + rw - w), bottom: Math.max(0, top + rh - h) };
	const extended = await upright.extend({ ...pad, extendWith: 'copy' }).toBuffer();
	return sharp(extended)
		.extract({ left: left + pad.left, top: top + pad.top, width: rw, height: rh })
		.resize(camera.width, camera.height)
		.removeAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
}

/** Gaussian-ish sensor noise (sum of uniforms), its own for every frame. */
function noisy(raw: Buffer, sigma: number, seed: number): Buffer {
	let s = seed * 2654435761 + 1;
	const rand = () => ((s = (s * 1103515245 + 12345) >>> 0) / 4294967296);
	const out = Buffer.from(raw);
	for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(out[i] + sigma * (rand() + rand() + rand() - 1.5) * 2)));
	return out;
}

type Damage = (photo: Buffer, face: Box, seed: number) => Promise<Buffer>;
const jpeg = (raw: Buffer, info: OutputInfo, q = 90, post?: (s: Sharp) => Sharp) => {
	const s = sharp(raw, { raw: { width: info.width, height: info.height, channels: info.channels } });
	return (post ? post(s) : s).jpeg({ quality: q }).toBuffer();
};

const DAMAGES: Record<string, Damage> = {
	hd: async (p, face, seed) => {
		const { data, info } = await frame(p, face, HD, seed);
		return jpeg(noisy(data, 3, seed), info);
	},
	vga: async (p, face, seed) => {
		const { data, info } = await frame(p, face, VGA, seed);
		return jpeg(noisy(data, 4, seed), info);
	},
	// A dim room: a third of the light, the sensor's gain raising its noise.
	dimRoom: async (p, face, seed) => {
		const { data, info } = await frame(p, face, HD, seed);
		const dark = await sharp(data, { raw: info }).linear(0.33, 0).raw().toBuffer();
		return jpeg(noisy(dark, 9, seed), info);
	},
	// A window behind: the surroundings blown out, the face in the middle under-exposed by the metering.
	backlit: async (p, face, seed) => {
		const { data, info } = await frame(p, face, HD, seed);
		const out = Buffer.from(data);
		for (let y = 0; y < info.height; y++) {
			for (let x = 0; x < info.width; x++) {
				// 0 in the middle of the frame (where the face is), 1 towards the edges.
				const r = Math.min(1, Math.hypot((x / info.width - 0.5) / 0.3, (y / info.height - 0.45) / 0.45));
				const i = (y * info.width + x) * 3;
				for (let c = 0; c < 3; c++) out[i + c] = Math.min(255, Math.round(data[i + c] * (0.5 + 0.7 * r) + 160 * r * r));
			}
		}
		return jpeg(noisy(out, 5, seed), info);
	},
	noisySensor: async (p, face, seed) => {
		const { data, info } = await frame(p, face, VGA, seed);
		return jpeg(noisy(data, 14, seed), info);
	},
	// The head moving during the exposure (a horizontal smear of ~9 px).
	motionBlur: async (p, face, seed) => {
		const { data, info } = await frame(p, face, HD, seed);
		const kernel = { width: 9, height: 3, kernel: [...new Array(9).fill(0), ...new Array(9).fill(1 / 9), ...new Array(9).fill(0)] };
		return jpeg(noisy(data, 3, seed), info, 90, (s) => s.convolve(kernel));
	},
	// A cheap webcam: 320×240 scaled up to 640×480, soft and blocky.
	lowResSensor: async (p, face, seed) => {
		const { data, info } = await frame(p, face, { width: 320, height: 240 }, seed);
		const small = await jpeg(noisy(data, 4, seed), info, 70);
		return sharp(small).resize(640, 480).jpeg({ quality: 85 }).toBuffer();
	},
	jpeg35: async (p, face, seed) => {
		const { data, info } = await frame(p, face, HD, seed);
		return jpeg(noisy(data, 3, seed), info, 35);
	},
	// Tungsten light without white balance.
	warmLight: async (p, face, seed) => {
		const { data, info } = await frame(p, face, HD, seed);
		return jpeg(noisy(data, 4, seed), info, 90, (s) => s.recomb([[1.15, 0.1, 0], [0.05, 0.95, 0], [0, 0.05, 0.6]]));
	}
};

const engine = await FaceEngine.create();
const files = photos();
const selected = (cliArg('--damages')?.split(',') ?? Object.keys(DAMAGES)).filter((d) => d in DAMAGES);
const clean = new Map<string, { embedding: Float32Array; box: Box }>();
for (const f of files) {
	const found = await engine.analyseReference(new Uint8Array(readFileSync(f)));
	if (found?.face.embedding && found.look === 'asIs') clean.set(f, { embedding: found.face.embedding, box: found.face.box });
}

const out: string[] = [];
out.push('# Genuine captures from poor cameras');
out.push('');
out.push(`${new Date().toISOString().slice(0, 10)}; ${clean.size} face photos from ${FIXTURE_SOURCE}, each as 3 frames of a face_scan capture through \`analyseEvidence\`.`);
out.push('');
out.push('| camera / damage | face found | quality gate passed | reasons when not | passive live ≥ ' + LIVENESS_THRESHOLD + ' | passive median | same person as the clean photo |');
out.push('|---|---|---|---|---|---:|---|');
for (const damage of selected) {
	let found = 0;
	let gate = 0;
	let live = 0;
	let same = 0;
	const reasons = new Map<string, number>();
	const scores: number[] = [];
	for (const f of clean.keys()) {
		const photo = readFileSync(f);
		const frames = [];
		for (let i = 0; i < 3; i++) frames.push({ bytes: new Uint8Array(await DAMAGES[damage](photo, clean.get(f)!.box, i + 1)), t: 400 * i });
		const a = await analyseEvidence(engine, frames);
		const best = a.bestIndex >= 0 ? a.frames[a.bestIndex] : null;
		if (!best?.face) continue;
		found++;
		if (best.face.gate.pass) gate++;
		else for (const r of best.face.gate.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
		if (a.liveness.median !== null) scores.push(a.liveness.median);
		if (a.liveness.live) live++;
		if (process.env.CAPTURE_DAMAGE_DEBUG) console.error(damage, f.split('/').pop(), 'lum', best.face.quality.luminance.toFixed(0), 'sharp', best.face.quality.sharpness.toFixed(0), 'live', a.liveness.median?.toFixed(2));
		if (a.embedding && cosineSimilarity(a.embedding, clean.get(f)!.embedding) >= MATCH_THRESHOLD) same++;
	}
	const n = clean.size;
	const median = scores.length ? [...scores].sort((x, y) => x - y)[scores.length >> 1].toFixed(2) : '–';
	out.push(`| ${damage} | ${found}/${n} | ${gate}/${n} | ${[...reasons].map(([r, k]) => `${r} ${k}`).join(', ') || '–'} | ${live}/${n} | ${median} | ${same}/${n} |`);
	console.error(out.at(-1));
}
const text = out.join('\n') + '\n';
const file = cliArg('--out') ?? join(EVAL_ROOT, 'bench/results/capture-damage-eval.md');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, text);
console.log(text);

// Reference photos the project has never seen, made from the ones it has: every face photo of the
// fixture set is damaged the way integrators' reference images are (small in a large photo, stored
// sideways, dim, blown out, blurred, heavily compressed, tilted, cropped tight, grey, tiny) and run
// through the server's own reference analysis (FaceEngine.analyseReference), then compared with the
// undamaged photos of the same person (genuine) and of everyone else (impostor) at the shipped
// threshold. Reports per damage: no face found, FNMR, FMR, and where the similarity went.
//
// Run: npx tsx scripts/eval/face-damage.ts [--damages a,b] [--out FILE]
// Reads ../shared/fixtures when present (more identities), else tests/fixtures. Writes Markdown to
// bench/results/face-damage-eval.md. Nothing here tunes anything: it shows where references fail.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { MATCH_THRESHOLD } from '../../src/lib/domain/face/thresholds.ts';
import { MIN_REFERENCE_FACE_WIDTH } from '../../src/lib/face/face-thresholds.ts';
import { referenceDoubts } from '../../src/lib/server/services/faces/face-reference.ts';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { cliArg, EVAL_ROOT, facePhotos, FIXTURE_SOURCE } from './face-photos.ts';
import { cleanReferences, doubtLabel, tallyPairs, type FaceBox, type PairTally } from './reference-pairs.ts';



const photos = facePhotos;

type Damage = (input: Buffer, face: FaceBox) => Promise<Buffer>;

/** The photo's top cut off `share` of the eyes-to-mouth distance above the eyes (negative: below them). */
const cutAbove =
	(share: number): Damage =>
	async (input, face) => {
		const upright = await sharp(input).rotate().toBuffer();
		const { width = 1, height = 1 } = await sharp(upright).metadata();
		const top = Math.max(0, Math.round(face.eyesY - share * (face.mouthY - face.eyesY)));
		return sharp(upright).extract({ left: 0, top, width, height: height - top }).jpeg({ quality: 90 }).toBuffer();
	};

/** The photo's bottom cut off `share` of the eyes-to-mouth distance below the mouth (negative: above it). */
const cutBelow =
	(share: number): Damage =>
	async (input, face) => {
		const upright = await sharp(input).rotate().toBuffer();
		const { width = 1, height = 1 } = await sharp(upright).metadata();
		const bottom = Math.min(height, Math.round(face.mouthY + share * (face.mouthY - face.eyesY)));
		return sharp(upright).extract({ left: 0, top: 0, width, height: bottom }).jpeg({ quality: 90 }).toBuffer();
	};

/** Cropped to the face's box scaled by `factor` about its centre, clipped to the photo (an ID portrait cut from a larger photo). */
const headCrop =
	(factor: number): Damage =>
	async (input, face) => {
		const upright = await sharp(input).rotate().toBuffer();
		const { width = 1, height = 1 } = await sharp(upright).metadata();
		const w = face.width * factor;
		const h = face.height * factor;
		const left = Math.max(0, Math.round(face.x + face.width / 2 - w / 2));
		const top = Math.max(0, Math.round(face.y + face.height / 2 - h / 2));
		return sharp(upright)
			.extract({ left, top, width: Math.min(width - left, Math.round(w)), height: Math.min(height - top, Math.round(h)) })
			.jpeg({ quality: 90 })
			.toBuffer();
	};

/** The photo set into a large canvas with its face about `facePx` wide (the face taken as ~45 % of the photo's width). */
const smallInLarge =
	(facePx: number, canvas: number): Damage =>
	async (input) => {
		const meta = await sharp(input).metadata();
		const width = Math.max(16, Math.round(facePx / 0.45));
		const small = await sharp(input).rotate().resize({ width }).toBuffer();
		const h = Math.round(((meta.height ?? 1) / (meta.width ?? 1)) * width);
		return sharp({ create: { width: canvas, height: Math.round(canvas * 0.75), channels: 3, background: { r: 96, g: 112, b: 104 } } })
			.composite([{ input: small, left: Math.round(canvas * 0.31), top: Math.max(0, Math.round(canvas * 0.3) - (h >> 1)) }])
			.jpeg({ quality: 88 })
			.toBuffer();
	};

/** The upright photo with an SVG drawn over it in the photo's own pixels (`draw` gets its size and the face). */
const overlay =
	(draw: (width: number, height: number, face: FaceBox) => string): Damage =>
	async (input, face) => {
		const upright = await sharp(input).rotate().toBuffer();
		const { width = 1, height = 1 } = await sharp(upright).metadata();
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${draw(width, height, face)}</svg>`;
		return sharp(upright).composite([{ input: Buffer.from(svg) }]).jpeg({ quality: 90 }).toBuffer();
	};

/** Seeded noise of deviation `sigma` on every channel (a dim room's sensor noise). */
const sensorNoise =
	(gain: number, sigma: number): Damage =>
	async (input) => {
		const { data, info } = await sharp(input).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
		let seed = 12345;
		const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
		for (let i = 0; i < data.length; i++) {
			const n = Math.sqrt(-2 * Math.log(Math.max(1e-9, rand()))) * Math.cos(2 * Math.PI * rand());
			data[i] = Math.max(0, Math.min(255, Math.round(data[i] * gain + n * sigma)));
		}
		return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality: 85 }).toBuffer();
	};

const DAMAGES: Record<string, Damage> = {
	none: (b) => sharp(b).rotate().jpeg({ quality: 92 }).toBuffer(),
	// Stored sideways or upside down, without an EXIF orientation to say so.
	turned90: (b) => sharp(b).rotate().rotate(90).jpeg({ quality: 90 }).toBuffer(),
	turned180: (b) => sharp(b).rotate().rotate(180).jpeg({ quality: 90 }).toBuffer(),
	turned270: (b) => sharp(b).rotate().rotate(270).jpeg({ quality: 90 }).toBuffer(),
	// A head tilted in the picture (roll), background filled.
	tilted25: (b) => sharp(b).rotate().rotate(25, { background: { r: 90, g: 90, b: 90 } }).jpeg({ quality: 90 }).toBuffer(),
	// Exposure: a dim room, a window behind, a flash too close.
	dim: (b) => sharp(b).rotate().linear(0.3, 0).jpeg({ quality: 88 }).toBuffer(),
	dark: (b) => sharp(b).rotate().linear(0.15, 0).jpeg({ quality: 88 }).toBuffer(),
	blownOut: (b) => sharp(b).rotate().linear(1.9, 40).jpeg({ quality: 88 }).toBuffer(),
	// Focus and compression.
	blur3: (b) => sharp(b).rotate().blur(3).jpeg({ quality: 88 }).toBuffer(),
	blur6: (b) => sharp(b).rotate().blur(6).jpeg({ quality: 88 }).toBuffer(),
	jpeg10: (b) => sharp(b).rotate().jpeg({ quality: 10 }).toBuffer(),
	// A thumbnail: the whole photo 96 px wide.
	thumbnail96: (b) => sharp(b).rotate().resize({ width: 96 }).jpeg({ quality: 85 }).toBuffer(),
	grey: (b) => sharp(b).rotate().greyscale().jpeg({ quality: 90 }).toBuffer(),
	// A warm cast (tungsten light).
	warmCast: (b) => sharp(b).rotate().recomb([[1.15, 0.1, 0], [0.05, 0.95, 0], [0, 0.05, 0.6]]).jpeg({ quality: 90 }).toBuffer(),
	// Cropped tight: the middle 55 % of the photo (the face reaches the edges).
	tightCrop: async (b) => {
		const img = sharp(b).rotate();
		const { width = 1, height = 1 } = await sharp(await img.toBuffer()).metadata();
		return sharp(b).rotate().extract({ left: Math.round(width * 0.225), top: Math.round(height * 0.2), width: Math.round(width * 0.55), height: Math.round(height * 0.55) }).jpeg({ quality: 90 }).toBuffer();
	},
	// Cropped to the head, as ID portraits cut out of a larger photo are: the box the detector draws
	// (brows to chin: forehead, hair and ears cut) and that box a quarter larger.
	headCrop: headCrop(1.25),
	faceBoxCrop: headCrop(1),
	// The photo's top edge through the brows, through the eyes, and below them (only the nose, mouth
	// and chin left: the detector still boxes that as a face).
	cutAtBrows: cutAbove(0.3),
	cutThroughEyes: cutAbove(0),
	cutBelowEyes: cutAbove(-0.35),
	// The top edge across the forehead, above the brows (new, 2026-11-28): still the whole face's features.
	cutAtForehead: cutAbove(0.6),
	// The bottom edge a little below the mouth (chin cut), through the mouth, and between nose and
	// mouth (new, 2026-11-28).
	cutBelowMouth: cutBelow(0.3),
	cutThroughMouth: cutBelow(0),
	cutAboveMouth: cutBelow(-0.4),
	// Small faces in large photos (a group shot, a photo from across the room).
	face200in3000: smallInLarge(200, 3000),
	face140in3000: smallInLarge(140, 3000),
	face100in2000: smallInLarge(100, 2000),
	face60in1000: smallInLarge(60, 1000),
	// Added 2026-11-29 (eighteenth session), first run reported as it came: damages no earlier
	// session looked at. A selfie stored mirrored.
	mirrored: (b) => sharp(b).rotate().flop().jpeg({ quality: 90 }).toBuffer(),
	// Dark glasses: a near-black band across both eyes, the face's width.
	sunglasses: overlay((_w, _h, f) => {
		const band = 0.28 * (f.mouthY - f.eyesY);
		return `<rect x="${f.x + 0.08 * f.width}" y="${f.eyesY - band}" width="${0.84 * f.width}" height="${2 * band}" rx="${band}" fill="#111" opacity="0.92"/>`;
	}),
	// A surgical mask: from halfway down the nose to below the chin, the face's width.
	mask: overlay((_w, _h, f) => {
		const top = f.eyesY + 0.45 * (f.mouthY - f.eyesY);
		return `<rect x="${f.x + 0.02 * f.width}" y="${top}" width="${0.96 * f.width}" height="${f.y + 1.05 * f.height - top}" rx="${0.1 * f.width}" fill="#9cc3d5"/>`;
	}),
	// Added 2026-11-29 (twenty-first session): the masks most people wear, of no colour. A white
	// surgical mask (shaded: lit from above, its pleats), and a black cloth one.
	maskWhite: overlay((_w, _h, f) => {
		const top = f.eyesY + 0.45 * (f.mouthY - f.eyesY);
		const h = f.y + 1.05 * f.height - top;
		const pleats = [0.3, 0.5, 0.7].map((t) => `<line x1="${f.x + 0.04 * f.width}" x2="${f.x + 0.96 * f.width}" y1="${top + t * h}" y2="${top + t * h}" stroke="#b9c0c6" stroke-width="${Math.max(1, 0.012 * f.width)}"/>`).join('');
		return `<defs><linearGradient id="mw" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f5f7f8"/><stop offset="1" stop-color="#c4cacf"/></linearGradient></defs><rect x="${f.x + 0.02 * f.width}" y="${top}" width="${0.96 * f.width}" height="${h}" rx="${0.1 * f.width}" fill="url(#mw)"/>${pleats}`;
	}),
	maskBlack: overlay((_w, _h, f) => {
		const top = f.eyesY + 0.45 * (f.mouthY - f.eyesY);
		return `<defs><linearGradient id="mb" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2a2b2e"/><stop offset="1" stop-color="#121214"/></linearGradient></defs><rect x="${f.x + 0.02 * f.width}" y="${top}" width="${0.96 * f.width}" height="${f.y + 1.05 * f.height - top}" rx="${0.1 * f.width}" fill="url(#mb)"/>`;
	}),
	// A hand moving the camera: 15 px of horizontal motion.
	motionBlur: (b) => sharp(b).rotate().convolve({ width: 15, height: 3, kernel: [...new Array(15).fill(0), ...new Array(15).fill(1), ...new Array(15).fill(0)] }).jpeg({ quality: 88 }).toBuffer(),
	// A dim room's photo brightened by the phone: gain and noise.
	noisyDim: sensorNoise(0.55, 18),
	// Light from one side: the left half of the photo fades to a quarter of its brightness.
	sideLight: overlay((w, h) => `<defs><linearGradient id="g"><stop offset="0" stop-color="#000" stop-opacity="0.75"/><stop offset="0.55" stop-color="#000" stop-opacity="0"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/>`),
	// A stock photo's watermark: large pale text across the face.
	watermark: overlay((w, h, f) => `<text x="${w / 2}" y="${f.eyesY + 0.5 * (f.mouthY - f.eyesY)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${Math.round(0.35 * f.width)}" fill="#fff" opacity="0.55" transform="rotate(-20 ${w / 2} ${f.eyesY})">SAMPLE</text>`),
	// Added 2026-12-01: the watermarks stock photos carry. A photo library's name tiled over the whole
	// photo, small and faint (the face crossed by pieces of several); and a dark `COPY` stamp.
	watermarkTiled: overlay((w, h, f) => {
		const size = Math.max(10, Math.round(0.16 * f.width));
		let words = '';
		for (let y = size; y < h + size; y += 2.6 * size) for (let x = ((y / size) % 2) * 2 * size; x < w; x += 5.5 * size) words += `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" fill="#fff" opacity="0.4" transform="rotate(-12 ${x} ${y})">picturelib</text>`;
		return words;
	}),
	watermarkDark: overlay((w, _h, f) => `<text x="${w / 2}" y="${f.eyesY + 0.3 * (f.mouthY - f.eyesY)}" text-anchor="middle" font-family="DejaVu Serif" font-weight="bold" font-size="${Math.round(0.3 * f.width)}" fill="#1a1a1a" opacity="0.4" transform="rotate(-30 ${w / 2} ${f.eyesY})">COPY</text>`),
	// A small photo enlarged to its old size: the face 70 px wide, blown up again.
	upscaled: async (b, f) => {
		const upright = await sharp(b).rotate().toBuffer();
		const { width = 1 } = await sharp(upright).metadata();
		const small = await sharp(upright).resize({ width: Math.max(16, Math.round((width * 70) / f.width)) }).toBuffer();
		return sharp(small).resize({ width }).jpeg({ quality: 90 }).toBuffer();
	},
	// A photocopy: grey, hard contrast.
	photocopy: (b) => sharp(b).rotate().greyscale().linear(2.2, -150).jpeg({ quality: 80 }).toBuffer(),
	// A head held at 10° (between level and tilted25).
	tilted10: (b) => sharp(b).rotate().rotate(10, { background: { r: 90, g: 90, b: 90 } }).jpeg({ quality: 90 }).toBuffer()
};

const engine = await FaceEngine.create();
const all = photos();
const selected = (cliArg('--damages')?.split(',') ?? Object.keys(DAMAGES)).filter((d) => d in DAMAGES);

// The clean embeddings everything is compared with.
const { embeddings: clean, boxes: cleanBoxes } = await cleanReferences(engine, all);

interface Row extends PairTally {
	damage: string;
	photos: number;
	noFace: number;
	/** Refused as too small to compare (compareWithReference: no verdict, not a non-match). */
	tooSmall: number;
	/** Faces brighter than MAX_LUMINANCE: compared, but a non-match is "reference unusable", no verdict. */
	washedOut: number;
	/** Faces blurred past MIN_REFERENCE_SHARPNESS: compared, a non-match is no verdict. */
	blurred: number;
	/** Faces cut by the photo's edge (face-edges.ts): compared, a non-match is no verdict. */
	cutByEdge: number;
	overprinted: number;
	/** Faces whose eyes or mouth the reference analysis found hidden (occlusion.ts): compared, a non-match is no verdict. */
	hidden: number;
	looks: Record<string, number>;
	ms: number[];
}

const rows: Row[] = [];
for (const damage of selected) {
	const row: Row = { damage, photos: 0, noFace: 0, tooSmall: 0, washedOut: 0, blurred: 0, cutByEdge: 0, overprinted: 0, hidden: 0, noVerdict: 0, looks: {}, genuine: 0, falseNonMatch: 0, impostor: 0, falseMatch: 0, genuineScores: [], worstImpostor: -1, failures: [], ms: [] };
	for (const p of all) {
		if (!clean.has(p.file)) continue; // a photo the clean analysis cannot read says nothing about damage
		const box = cleanBoxes.get(p.file);
		if (!box && DAMAGES[damage].length > 1) continue; // a crop around the face needs the clean photo's box
		const damaged = await DAMAGES[damage](readFileSync(p.file), box!);
		const started = performance.now();
		const found = await engine.analyseReference(new Uint8Array(damaged));
		row.ms.push(performance.now() - started);
		row.photos++;
		const name = p.file.split('/').pop()!;
		if (!found?.face.embedding) {
			row.noFace++;
			row.failures.push(`${name}: no face`);
			continue;
		}
		if (found.face.box.width < MIN_REFERENCE_FACE_WIDTH) {
			row.tooSmall++;
			row.failures.push(`${name}: face ${Math.round(found.face.box.width)} px, too small to compare`);
			continue;
		}
		row.looks[found.look] = (row.looks[found.look] ?? 0) + 1;
		// As compareWithReference marks it and the verdict reads it (face-reference.ts referenceDoubts).
		const doubts = referenceDoubts(found);
		if (doubts.washedOut) row.washedOut++;
		if (doubts.blurred) row.blurred++;
		if (doubts.cutByEdge) row.cutByEdge++;
		if (doubts.overprinted) row.overprinted++;
		if (doubts.hidden) row.hidden++;
		tallyPairs(row, found.face.embedding, p, all, clean, { doubt: doubtLabel(doubts), label: `face ${Math.round(found.face.box.width)} px` });
	}
	rows.push(row);
	console.error(`${damage}: ${row.noFace}/${row.photos} no face, ${row.tooSmall} too small, ${row.washedOut} washed out, ${row.cutByEdge} cut by the edge, ${row.overprinted} with text across, ${row.hidden} with features hidden (${row.noVerdict} pairs unusable), FNMR ${row.falseNonMatch}/${row.genuine}, FMR ${row.falseMatch}/${row.impostor}`);
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} % (${n}/${d})` : '–');
const med = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : NaN);
const out: string[] = [];
out.push('# Reference photos under damage');
out.push('');
out.push(`${new Date().toISOString().slice(0, 10)}; ${all.length} face photos of ${new Set(all.map((p) => p.identity)).size} people from ${FIXTURE_SOURCE}; each damaged photo analysed as a reference (\`analyseReference\`) and compared with every other clean photo at the shipped threshold ${MATCH_THRESHOLD}.`);
out.push('');
out.push('| damage | no face found | too small to compare | washed out, blurred, cut by the edge or features hidden: photos / pairs unusable | FNMR | FMR | genuine similarity, median / lowest | highest impostor | looks that found the face | analysis ms, median |');
out.push('|---|---|---|---|---|---|---|---|---|---:|');
for (const r of rows) {
	const lowest = r.genuineScores.length ? Math.min(...r.genuineScores).toFixed(2) : '–';
	const looks = Object.entries(r.looks).map(([k, v]) => `${k} ${v}`).join(', ');
	out.push(`| ${r.damage} | ${pct(r.noFace, r.photos)} | ${pct(r.tooSmall, r.photos)} | ${r.washedOut + r.blurred + r.cutByEdge + r.overprinted + r.hidden ? `${[r.washedOut ? `${r.washedOut} washed` : '', r.blurred ? `${r.blurred} blurred` : '', r.cutByEdge ? `${r.cutByEdge} cut` : '', r.overprinted ? `${r.overprinted} text` : '', r.hidden ? `${r.hidden} hidden` : ''].filter(Boolean).join(', ')} of ${r.photos} / ${r.noVerdict}/${r.genuine + r.impostor}` : '–'} | ${pct(r.falseNonMatch, r.genuine)} | ${pct(r.falseMatch, r.impostor)} | ${r.genuineScores.length ? med(r.genuineScores).toFixed(2) : '–'} / ${lowest} | ${r.worstImpostor >= 0 ? r.worstImpostor.toFixed(2) : '–'} | ${looks} | ${Math.round(med(r.ms))} |`);
}
out.push('');
out.push('Failures:');
out.push('');
for (const r of rows) if (r.failures.length) out.push(`- **${r.damage}**: ${r.failures.join('; ')}`);
const text = out.join('\n') + '\n';
const file = cliArg('--out') ?? join(EVAL_ROOT, 'bench/results/face-damage-eval.md');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, text);
console.log(text);

// Whether the covered-face check (src/lib/face/occlusion.ts) marks bare faces, and whether it marks
// covers drawn where the landmarks put the features. A false mark costs a verdict (a reference's
// non-match becomes no verdict, a capture is asked again and again), so the bare faces come first:
// every face at least 40 px wide in the fixture photos (portraits, groups, live and spoof stills), the
// face-api demo photos and the screenshots in @vladmandic/human's assets (MIT; 91 small crops of real
// faces in its face-match screenshot, with stubble, make-up, open mouths and real sunglasses). Then
// each identity photo with covers drawn on it: dark lenses; masks of five colours from the nose to the
// jaw; and, as a control, the same black drawn only below the lips, where a beard grows (a drawing,
// not a beard: no bearded face is at hand).
//
// With `--mask-photos DIR`, also masks that are photographs (each JPEG or PNG in DIR: a mask laid flat,
// pleats and shading and all, e.g. the four in deepinsight/insightface's python-package data, read
// from a checkout, never copied here), stretched from the nose to the chin and clipped to the jaw, as
// photographed and tinted pink and slate: a flat fill is as even as no real mask is, and flatters any
// test of evenness.
//
// Run: npx tsx scripts/eval/occlusion.ts [--out FILE] [--dir DIR --pairs CSV] [--mask-photos DIR] [--save DIR] [--covers-only]
// Reads ../shared/fixtures when present, else tests/fixtures. Writes Markdown to
// bench/results/occlusion-eval.md. Nothing here tunes anything.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import sharp from 'sharp';
import { hiddenFeatures, hiddenList } from '../../src/lib/face/occlusion.ts';
import { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { decodeImage } from '../../src/lib/server/biometrics/image-decode.ts';
import { cliArg, cliArgs, EVAL_ROOT, facePhotos, FIXTURE_SOURCE, usesSharedFixtures } from './face-photos.ts';

const MIN_FACE = 40;

/** Photos of bare faces (and a few real sunglasses): the fixture folders and the packages' own pictures. */
function barePhotos(): string[] {
	const root = FIXTURE_SOURCE === 'tests/fixtures' || !usesSharedFixtures ? join(EVAL_ROOT, 'tests/fixtures/faces') : join(EVAL_ROOT, '..', 'shared', 'fixtures', 'faces');
	const pictures = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).map((f) => join(dir, f)) : []);
	const human = join(EVAL_ROOT, 'node_modules/@vladmandic/human/assets');
	return [
		// A labelled folder's photos (--dir: face-photos.ts) are bare faces too.
		...(cliArgs('dir')[0] ? pictures(cliArgs('dir')[0]) : []),
		...pictures(root),
		...['group', 'live', 'spoof'].flatMap((d) => pictures(join(root, d))),
		...pictures(join(EVAL_ROOT, 'node_modules/@vladmandic/face-api/demo')).filter((f) => /sample\d/.test(f)),
		...['samples.jpg', 'screenshot-facematch.jpg', 'screenshot-faceid.jpg', 'screenshot-facedetect.jpg'].map((f) => join(human, f)).filter(existsSync)
	];
}

type Cover = (at: (i: number) => { x: number; y: number }, gap: number) => string;

const gradient = (id: string, top: string, bottom: string) => `<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>`;
const polygon = (points: { x: number; y: number }[], fill: string) => `<polygon points="${points.map((p) => `${p.x},${p.y}`).join(' ')}" fill="${fill}"/>`;
/** From the nose (landmark 29, above its tip) down the jaw, as a worn mask sits. */
const maskOver = (fill: string, defs = ''): Cover => (at) => defs + polygon([...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(at), { x: at(15).x, y: at(29).y }, { x: at(1).x, y: at(29).y }], fill);
const eye = (at: (i: number) => { x: number; y: number }, from: number) => {
	const ps = [0, 1, 2, 3, 4, 5].map((k) => at(from + k));
	return { x: ps.reduce((s, p) => s + p.x, 0) / 6, y: ps.reduce((s, p) => s + p.y, 0) / 6 };
};

const COVERS: Record<string, { cover: Cover; expect: string }> = {
	'dark lenses': { cover: (at, gap) => [eye(at, 36), eye(at, 42)].map((c) => `<ellipse cx="${c.x}" cy="${c.y}" rx="${0.42 * gap}" ry="${0.3 * gap}" fill="#1a1a1a" opacity="0.9"/>`).join(''), expect: 'eyes' },
	'light blue mask': { cover: maskOver('#8fbcd4'), expect: 'mouth' },
	'slate mask': { cover: maskOver('#5a6470'), expect: 'mouth' },
	'pink mask': { cover: maskOver('#e8a0b8'), expect: 'mouth' },
	'slate mask, shaded': { cover: maskOver('url(#s)', gradient('s', '#6a7480', '#3a4250')), expect: 'mouth' },
	'pink mask, shaded': { cover: maskOver('url(#p)', gradient('p', '#f0b0c4', '#c07890')), expect: 'mouth' },
	'white mask': { cover: maskOver('url(#w)', gradient('w', '#f5f7f8', '#c4cacf')), expect: 'mouth' },
	'black mask': { cover: maskOver('url(#b)', gradient('b', '#2a2b2e', '#121214')), expect: 'mouth' },
	// The control: the black mask's colour only below the lower lip, the lips bare.
	'black below the lips (where a beard grows)': { cover: (at) => gradient('b', '#2a2b2e', '#121214') + polygon([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 54, 57, 48].map(at), 'url(#b)'), expect: '' }
};

/** A photographed mask (`texture`, data URI) stretched over the mask's outline: nose to chin, jaw to jaw. */
const maskPhoto = (texture: string): Cover => (at) => {
	const outline = [...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(at), { x: at(15).x, y: at(29).y }, { x: at(1).x, y: at(29).y }];
	const xs = outline.map((p) => p.x);
	const ys = outline.map((p) => p.y);
	const [x, y] = [Math.min(...xs), Math.min(...ys)];
	const [w, h] = [Math.max(...xs) - x, Math.max(...ys) - y];
	return `<defs><clipPath id="m">${polygon(outline, '#000')}</clipPath></defs><image href="${texture}" x="${x}" y="${y}" width="${w}" height="${h}" preserveAspectRatio="none" clip-path="url(#m)"/>`;
};

/** Covers from the photographed masks in `dir`: each as photographed, and the white ones tinted. */
async function photographedMasks(dir: string | undefined): Promise<Record<string, { cover: Cover; expect: string }>> {
	if (!dir) return {};
	const out: Record<string, { cover: Cover; expect: string }> = {};
	const uri = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;
	for (const f of readdirSync(dir).filter((x) => /\.(jpe?g|png)$/i.test(x)).sort()) {
		const file = join(dir, f);
		const name = basename(f).replace(/\.[^.]+$/, '');
		out[`photographed ${name}`] = { cover: maskPhoto(uri(await sharp(file).png().toBuffer())), expect: 'mouth' };
		if (/white/i.test(name)) {
			out[`photographed ${name}, tinted pink`] = { cover: maskPhoto(uri(await sharp(file).tint('#e8a0b8').png().toBuffer())), expect: 'mouth' };
			out[`photographed ${name}, tinted slate`] = { cover: maskPhoto(uri(await sharp(file).linear(0.45, 0).tint('#5a6470').png().toBuffer())), expect: 'mouth' };
		}
	}
	return out;
}

async function main() {
	const covers = { ...COVERS, ...(await photographedMasks(cliArg('--mask-photos'))) };
	// --save DIR: each drawn photo, to look at.
	const save = cliArg('--save');
	const engine = await FaceEngine.create();
	const lines: string[] = [`# Covered faces: the check on bare faces and on drawn covers`, '', `Photos: ${FIXTURE_SOURCE} and the face pictures in node_modules (see scripts/eval/occlusion.ts).`, ''];

	// Bare faces (every face the detector finds, at least MIN_FACE px wide).
	let faces = 0;
	const marked: string[] = [];
	// --covers-only: skip the bare faces (a quick look at the covers).
	for (const file of process.argv.includes('--covers-only') ? [] : barePhotos()) {
		const { image, faces: found } = await engine.analyseBytes(readFileSync(file), { embed: false });
		for (const f of found) {
			if (f.box.width < MIN_FACE) continue;
			faces++;
			const hidden = hiddenList(hiddenFeatures(image, f.landmarks));
			if (hidden.length) marked.push(`${basename(file)} face at ${Math.round(f.box.x)},${Math.round(f.box.y)} (${Math.round(f.box.width)} px): ${hidden.join(', ')}`);
			process.stdout.write('.');
		}
	}
	lines.push(`## As photographed`, '', `${faces} faces at least ${MIN_FACE} px wide; marked: ${marked.length}.`, '', ...marked.map((m) => `- ${m}`), '');

	// Covers drawn on each identity photo, where its own landmarks put the features.
	lines.push('## Covers drawn on the identity photos', '', '| cover | marked as expected | marked otherwise |', '|---|---|---|');
	const photos = facePhotos();
	const results = new Map<string, { right: number; other: string[] }>(Object.keys(covers).map((k) => [k, { right: 0, other: [] }]));
	for (const p of photos) {
		// At the size the analysis decodes it to (MAX_DECODE_SIDE), so that the landmarks are in its pixels.
		const original = readFileSync(p.file);
		const bytes = await sharp(original).rotate().resize({ width: (await decodeImage(new Uint8Array(original))).width }).jpeg({ quality: 92 }).toBuffer();
		// The plain analysis, whose landmarks are in the photo's own pixels (a reference's may be in a
		// zoomed or levelled look's).
		const subject = (await engine.analyseBytes(bytes, { embed: false })).faces.reduce<{ box: { width: number }; landmarks: Float32Array | number[] } | null>((a, f) => (!a || f.box.width > a.box.width ? f : a), null);
		if (!subject) continue;
		const { landmarks } = subject;
		const { width = 0, height = 0 } = await sharp(bytes).metadata();
		const at = (i: number) => ({ x: landmarks[2 * i], y: landmarks[2 * i + 1] });
		const gap = Math.hypot(eye(at, 42).x - eye(at, 36).x, eye(at, 42).y - eye(at, 36).y);
		for (const [name, { cover, expect }] of Object.entries(covers)) {
			const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${cover(at, gap)}</svg>`;
			const drawn = await sharp(bytes).composite([{ input: Buffer.from(svg) }]).jpeg({ quality: 90 }).toBuffer();
			if (save) {
				mkdirSync(save, { recursive: true });
				writeFileSync(join(save, `${name.replace(/[^a-z0-9]+/gi, '-')}-${basename(p.file).replace(/\.[^.]+$/, '')}.jpg`), drawn);
			}
			const hidden = (await engine.analyseReference(drawn))?.hidden;
			const got = hidden ? hiddenList(hidden).join(', ') : 'no face';
			const r = results.get(name)!;
			if (got === expect) r.right++;
			else r.other.push(`${basename(p.file)}: ${got || 'nothing'}`);
			process.stdout.write('.');
		}
	}
	for (const [name, r] of results) lines.push(`| ${name} | ${r.right}/${photos.length} | ${r.other.join('; ') || '–'} |`);
	lines.push('', `Expected: dark lenses \`eyes\`; every mask \`mouth\`; the control nothing.`, '');

	const out = cliArg('--out') ?? join(EVAL_ROOT, 'bench/results/occlusion-eval.md');
	mkdirSync(dirname(out), { recursive: true });
	writeFileSync(out, lines.join('\n'));
	console.log(`\n${lines.join('\n')}\nwrote ${out}`);
}

await main();

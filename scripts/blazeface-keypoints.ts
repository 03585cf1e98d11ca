// `npx tsx scripts/blazeface-keypoints.ts`: runs the page's face detector (MediaPipe BlazeFace, the
// build in static/models) in headless Chromium on real pixels and writes what it found to
// tests/fixtures/faces/blazeface-detections.json, the data the plausibility unit tests read: the
// fixture faces and non-faces drawn into a 1280×720 camera frame as the scene camera draws them, and
// objects drawn on a canvas (a mug, a skin-toned textured ellipse), each at a few shifts (a hand-held
// camera). Needs `npm run models` first. Nothing is downloaded.
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';
import { FACE_CROPS } from '../tests/e2e/support/face-clips.ts';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'tests/.tmp/blazeface');
mkdirSync(OUT, { recursive: true });
if (!existsSync(join(ROOT, 'static/models/manifest.json'))) throw new Error('static/models is missing: run `npm run models`');

const PAGE = `
import { createMediaPipeDetector } from '#lib/camera/detector.mediapipe.ts';
import { drawScene } from './scenes.ts';
window.detectAll = async (scenes) => {
	const detector = await createMediaPipeDetector({ useWebGL: false, minConfidence: 0.3 });
	const canvas = document.createElement('canvas');
	canvas.width = 1280; canvas.height = 720;
	const out = [];
	let ts = 0;
	for (const scene of scenes) {
		for (const shift of [[0, 0], [5, -3], [-5, 3]]) {
			await drawScene(canvas, scene, shift);
			// VIDEO mode tracks nothing across frames for detection; a fresh timestamp each frame.
			const frame = detector.detect(canvas, (ts += 100));
			out.push({ scene: scene.name, kind: scene.kind, shift, width: frame.width, height: frame.height, faces: frame.faces.map((f) => ({ box: f.box, score: f.score, keypoints: f.keypoints })) });
		}
	}
	return out;
};
window.ready = true;
`;

const SCENES_TS = `
const images = new Map();
async function image(src) {
	if (!images.has(src)) images.set(src, await new Promise((resolve, reject) => { const i = new Image(); i.onload = () => resolve(i); i.onerror = reject; i.src = src; }));
	return images.get(src);
}
function noise(ctx, x, y, w, h, seed) {
	let s = seed;
	const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
	for (let i = 0; i < 6000; i++) {
		ctx.fillStyle = 'rgba(' + Math.round(90 + 80 * rnd()) + ',' + Math.round(50 + 60 * rnd()) + ',' + Math.round(30 + 50 * rnd()) + ',0.35)';
		ctx.fillRect(x + rnd() * w, y + rnd() * h, 2 + 4 * rnd(), 2 + 4 * rnd());
	}
}
export async function drawScene(canvas, scene, [dx, dy]) {
	const ctx = canvas.getContext('2d');
	const W = canvas.width, H = canvas.height;
	ctx.fillStyle = '#5b4a3a';
	ctx.fillRect(0, 0, W, H);
	if (scene.still) {
		const img = await image(scene.still);
		const c = scene.crop ?? { x: 0, y: 0, width: img.naturalWidth, height: img.naturalHeight };
		const fit = scene.fit ?? [1200 / 1280, 660 / 720];
		const k = Math.min((W * fit[0]) / c.width, (H * fit[1]) / c.height);
		const w = Math.round(c.width * k), h = Math.round(c.height * k);
		ctx.drawImage(img, c.x, c.y, c.width, c.height, Math.round((W - w) / 2) + dx, Math.round((H - h) / 2) + dy, w, h);
		return;
	}
	const cx = W / 2 + dx, cy = H / 2 + dy;
	if (scene.draw === 'mug') {
		// A white mug with a handle, dark coffee seen from a little above, a shadow and a highlight.
		ctx.fillStyle = '#3a3a3a'; ctx.beginPath(); ctx.ellipse(cx, cy + 190, 190, 30, 0, 0, 2 * Math.PI); ctx.fill();
		const body = ctx.createLinearGradient(cx - 150, 0, cx + 150, 0);
		body.addColorStop(0, '#bdbdbd'); body.addColorStop(0.35, '#f4f4f4'); body.addColorStop(1, '#9a9a9a');
		ctx.fillStyle = body; ctx.fillRect(cx - 150, cy - 150, 300, 330);
		ctx.beginPath(); ctx.ellipse(cx, cy + 180, 150, 30, 0, 0, Math.PI); ctx.fill();
		ctx.lineWidth = 34; ctx.strokeStyle = '#d8d8d8'; ctx.beginPath(); ctx.ellipse(cx + 175, cy + 10, 70, 95, 0, -Math.PI / 2, Math.PI / 2); ctx.stroke();
		ctx.fillStyle = '#eeeeee'; ctx.beginPath(); ctx.ellipse(cx, cy - 150, 150, 38, 0, 0, 2 * Math.PI); ctx.fill();
		ctx.fillStyle = '#4a2c17'; ctx.beginPath(); ctx.ellipse(cx, cy - 148, 132, 30, 0, 0, 2 * Math.PI); ctx.fill();
		ctx.fillStyle = '#c49a6c'; ctx.beginPath(); ctx.ellipse(cx - 10, cy - 150, 60, 12, 0, 0, 2 * Math.PI); ctx.fill();
		return;
	}
	if (scene.draw === 'ellipse') {
		// A skin-toned oval with a mottled texture: the colour and shape of a face, none of its parts.
		const g = ctx.createRadialGradient(cx - 40, cy - 60, 20, cx, cy, 260);
		g.addColorStop(0, '#e8b894'); g.addColorStop(1, '#a8735a');
		ctx.fillStyle = g; ctx.beginPath(); ctx.ellipse(cx, cy, 190, 250, 0, 0, 2 * Math.PI); ctx.fill();
		ctx.save(); ctx.clip(); noise(ctx, cx - 190, cy - 250, 380, 500, 7); ctx.restore();
		return;
	}
}
`;

writeFileSync(join(OUT, 'page.ts'), PAGE);
writeFileSync(join(OUT, 'scenes.ts'), SCENES_TS);
await build({ entryPoints: { page: join(OUT, 'page.ts') }, outdir: OUT, bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning' });

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.jpg': 'image/jpeg', '.tflite': 'application/octet-stream' };
const ROUTES: [string, string][] = [['/out/', OUT], ['/models/', join(ROOT, 'static/models')], ['/faces/', join(ROOT, 'tests/fixtures/faces')]];
const server = createServer((req, res) => {
	const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
	if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/out/page.js"></script>');
	for (const [prefix, dir] of ROUTES) {
		if (!path.startsWith(prefix)) continue;
		const file = normalize(join(dir, path.slice(prefix.length)));
		if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) break;
		return void res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
	}
	res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const face = (file: string) => ({ name: file, kind: 'face', still: `/faces/${file}`, crop: FACE_CROPS[file] ?? null });
const other = (file: string, fit?: [number, number]) => ({ name: fit ? `${file}@${fit[0]}` : file, kind: 'nonFace', still: `/faces/${file}`, crop: null, ...(fit ? { fit } : {}) });
const scenes = [
	face('barack_obama_1.jpg'),
	face('barack_obama_2.jpg'),
	face('joe_biden_2_800w.jpg'),
	face('eileen_collins_1.jpg'),
	face('codait_luciano_1.jpg'),
	face('live_minivision_1.jpg'),
	other('no_face_coffee.jpg'),
	other('no_face_coffee.jpg', [2, 2]),
	other('no_face_coffee.jpg', [0.6, 0.6]),
	other('no_face_rocket.jpg'),
	{ name: 'drawn mug', kind: 'nonFace', draw: 'mug' },
	{ name: 'textured ellipse', kind: 'nonFace', draw: 'ellipse' }
];

const browser = await chromium.launch({ executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined });
try {
	const page = await browser.newPage();
	await page.goto(base);
	await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, { timeout: 60_000 });
	const found = await page.evaluate((s) => (window as unknown as { detectAll: (s: unknown) => Promise<unknown> }).detectAll(s), scenes);
	const out = join(ROOT, 'tests/fixtures/faces/blazeface-detections.json');
	writeFileSync(out, `${JSON.stringify({ detector: 'MediaPipe BlazeFace short range, CPU, minDetectionConfidence 0.3', written: 'scripts/blazeface-keypoints.ts', frames: found }, null, '\t')}\n`);
	for (const f of found as { scene: string; shift: number[]; faces: { score: number }[] }[]) console.log(f.scene, f.shift.join(','), f.faces.map((x) => x.score.toFixed(2)).join(' '));
} finally {
	await browser.close();
	server.close();
}

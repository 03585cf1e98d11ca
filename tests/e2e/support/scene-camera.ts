// A fake camera whose picture the test changes when the page has reached a state, instead of a clip
// that plays on the wall clock. A clip has to guess how long a step takes, and on a slow or busy
// machine it guesses wrong: the passport is gone before it was captured, or the face loops back to
// the passport mid-scan. Here `getUserMedia` returns a canvas stream that draws the current scene (a
// fixture still, drifting as a hand-held camera does, under a sensor's noise so no two frames are identical)
// until the test calls `show(next)`. Audio, when asked for, still comes from Chromium's fake device.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { FACE_CROPS, FACE_FRAMES } from './face-clips.ts';
import { HEADS, stripTables, TABLE_MAX_YAW, type Strip } from './turning-face.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

export interface SceneCamera {
	/** Switches the picture to another scene from now on. */
	show(scene: string): Promise<void>;
	/** A subject scene's head turns to `yawDeg` (cylinder angle, + = towards the image's right: the user's left) over `ms`, continuously. */
	turn(yawDeg: number, ms?: number): Promise<void>;
	/** Frames drawn so far that a screen colour lit (0 while the page shows no light challenge). */
	litFrames(): Promise<number>;
}

/**
 * A simulated live subject (turning-face.ts): a frontal portrait that turns as a head does when the
 * test calls `turn`, lit by the page's screen colour ([data-testid="light-flash"]'s background)
 * as a face in front of a screen is (strongly on the face, weakly on the wall behind), with sensor
 * noise and a hand-held drift, so no two frames match. `lightLagMs` reads the colour that long ago:
 * a stream relayed from elsewhere, whose light arrives late.
 */
export interface SubjectScene {
	subject: string;
	lightLagMs?: number;
	/** Fill the frame (FACE_FRAMES), as a person before a camera; otherwise the portrait is letterboxed, edges in sight, as a print held up. */
	fill?: boolean;
	/** How strongly the screen lights the face (1: the suite's usual, a face ~0.2 of log-chromaticity apart between colours; a bright room is weaker). */
	lightGain?: number;
}

/** One still of a scene: `documents/<file>` or `faces/<file>` under tests/fixtures. */
export interface SceneStill {
	still: string;
	/** Mirrored (a three-quarter portrait mirrored is the same head turned the other way). */
	flip?: boolean;
	/** In a scene of several stills, how long this one shows before the next (the scene loops). */
	seconds?: number;
}

interface StillSpec {
	src: string;
	/** Subject scenes: strip tables for yaw −TABLE_MAX_YAW…+TABLE_MAX_YAW and the face ellipse (source pixels). */
	subject?: { tables: Strip[][]; face: { cx: number; cy: number; rx: number; ry: number }; lagMs: number; gain: number };
	crop: { x: number; y: number; width: number; height: number } | null;
	/** Share of the frame (width, height) the still is fitted into. */
	fit: [number, number];
	flip: boolean;
	seconds: number;
}

/**
 * Installs the camera on `page` before it loads. `scenes` maps a name to a still (a file name, or
 * a SceneStill) or to stills shown in a loop; the first scene shows first.
 */
export async function sceneCamera(page: Page, scenes: Record<string, string | SceneStill | SceneStill[] | SubjectScene>): Promise<SceneCamera> {
	const specs: Record<string, StillSpec[]> = {};
	for (const [name, scene] of Object.entries(scenes)) {
		if (typeof scene === 'object' && 'subject' in scene) {
			const head = HEADS[path.basename(scene.subject)];
			if (!head) throw new Error(`no head geometry for ${scene.subject} (turning-face.ts HEADS)`);
			specs[name] = [
				{
					src: `data:image/jpeg;base64,${readFileSync(path.join(FIXTURES, scene.subject)).toString('base64')}`,
					// Filled a little past the frame's edges, so the hand-held wander never shows one.
					crop: (scene.fill ? FACE_FRAMES[path.basename(scene.subject)] : undefined) ?? FACE_CROPS[path.basename(scene.subject)] ?? null,
					fit: scene.fill && FACE_FRAMES[path.basename(scene.subject)] ? [1.03, 1.03] : [1200 / 1280, 660 / 720],
					flip: false,
					seconds: 1,
					subject: { tables: stripTables(head), face: { cx: head.cx, cy: head.cy, rx: 1.1 * head.radius, ry: 1.1 * head.halfHeight }, lagMs: scene.lightLagMs ?? 0, gain: scene.lightGain ?? 1 }
				}
			];
			continue;
		}
		const stills = (Array.isArray(scene) ? scene : [scene]).map((s) => (typeof s === 'string' ? { still: s } : s));
		specs[name] = stills.map(({ still: file, flip = false, seconds = 1 }) => {
			// A face still: under faces/, or a copy of one made by a test (tests/.tmp/faces/…).
			const face = file.startsWith('faces/') || file.includes('/faces/');
			return {
				src: `data:${file.endsWith('.png') ? 'image/png' : 'image/jpeg'};base64,${readFileSync(path.join(FIXTURES, file)).toString('base64')}`,
				crop: face ? (FACE_CROPS[path.basename(file)] ?? null) : null,
				// As in the clips: a document fills about two thirds of the frame, a face a bit more.
				fit: face ? ([1200 / 1280, 660 / 720] as [number, number]) : ([0.72, 0.86] as [number, number]),
				flip,
				seconds
			};
		});
	}
	// Run from a tsx script (scripts/eval/liveness-attacks.ts), esbuild's keepNames wraps the named
	// functions below in `__name(…)`, a helper the page does not have: without it the camera is never installed.
	await page.addInitScript('globalThis.__name ??= (f) => f;');
	await page.addInitScript(
		({ specs, first, maxYaw }) => {
			const W = 1280, H = 720;
			const images: Record<string, HTMLImageElement[]> = {};
			for (const [name, stills] of Object.entries(specs)) {
				images[name] = stills.map((s) => {
					const img = new Image();
					img.src = s.src;
					return img;
				});
			}
			let current = first;
			let sceneStart = performance.now();
			(window as unknown as { __vfScene: (n: string) => void }).__vfScene = (n: string) => {
				current = n;
				sceneStart = performance.now();
			};
			// The subject's head: yaw eases from `from` to `to` between two times.
			let yaw = { from: 0, to: 0, start: 0, end: 0 };
			const yawNow = (now: number) => {
				if (now >= yaw.end) return yaw.to;
				const f = (now - yaw.start) / (yaw.end - yaw.start);
				return yaw.from + (yaw.to - yaw.from) * (0.5 - 0.5 * Math.cos(Math.PI * f));
			};
			const hooks = window as unknown as { __vfTurn: (d: number, ms: number) => void; __vfLit: number };
			hooks.__vfTurn = (deg: number, ms: number) => {
				const now = performance.now();
				yaw = { from: yawNow(now), to: deg, start: now, end: now + Math.max(1, ms) };
			};
			hooks.__vfLit = 0;
			// The screen's colour as the page shows it, with its history (a relayed stream sees it late).
			const screen: { t: number; rgb: [number, number, number] | null }[] = [];
			const readScreen = (): [number, number, number] | null => {
				const el = document.querySelector<HTMLElement>('[data-testid="light-flash"]');
				if (!el || el.hidden || getComputedStyle(el).display === 'none' || getComputedStyle(el).visibility === 'hidden') return null;
				const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(el.style.backgroundColor || getComputedStyle(el).backgroundColor);
				return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
			};
			const screenAt = (t: number) => {
				let rgb: [number, number, number] | null = null;
				for (const s of screen) if (s.t <= t) rgb = s.rgb;
				return rgb;
			};
			// Sensor noise: a tile of grey noise laid at a random offset on every frame.
			let noise: CanvasPattern | null = null;
			const noiseTile = () => {
				const tile = document.createElement('canvas');
				tile.width = tile.height = 128;
				const tctx = tile.getContext('2d')!;
				const data = tctx.createImageData(128, 128);
				for (let i = 0; i < data.data.length; i += 4) {
					const v = Math.floor(Math.random() * 256);
					data.data[i] = data.data[i + 1] = data.data[i + 2] = v;
					data.data[i + 3] = 255;
				}
				tctx.putImageData(data, 0, 0);
				return tile;
			};
			let canvas: HTMLCanvasElement | null = null;
			const t0 = performance.now();
			const draw = () => {
				const ctx = canvas!.getContext('2d')!;
				ctx.fillStyle = '#5b4a3a';
				ctx.fillRect(0, 0, W, H);
				const stills = specs[current];
				const loop = stills.reduce((sum, s) => sum + s.seconds, 0);
				let at = ((performance.now() - sceneStart) / 1000) % loop;
				let k = 0;
				while (k < stills.length - 1 && at >= stills[k].seconds) at -= stills[k++].seconds;
				const img = images[current][k], s = stills[k];
				if (!img.complete || !img.naturalWidth) return;
				const c = s.crop ?? { x: 0, y: 0, width: img.naturalWidth, height: img.naturalHeight };
				const scale = Math.min((W * s.fit[0]) / c.width, (H * s.fit[1]) / c.height);
				const w = Math.round(c.width * scale), h = Math.round(c.height * scale);
				const now = performance.now();
				const t = (now - t0) / 1000;
				if (s.subject) {
					drawSubject(ctx, img, c, s.subject, scale, w, h, now);
					return;
				}
				const dx = Math.trunc(5 * Math.sin((2 * Math.PI * t) / 1.9)), dy = Math.trunc(3 * Math.cos((2 * Math.PI * t) / 2.3));
				ctx.save();
				if (s.flip) {
					ctx.translate(W, 0);
					ctx.scale(-1, 1);
				}
				ctx.drawImage(img, c.x, c.y, c.width, c.height, Math.round((W - w) / 2) + dx, Math.round((H - h) / 2) + dy, w, h);
				ctx.restore();
				// The drift above is periodic and in whole pixels, so it brings back the same picture; a
				// camera's sensor never does (the server rightly calls exact repeats a looped clip).
				grain(ctx);
			};
			const grain = (ctx: CanvasRenderingContext2D) => {
				noise ??= ctx.createPattern(noiseTile(), 'repeat');
				ctx.save();
				ctx.globalAlpha = 0.035;
				ctx.translate(Math.floor(Math.random() * 128), Math.floor(Math.random() * 128));
				ctx.fillStyle = noise!;
				ctx.fillRect(-128, -128, W + 128, H + 128);
				ctx.restore();
			};
			type Crop = { x: number; y: number; width: number; height: number };
			const hand = { x: 0, y: 0, vx: 0, vy: 0 };
			const drawSubject = (ctx: CanvasRenderingContext2D, img: HTMLImageElement, c: Crop, subject: NonNullable<StillSpec['subject']>, scale: number, w: number, h: number, now: number) => {
				// A hand-held camera wanders (a damped random walk, never a cycle: a periodic drift brings
				// the picture back to where it was, which the server rightly reads as a looping clip).
				hand.vx = 0.85 * hand.vx + 1.2 * (Math.random() - 0.5) - 0.01 * hand.x;
				hand.vy = 0.85 * hand.vy + 0.8 * (Math.random() - 0.5) - 0.01 * hand.y;
				hand.x += hand.vx;
				hand.y += hand.vy;
				const ox = (W - w) / 2 + hand.x;
				const oy = (H - h) / 2 + hand.y;
				const toX = (x: number) => ox + (x - c.x) * scale;
				const toY = (y: number) => oy + (y - c.y) * scale;
				ctx.drawImage(img, c.x, c.y, c.width, c.height, ox, oy, w, h);
				const deg = Math.max(-maxYaw, Math.min(maxYaw, Math.round(yawNow(now))));
				for (const st of subject.tables[deg + maxYaw]) {
					// Half a pixel of overlap: no seams between strips.
					ctx.drawImage(img, st.sx0, c.y, st.sx1 - st.sx0, c.height, toX(st.dx0), oy, (st.dx1 - st.dx0) * scale + 0.5, h);
				}
				screen.push({ t: now, rgb: readScreen() });
				while (screen.length > 2 && screen[1].t <= now - subject.lagMs - 2000) screen.shift();
				const rgb = screenAt(now - subject.lagMs);
				if (rgb) {
					hooks.__vfLit++;
					// Light adds: a weak wash on the whole scene, a strong one on the face near the screen.
					ctx.save();
					ctx.globalCompositeOperation = 'lighter';
					const k = subject.gain;
					ctx.fillStyle = `rgba(${rgb[0]}, ${rgb[1]}, ${rgb[2]}, ${0.06 * k})`;
					ctx.fillRect(0, 0, W, H);
					const f = subject.face;
					const shift = (yawNow(now) * Math.PI) / 180;
					const g = ctx.createRadialGradient(0, 0, 0, 0, 0, 1);
					g.addColorStop(0, `rgba(${rgb[0]}, ${rgb[1]}, ${rgb[2]}, ${0.32 * k})`);
					g.addColorStop(0.8, `rgba(${rgb[0]}, ${rgb[1]}, ${rgb[2]}, ${0.24 * k})`);
					g.addColorStop(1, `rgba(${rgb[0]}, ${rgb[1]}, ${rgb[2]}, 0)`);
					ctx.translate(toX(f.cx + f.rx * 0.5 * Math.sin(shift)), toY(f.cy));
					ctx.scale(f.rx * scale, f.ry * scale);
					ctx.fillStyle = g;
					ctx.beginPath();
					ctx.arc(0, 0, 1, 0, 2 * Math.PI);
					ctx.fill();
					ctx.restore();
				}
				grain(ctx);
			};
			const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
			navigator.mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
				if (!constraints?.video) return original(constraints);
				if (!canvas) {
					canvas = document.createElement('canvas');
					canvas.width = W;
					canvas.height = H;
					draw();
					setInterval(draw, 100);
				}
				const stream = canvas.captureStream(10);
				if (constraints.audio) for (const track of (await original({ audio: constraints.audio })).getAudioTracks()) stream.addTrack(track);
				return stream;
			};
		},
		{ specs, first: Object.keys(scenes)[0], maxYaw: TABLE_MAX_YAW }
	);
	return {
		async show(scene: string) {
			if (!(scene in specs)) throw new Error(`no scene '${scene}'`);
			await page.evaluate((n) => (window as unknown as { __vfScene: (n: string) => void }).__vfScene(n), scene);
		},
		async turn(yawDeg: number, ms = 1200) {
			await page.evaluate(([d, m]) => (window as unknown as { __vfTurn: (d: number, m: number) => void }).__vfTurn(d, m), [yawDeg, ms] as const);
		},
		async litFrames() {
			return page.evaluate(() => (window as unknown as { __vfLit: number }).__vfLit);
		}
	};
}

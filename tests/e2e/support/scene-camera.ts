// A fake camera whose picture the test changes when the page has reached a state, instead of a clip
// that plays on the wall clock. A clip has to guess how long a step takes, and on a slow or busy
// machine it guesses wrong: the passport is gone before it was captured, or the face loops back to
// the passport mid-scan. Here `getUserMedia` returns a canvas stream that draws the current scene (a
// fixture still, drifting by whole pixels as a hand-held camera does, so no two frames are identical)
// until the test calls `show(next)`. Audio, when asked for, still comes from Chromium's fake device.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { FACE_CROPS } from './face-clips.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

export interface SceneCamera {
	/** Switches the picture to another scene from now on. */
	show(scene: string): Promise<void>;
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
export async function sceneCamera(page: Page, scenes: Record<string, string | SceneStill | SceneStill[]>): Promise<SceneCamera> {
	const specs: Record<string, StillSpec[]> = {};
	for (const [name, scene] of Object.entries(scenes)) {
		const stills = (Array.isArray(scene) ? scene : [scene]).map((s) => (typeof s === 'string' ? { still: s } : s));
		specs[name] = stills.map(({ still: file, flip = false, seconds = 1 }) => ({
			src: `data:${file.endsWith('.png') ? 'image/png' : 'image/jpeg'};base64,${readFileSync(path.join(FIXTURES, file)).toString('base64')}`,
			crop: file.startsWith('faces/') ? (FACE_CROPS[path.basename(file)] ?? null) : null,
			// As in the clips: a document fills about two thirds of the frame, a face a bit more.
			fit: file.startsWith('faces/') ? [1200 / 1280, 660 / 720] : [0.72, 0.86],
			flip,
			seconds
		}));
	}
	await page.addInitScript(
		({ specs, first }) => {
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
				const t = (performance.now() - t0) / 1000;
				const dx = Math.trunc(5 * Math.sin((2 * Math.PI * t) / 1.9)), dy = Math.trunc(3 * Math.cos((2 * Math.PI * t) / 2.3));
				ctx.save();
				if (s.flip) {
					ctx.translate(W, 0);
					ctx.scale(-1, 1);
				}
				ctx.drawImage(img, c.x, c.y, c.width, c.height, Math.round((W - w) / 2) + dx, Math.round((H - h) / 2) + dy, w, h);
				ctx.restore();
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
		{ specs, first: Object.keys(scenes)[0] }
	);
	return {
		async show(scene: string) {
			if (!(scene in specs)) throw new Error(`no scene '${scene}'`);
			await page.evaluate((n) => (window as unknown as { __vfScene: (n: string) => void }).__vfScene(n), scene);
		}
	};
}

// Fake-camera clips for the face journeys, made at test time from the fixture stills with ffmpeg
// (never committed: ~460 KB a frame). Chromium's fake device plays a .y4m (4:2:0) in a loop.
// Each segment is a still letterboxed into 640×480, moved by whole pixels over time (no resampling,
// which would blur the texture passive liveness reads), so consecutive frames are never identical.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { FAKE_MEDIA_ARGS } from '../../../playwright.config.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const FIXTURES = path.join(ROOT, 'tests/fixtures/faces');
const OUT = path.join(ROOT, 'tests/.tmp/clips');
const FPS = 15;

export interface Segment {
	/** A file in tests/fixtures/faces. */
	still: string;
	seconds: number;
	/** Mirror it (a three-quarter portrait mirrored is the same head turned the other way). */
	flip?: boolean;
	/** Part of the still to show (source pixels, 4:3), so the face sits near the middle as a user would put it. */
	crop?: { x: number; y: number; width: number; height: number } | null;
}

/** 4:3 crops of the fixture portraits with the face near the centre (from the fr_detect boxes). */
export const FACE_CROPS: Record<string, Segment['crop']> = {
	'barack_obama_1.jpg': { x: 172, y: 0, width: 640, height: 480 },
	'barack_obama_2.jpg': { x: 0, y: 182, width: 626, height: 470 },
	'joe_biden_2_800w.jpg': { x: 87, y: 95, width: 640, height: 480 },
	// Small portraits: the face about a third of the frame's width, as the others (the attack suite's other subjects).
	'eileen_collins_1.jpg': { x: 96, y: 22, width: 256, height: 192 },
	'codait_luciano_1.jpg': { x: 15, y: 0, width: 372, height: 279 }
};

/**
 * 16:9 crops that fill a 1280×720 frame, the face about a quarter to a third of its width: a person
 * in front of a camera, with no picture edge in sight. Drawn letterboxed (FACE_CROPS), a portrait
 * shows its edges, and where they fall inside the passive model's crop (2.7× the face box) the model
 * sees what it was trained to refuse, a photo held up: Biden's letterboxed subject scored 0.04–0.49
 * a try, his portrait alone 1.00 (2026-11-29).
 */
export const FACE_FRAMES: Record<string, NonNullable<Segment['crop']>> = {
	'barack_obama_1.jpg': { x: 48, y: 0, width: 888, height: 500 },
	'joe_biden_2_800w.jpg': { x: 0, y: 110, width: 800, height: 450 },
	'eileen_collins_1.jpg': { x: 46, y: 18, width: 356, height: 200 },
	'codait_luciano_1.jpg': { x: 0, y: 25, width: 400, height: 225 }
};

/** Builds (once) a clip of the segments in order and returns its path. */
export function faceClip(name: string, segments: Segment[]): string {
	mkdirSync(OUT, { recursive: true });
	const out = path.join(OUT, `${name}.y4m`);
	if (existsSync(out)) return out;
	const parts = segments.map((s, i) => {
		const part = path.join(OUT, `${name}.${i}.y4m`);
		const crop = s.crop === null ? null : (s.crop ?? FACE_CROPS[s.still]);
		const filters = [
			...(crop ? [`crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}`] : []),
			'scale=w=600:h=460:force_original_aspect_ratio=decrease',
			'pad=680:520:(ow-iw)/2:(oh-ih)/2:color=0x6f7378',
			...(s.flip ? ['hflip'] : []),
			// Whole-pixel drift: a hand-held camera, without resampling.
			"crop=640:480:x='20+trunc(6*sin(2*PI*t/1.3))':y='20+trunc(3*cos(2*PI*t/1.7))'",
			'format=yuv420p'
		].join(',');
		execFileSync('ffmpeg', ['-v', 'error', '-y', '-loop', '1', '-t', String(s.seconds), '-i', path.join(FIXTURES, s.still), '-vf', filters, '-r', String(FPS), part]);
		return part;
	});
	if (parts.length === 1) {
		execFileSync('mv', [parts[0], out]);
	} else {
		const inputs = parts.flatMap((p) => ['-i', p]);
		execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', `${parts.map((_, i) => `[${i}:v]`).join('')}concat=n=${parts.length}:v=1[v]`, '-map', '[v]', '-pix_fmt', 'yuv420p', '-r', String(FPS), out]);
		for (const p of parts) rmSync(p, { force: true });
	}
	return out;
}

const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** A browser whose camera plays `clip` (each clip needs its own browser: the file is a launch flag). */
export async function browserWithCamera(clip: string, extraArgs: string[] = []): Promise<Browser> {
	return chromium.launch({ executablePath: chromiumPath, args: [...FAKE_MEDIA_ARGS, `--use-file-for-fake-video-capture=${clip}`, ...extraArgs] });
}

export async function contextFor(browser: Browser, baseURL: string): Promise<BrowserContext> {
	return browser.newContext({ baseURL, locale: 'en-US', viewport: { width: 1280, height: 800 }, permissions: ['camera', 'microphone'] });
}

// Fake-camera clips for the document journeys, made at test time with ffmpeg: a document fixture
// lying on a desk, then (optionally) a face, as MJPEG (Chromium's fake device plays .mjpeg as well as
// .y4m; at 1280×720 MJPEG stays small where y4m would take ~1.4 MB a frame). Every segment drifts by
// whole pixels so consecutive frames differ, as from a hand-held camera, without resampling blur.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { FACE_CROPS } from './face-clips.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const OUT = path.join(ROOT, 'tests/.tmp/clips');
const FPS = 10;
export const CLIP_SIZE = { width: 1280, height: 720 } as const;

export interface ClipSegment {
	/** `documents/<file>` or `faces/<file>` under tests/fixtures. */
	still: string;
	seconds: number;
}

/** Builds (once) an MJPEG clip of the segments in order and returns its path. */
export function documentClip(name: string, segments: ClipSegment[]): string {
	mkdirSync(OUT, { recursive: true });
	const out = path.join(OUT, `${name}.mjpeg`);
	if (existsSync(out)) return out;
	const { width: W, height: H } = CLIP_SIZE;
	const parts = segments.map((s, i) => {
		const part = path.join(OUT, `${name}.${i}.mkv`);
		const face = s.still.startsWith('faces/') ? FACE_CROPS[path.basename(s.still)] : null;
		const filters = [
			...(face ? [`crop=${face.width}:${face.height}:${face.x}:${face.y}`] : []),
			// A document fills about two thirds of the frame, as a user holds it up; a face a bit more.
			`scale=w=${face ? W - 80 : Math.round(W * 0.72)}:h=${face ? H - 60 : Math.round(H * 0.86)}:force_original_aspect_ratio=decrease`,
			`pad=${W + 40}:${H + 40}:(ow-iw)/2:(oh-ih)/2:color=0x5b4a3a`,
			`crop=${W}:${H}:x='20+trunc(5*sin(2*PI*t/1.9))':y='20+trunc(3*cos(2*PI*t/2.3))'`,
			// Limited-range YUV in the JPEGs: Chromium's fake device hands MJPEG frames on as limited-range
			// I420, so full-range (yuvj) frames would come out with blown highlights (false glare).
			'format=yuv420p'
		].join(',');
		execFileSync('ffmpeg', ['-v', 'error', '-y', '-loop', '1', '-t', String(s.seconds), '-i', path.join(ROOT, 'tests/fixtures', s.still), '-vf', filters, '-r', String(FPS), '-c:v', 'mjpeg', '-strict', '-1', '-q:v', '2', part]);
		return part;
	});
	const inputs = parts.flatMap((p) => ['-i', p]);
	execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', `${parts.map((_, i) => `[${i}:v]`).join('')}concat=n=${parts.length}:v=1[v]`, '-map', '[v]', '-r', String(FPS), '-pix_fmt', 'yuv420p', '-c:v', 'mjpeg', '-strict', '-1', '-q:v', '2', '-f', 'mjpeg', out]);
	for (const p of parts) rmSync(p, { force: true });
	return out;
}

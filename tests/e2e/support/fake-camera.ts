import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A short test-pattern clip as a .y4m file for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`), made with ffmpeg at test time, once per run.
 */
export function fakeCameraFile(): string {
	const dir = path.join(import.meta.dirname, '../../.tmp');
	const file = path.join(dir, 'fake-camera.y4m');
	if (!existsSync(file)) {
		mkdirSync(dir, { recursive: true });
		execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=15', '-t', '2', '-pix_fmt', 'yuv420p', file]);
	}
	return file;
}

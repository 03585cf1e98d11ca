import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** ffmpeg is a Debian package on the dev machine and in CI; tests that need it say so when it is missing. */
export function hasFfmpeg(): boolean {
	try {
		execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
		execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

const encode = ['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', '-cpu-used', '8', '-an'];

/**
 * Short WebM clips made at test time (nothing downloaded, nothing checked in):
 * `moving` testsrc (changes every frame, a counter never repeats), `frozen` one grey picture,
 * `looped` one second of testsrc played four times, `stalled` testsrc with a 2 s hole in the timestamps.
 */
export function makeClip(dir: string, kind: 'moving' | 'frozen' | 'looped' | 'stalled', seconds = 4): Buffer {
	const out = path.join(dir, `${kind}.webm`);
	const src = (s: number) => ['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=15:duration=${s}`];
	const ff = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { stdio: 'pipe' });
	if (kind === 'moving') ff(...src(seconds), ...encode, out);
	else if (kind === 'frozen') ff('-f', 'lavfi', '-i', `color=c=gray:size=160x120:rate=15:duration=${seconds}`, ...encode, out);
	else if (kind === 'stalled') ff(...src(seconds), '-vf', "setpts='if(gte(N,20),PTS+2/TB,PTS)'", '-fps_mode', 'passthrough', ...encode, out);
	else {
		const one = path.join(dir, 'one-second.webm');
		ff(...src(1), ...encode, one);
		ff('-stream_loop', String(seconds - 1), '-i', one, '-c', 'copy', out);
	}
	return readFileSync(out);
}

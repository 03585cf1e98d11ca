import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';

/** Where the ffmpeg binaries are (FFMPEG_PATH / FFPROBE_PATH). */
export interface FfmpegTools {
	ffmpeg: string;
	ffprobe: string;
}

export class ToolMissingError extends Error {
	constructor(readonly tool: string) {
		super(`${tool} was not found`);
		this.name = 'ToolMissingError';
	}
}

interface RunResult {
	stdout: Buffer[];
	stderr: string;
	code: number | null;
	truncated: boolean;
}

/**
 * Runs a tool with `input` piped to its stdin. Stops reading (and kills it) once `maxStdoutBytes`
 * arrived or `timeoutMs` passed. A missing binary throws ToolMissingError.
 */
function run(cmd: string, args: string[], input: ReadableStream<Uint8Array>, { maxStdoutBytes = 64 * 1024 * 1024, timeoutMs = 120_000 } = {}): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
		const stdout: Buffer[] = [];
		let size = 0;
		let stderr = '';
		let truncated = false;
		let settled = false;
		const source = Readable.fromWeb(input as import('node:stream/web').ReadableStream<Uint8Array>);
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		const finish = (fn: () => void) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			source.destroy();
			fn();
		};
		child.on('error', (err) => finish(() => reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new ToolMissingError(cmd) : err)));
		// The tool may stop reading early (enough frames, bad input): that is not our error.
		child.stdin.on('error', () => {});
		source.on('error', () => child.stdin.destroy());
		source.pipe(child.stdin);
		child.stdout.on('data', (d: Buffer) => {
			if (truncated) return;
			size += d.length;
			stdout.push(d);
			if (size >= maxStdoutBytes) {
				truncated = true;
				child.kill('SIGKILL');
			}
		});
		child.stderr.on('data', (d: Buffer) => {
			if (stderr.length < 4000) stderr += d.toString('utf8');
		});
		child.on('close', (code) => finish(() => resolve({ stdout, stderr, code, truncated })));
	});
}

export interface ProbeResult {
	codec?: string;
	width?: number;
	height?: number;
	/** Presentation times of the video packets, ms. */
	ptsMs: number[];
	durationMs: number | null;
}

/** Packet timestamps and stream facts of the first video stream (reads, does not decode). */
export async function probeVideo(tools: FfmpegTools, input: ReadableStream<Uint8Array>): Promise<ProbeResult> {
	const res = await run(tools.ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height:packet=pts_time,duration_time', '-of', 'json', '-i', 'pipe:0'], input);
	if (res.code !== 0) throw new Error(`ffprobe failed: ${res.stderr.trim().split('\n')[0] || `exit ${res.code}`}`);
	const json = JSON.parse(Buffer.concat(res.stdout).toString('utf8') || '{}') as {
		streams?: { codec_name?: string; width?: number; height?: number }[];
		packets?: { pts_time?: string; duration_time?: string }[];
	};
	const stream = json.streams?.[0];
	if (!stream) throw new Error('no video stream');
	const packets = json.packets ?? [];
	const ptsMs = packets.map((p) => Number(p.pts_time) * 1000).filter(Number.isFinite);
	let durationMs: number | null = null;
	if (ptsMs.length) {
		const last = packets[packets.length - 1];
		const lastDuration = Number(last?.duration_time) * 1000;
		durationMs = Math.round(Math.max(...ptsMs) - Math.min(...ptsMs) + (Number.isFinite(lastDuration) ? lastDuration : 0));
	}
	return { codec: stream.codec_name, width: stream.width, height: stream.height, ptsMs, durationMs };
}

/**
 * Decodes frames sampled uniformly at `fps` into `width`×`height` 8-bit grey, in memory only (raw
 * frames are never written anywhere), at most `maxFrames`.
 */
export async function decodeGreyFrames(tools: FfmpegTools, input: ReadableStream<Uint8Array>, opts: { fps: number; width: number; height: number; maxFrames: number }): Promise<Uint8Array[]> {
	const frameBytes = opts.width * opts.height;
	const res = await run(
		tools.ffmpeg,
		['-v', 'error', '-i', 'pipe:0', '-an', '-vf', `fps=${opts.fps},scale=${opts.width}:${opts.height}:flags=area,format=gray`, '-f', 'rawvideo', 'pipe:1'],
		input,
		{ maxStdoutBytes: frameBytes * opts.maxFrames }
	);
	const all = Buffer.concat(res.stdout);
	if (res.code !== 0 && !res.truncated && all.length < frameBytes) throw new Error(`ffmpeg could not decode the video: ${res.stderr.trim().split('\n')[0] || `exit ${res.code}`}`);
	const frames: Uint8Array[] = [];
	for (let o = 0; o + frameBytes <= all.length && frames.length < opts.maxFrames; o += frameBytes) frames.push(new Uint8Array(all.subarray(o, o + frameBytes)));
	return frames;
}

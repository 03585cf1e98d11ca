import type { VideoAIAnalysis } from '#lib/domain/session/session.schema.ts';
import { logger } from '../logger.ts';
import { decodeGreyFrames, probeVideo, ToolMissingError, type FfmpegTools } from './ffmpeg.ts';
import { plumbingCriteria, type VideoCriterion } from './frame-metrics.ts';

/**
 * The fraud criteria the issue names that need face models. Until an analyzer that evaluates them
 * is registered they are listed under `notEvaluated`, never guessed.
 */
export const FACE_CRITERIA = [
	{ id: 'face_presence', title: 'Face presence ratio' },
	{ id: 'multiple_faces', title: 'More than one face' },
	{ id: 'identity_change', title: 'Identity change between frames (embedding drift)' },
	{ id: 'screen_replay', title: 'Screen replay (liveness over time)' },
	{ id: 'virtual_camera', title: 'Virtual camera' }
] as const;

const NOT_YET = 'Needs the face models, which this server does not run yet; not evaluated.';

/**
 * The seam for the face issue: an analyzer gets the recording (open it as often as needed) and
 * returns the criteria it evaluated; their ids leave `notEvaluated`.
 */
export interface VideoCriteriaAnalyzer {
	readonly criteria: readonly string[];
	analyse(input: { open: () => Promise<ReadableStream<Uint8Array>>; durationMs: number | null; tools: FfmpegTools }): Promise<VideoCriterion[]>;
}

/** At most this many frames are decoded, sampled uniformly over the whole recording. */
export const MAX_SAMPLED_FRAMES = 600;
const FRAME_W = 64;
const FRAME_H = 48;

/** Post-session video analysis (videoAIAnalysis): decodes with ffmpeg, measures, reports. */
export class VideoAnalyzer {
	private readonly analyzers: VideoCriteriaAnalyzer[] = [];

	constructor(
		private readonly tools: FfmpegTools,
		private readonly now: () => number
	) {}

	register(analyzer: VideoCriteriaAnalyzer): void {
		this.analyzers.push(analyzer);
	}

	private notEvaluated(): VideoAIAnalysis['notEvaluated'] {
		const covered = new Set(this.analyzers.flatMap((a) => a.criteria));
		return FACE_CRITERIA.filter((c) => !covered.has(c.id)).map((c) => ({ id: c.id, title: c.title, reason: NOT_YET }));
	}

	/** `open` yields the recording's bytes afresh on each call; null when there is no recording. */
	async analyse(open: (() => Promise<ReadableStream<Uint8Array>>) | null): Promise<VideoAIAnalysis> {
		const base = { createdAt: this.now(), framesAnalysed: 0, criteria: [], notEvaluated: this.notEvaluated() };
		if (!open) return { ...base, status: 'no_video', message: 'No video was recorded in this session (camera off, or the page did not upload any).' };
		let probe;
		try {
			probe = await probeVideo(this.tools, await open());
		} catch (err) {
			if (err instanceof ToolMissingError) {
				return { ...base, status: 'unavailable', message: `${err.tool} is not installed on this server (FFPROBE_PATH / FFMPEG_PATH), so the video could not be analysed.` };
			}
			return { ...base, status: 'undecodable', message: `The recording could not be read: ${(err as Error).message}` };
		}
		const durationS = (probe.durationMs ?? 0) / 1000;
		// Uniform sampling: 10 fps for short clips, fewer for long ones, so the cap covers it all.
		const fps = durationS > 0 ? Math.max(0.2, Math.min(10, Math.floor((MAX_SAMPLED_FRAMES / durationS) * 100) / 100)) : 5;
		let frames: Uint8Array[];
		try {
			frames = await decodeGreyFrames(this.tools, await open(), { fps, width: FRAME_W, height: FRAME_H, maxFrames: MAX_SAMPLED_FRAMES });
		} catch (err) {
			if (err instanceof ToolMissingError) {
				return { ...base, status: 'unavailable', message: `${err.tool} is not installed on this server (FFMPEG_PATH), so the video could not be decoded.` };
			}
			return { ...base, status: 'undecodable', message: (err as Error).message };
		}
		if (!frames.length) return { ...base, status: 'undecodable', message: 'No frame of the recording could be decoded.' };
		const criteria = plumbingCriteria({ width: FRAME_W, height: FRAME_H, fps, frames }, probe.ptsMs);
		for (const analyzer of this.analyzers) {
			try {
				criteria.push(...(await analyzer.analyse({ open, durationMs: probe.durationMs, tools: this.tools })));
			} catch (err) {
				logger.error({ err, criteria: analyzer.criteria }, 'video criteria analyzer failed');
			}
		}
		const timing = probe.ptsMs.length > 1 ? ((probe.ptsMs.length - 1) * 1000) / (Math.max(...probe.ptsMs) - Math.min(...probe.ptsMs) || 1) : undefined;
		return {
			...base,
			status: 'completed',
			framesAnalysed: frames.length,
			...(probe.durationMs !== null ? { durationMs: probe.durationMs } : {}),
			frameCount: probe.ptsMs.length,
			...(timing !== undefined ? { averageFps: Math.round(timing * 10) / 10 } : {}),
			sampledFps: fps,
			criteria
		};
	}
}

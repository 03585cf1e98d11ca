import type { Session } from '#lib/domain/session/session.model.ts';
import type { SessionReport } from '#lib/domain/session/session.schema.ts';
import { logger } from '../logger.ts';
import type { MediaRecord } from '../repositories/media.repository.ts';
import type { Finalization } from '../repositories/post-session.repository.ts';
import type { UnitOfWork } from '../repositories/index.ts';
import type { VideoAnalyzer } from '../video/video-analyzer.ts';
import { recordEvent } from './event.service.ts';
import { DISCARDED_AT_SESSION_END, type MediaService } from './media.service.ts';
import type { OutboxConsumer } from './outbox-relay.service.ts';
import { VIDEO_GRACE_MS, type VideoService } from './video.service.ts';

/**
 * The seam for the face issue: computes `aiAnalysis` from the session's face screenshots with the
 * project's own models. Returning null means "nothing to report" (no screenshots, no face).
 */
export interface ScreenshotAnalyzer {
	analyse(input: { session: Session; screenshots: MediaRecord[]; open: (m: MediaRecord) => Promise<ReadableStream<Uint8Array> | null> }): Promise<NonNullable<SessionReport['aiAnalysis']> | null>;
}

/** The post-session steps, in order; each is recorded as done with what it produced. */
export const FINALIZE_STEPS = ['video', 'video-analysis', 'screenshot-analysis', 'discard'] as const;
const MAX_ATTEMPTS = 5;
/** A claim protects a session's finalisation this long (ffmpeg on a long video takes a while). */
const LEASE_MS = 5 * 60_000;

/**
 * Work after a session ends, run by the `post-session` job 0–8 s after the end (the grace period
 * lets the page's last video chunk arrive): assemble the session video (`media.user_video` when
 * retained), the video analysis (`analysis.video`, only with videoAIAnalysisEnabled), the
 * screenshot analysis (`analysis.screenshot`, only with a ScreenshotAnalyzer), and
 * finally discard document images and the video unless `retainSessionMedia`.
 */
export class PostSessionService {
	private stopping = false;

	constructor(
		private readonly deps: {
			uow: UnitOfWork;
			now: () => number;
			media: MediaService;
			video: VideoService;
			videoAnalyzer: VideoAnalyzer;
			/** Without one, no screenshot analysis runs (and none is invented). */
			screenshotAnalyzer?: ScreenshotAnalyzer | null;
		}
	) {}

	/** Outbox consumer: schedules every session whose final `session.status` event goes by. */
	readonly scheduler: OutboxConsumer = async (repos, events, now) => {
		const ids = [...new Set(events.filter((e) => e.type === 'session.status' && e.sessionId).map((e) => e.sessionId))];
		const finished = await repos.delivery.finishedSessions(ids);
		const rows = [];
		for (const s of finished) {
			const rec = await repos.media.findRecording(s.id);
			const waitForChunks = rec?.state === 'recording' && rec.finalSeq === null;
			rows.push({ sessionId: s.id, dueAt: (s.finishedAt || now) + (waitForChunks ? VIDEO_GRACE_MS : 0), createdAt: now });
		}
		await repos.postSession.schedule(rows);
	};

	/** Shutdown: finish the session in hand, claim no more. */
	stop(): void {
		this.stopping = true;
	}

	/** Runs the due finalisations (a few at a time); returns how many it ran. */
	async runDue(limit = 2): Promise<number> {
		let ran = 0;
		while (!this.stopping) {
			const claimed = await this.deps.uow.repos.postSession.claimDue(this.deps.now(), LEASE_MS, limit);
			if (!claimed.length) return ran;
			for (const row of claimed) {
				await this.finalize(row);
				ran++;
			}
		}
		return ran;
	}

	private async finalize(row: Finalization): Promise<void> {
		const repos = this.deps.uow.repos;
		const steps = [...row.steps];
		try {
			for (const step of FINALIZE_STEPS) {
				if (steps.includes(step)) continue;
				const session = await repos.sessions.findById(row.sessionId);
				if (!session) return; // purged meanwhile: its row went with it
				await this.run(step, session, [...steps, step]);
				steps.push(step);
			}
			await repos.postSession.finish(row.sessionId, this.deps.now());
		} catch (err) {
			const failed = row.attempts >= MAX_ATTEMPTS;
			logger.error({ err, sessionId: row.sessionId, attempt: row.attempts, failed }, 'post-session work failed');
			await repos.postSession.retryLater(row.sessionId, this.deps.now() + 60_000 * row.attempts, String((err as Error).message ?? err), failed);
		}
	}

	private async run(step: (typeof FINALIZE_STEPS)[number], session: Session, done: string[]): Promise<void> {
		const { uow, media } = this.deps;
		const { settings } = session;
		switch (step) {
			case 'video': {
				await this.deps.video.assemble(session.id);
				await uow.repos.postSession.setSteps(session.id, done);
				return;
			}
			case 'video-analysis': {
				if (!settings.videoAIAnalysisEnabled) return uow.repos.postSession.setSteps(session.id, done);
				const [video] = await media.list(session.id, ['user_video']);
				const open = video
					? async () => {
							const body = await media.read(video.storeKey);
							if (!body) throw new Error('the session video is missing from the media store');
							return body;
						}
					: null;
				const analysis = await this.deps.videoAnalyzer.analyse(open);
				await uow.transaction(async (tx) => {
					await tx.postSession.saveAnalysis(session.id, 'video', analysis, analysis.createdAt);
					await recordEvent(tx, { type: 'analysis.video', sessionId: session.id, accountId: session.accountId, env: session.env, at: this.deps.now() });
					await tx.postSession.setSteps(session.id, done);
				});
				return;
			}
			case 'screenshot-analysis': {
				// No analyzer, no analysis and no event: aiAnalysis is never invented.
				const analyzer = this.deps.screenshotAnalyzer ?? null;
				const screenshots = analyzer ? await media.list(session.id, ['screenshot', 'user_photo']) : [];
				const result = analyzer ? await analyzer.analyse({ session, screenshots, open: (m) => media.read(m.storeKey) }) : null;
				await uow.transaction(async (tx) => {
					if (result) {
						await tx.postSession.saveAnalysis(session.id, 'screenshot', result, this.deps.now());
						await recordEvent(tx, { type: 'analysis.screenshot', sessionId: session.id, accountId: session.accountId, env: session.env, at: this.deps.now() });
					}
					await tx.postSession.setSteps(session.id, done);
				});
				return;
			}
			case 'discard': {
				if (!settings.retainSessionMedia) {
					await media.deleteForSession(session.id, DISCARDED_AT_SESSION_END);
					await media.store.deletePrefix(`sessions/${session.id}/video-chunks/`);
					const rec = await uow.repos.media.findRecording(session.id);
					if (rec?.state === 'assembled') await uow.repos.media.updateRecording(session.id, { state: 'discarded', updatedAt: this.deps.now() });
				}
				await uow.repos.postSession.setSteps(session.id, done);
				return;
			}
		}
	}
}

import type { RateLimiter } from '../http/rate-limit.ts';
import { logger } from '../logger.ts';
import type { OutboxRelay } from '../services/outbox-relay.service.ts';
import type { PostSessionService } from '../services/post-session.service.ts';
import type { RetentionService } from '../services/retention.service.ts';
import type { SessionService } from '../services/session.service.ts';
import type { SweeperService } from '../services/sweeper.service.ts';
import type { WebhookDeliveryService } from '../services/webhook-delivery.service.ts';

/**
 * The services the jobs call (the app has them all). Named here rather than taken from app.ts,
 * which starts the workers: the two would import each other.
 */
export interface JobServices {
	sweeper: SweeperService;
	sessions: SessionService;
	relay: OutboxRelay;
	webhooks: WebhookDeliveryService;
	postSession: PostSessionService;
	retention: RetentionService;
	rateLimiter: RateLimiter;
}

/** A periodic background job. Jobs must be safe to run on several instances at once. */
export interface Job {
	name: string;
	everyMs: number;
	run(app: JobServices): Promise<unknown>;
}

/** Every background job of the app, declared once. */
export const JOBS: readonly Job[] = [
	{ name: 'session-sweeper', everyMs: 30_000, run: (app) => app.sweeper.sweep() },
	{ name: 'idempotency-keys-expiry', everyMs: 3600_000, run: (app) => app.sessions.expireIdempotencyKeys() },
	// Rate-limit windows that have ended (the demo's per-address rows would otherwise pile up).
	{ name: 'rate-limits-expiry', everyMs: 10 * 60_000, run: (app) => app.rateLimiter.deleteEnded() },
	// Outbox → webhook deliveries and post-session scheduling (SKIP LOCKED batches).
	{ name: 'outbox-relay', everyMs: 250, run: (app) => app.relay.drain() },
	// Due deliveries, claimed with SKIP LOCKED: every attempt is sent by one instance.
	{ name: 'webhook-delivery', everyMs: 250, run: (app) => app.webhooks.deliverDue() },
	// Video assembly, analyses and media discarding after a session ends.
	{ name: 'post-session', everyMs: 1000, run: (app) => app.postSession.runDue() },
	// Sessions past RETENTION_TEST_DAYS / RETENTION_LIVE_DAYS, in batches.
	{ name: 'retention-purge', everyMs: 10 * 60_000, run: (app) => app.retention.purge() }
];

export interface Workers {
	stop(): Promise<void>;
}

/** Starts every job on its interval; a run never overlaps the previous run of the same job. */
export function startWorkers(app: JobServices, jobs: readonly Job[] = JOBS): Workers {
	const names = new Set<string>();
	for (const job of jobs) {
		if (names.has(job.name)) throw new Error(`Job '${job.name}' is declared twice`);
		names.add(job.name);
	}
	const running = new Map<string, Promise<unknown>>();
	const timers = jobs.map((job) => {
		const tick = () => {
			if (running.has(job.name)) return;
			const p = job
				.run(app)
				.catch((err) => logger.error({ err, job: job.name }, 'job failed'))
				.finally(() => running.delete(job.name));
			running.set(job.name, p);
		};
		const timer = setInterval(tick, job.everyMs);
		timer.unref();
		return timer;
	});
	return {
		async stop() {
			for (const t of timers) clearInterval(t);
			await Promise.all(running.values());
		}
	};
}

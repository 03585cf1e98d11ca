import { isMediaEventType, type WebhookEvent, type WebhookMedia } from '#lib/domain/webhook/webhook-event.schema.ts';
import { newId, type ServerKeys } from '../crypto.ts';
import { logger } from '../logger.ts';
import { signMediaUrl } from '../media/signed-url.ts';
import type { AttemptRecord, ClaimedDelivery, DeliveryFilter } from '../repositories/delivery.repository.ts';
import type { UnitOfWork } from '../repositories/index.ts';
import { decideAfterAttempt } from '../webhooks/retry-schedule.ts';
import { DEFAULT_TIMEOUT_MS, sendWebhook, type SendWebhookInput, type SendWebhookResult } from '../webhooks/webhook-sender.ts';
import { signWebhook } from '../webhooks/webhook-signature.ts';
import { httpPost } from '../webhooks/http-post.ts';

export interface WebhookDeliveryDeps {
	uow: UnitOfWork;
	keys: ServerKeys;
	now: () => number;
	publicBaseUrl: string;
	/** Injectable for tests; the real sender never throws. */
	send?: (input: SendWebhookInput) => Promise<SendWebhookResult>;
	/** Per-attempt time limit (the issue fixes 10 s). */
	timeoutMs?: number;
	/** Sends in flight at once per instance. */
	concurrency?: number;
}

/**
 * How long a claim protects a delivery from other instances: the attempt's time limit plus a
 * margin for the database writes. A worker killed mid-attempt leaves the delivery to be sent again
 * after this, with the same event id (receivers deduplicate on it).
 */
export const leaseFor = (timeoutMs: number) => timeoutMs + 5_000;

/** The JSON body of an event, keys in the spec's order. `media` only on media.* events. */
export function webhookBody(event: { id: string; type: string; createdAt: number; sessionId: string; media?: WebhookMedia }): string {
	const body: Record<string, unknown> = { id: event.id, type: event.type, createdAt: event.createdAt, sessionId: event.sessionId };
	if (isMediaEventType(event.type) && event.media) body.media = event.media;
	return JSON.stringify(body satisfies Partial<WebhookEvent>);
}

/**
 * Webhook delivery: claims due deliveries (`FOR UPDATE SKIP LOCKED`, so N instances send each
 * attempt once), signs each attempt with that attempt's time, sends it, logs the attempt and
 * moves the delivery along the exact retry schedule of `retry-schedule.ts`.
 */
export class WebhookDeliveryService {
	private readonly timeoutMs: number;
	private readonly concurrency: number;
	private readonly send: (input: SendWebhookInput) => Promise<SendWebhookResult>;
	private stopping = false;
	/** Finished attempts waiting to be written together (see `record`). */
	private pending: { record: AttemptRecord; done: (recorded: boolean) => void; fail: (err: unknown) => void }[] = [];
	private flushTimer: ReturnType<typeof setTimeout> | null = null;

	constructor(private readonly deps: WebhookDeliveryDeps) {
		this.timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		// 64, not 16: an attempt holds its slot until its row is committed, and at 16 the worker sat
		// idle half the time waiting on commits (bench/webhooks.bench.ts: ~300/s at 16, ~500–600/s at 64).
		this.concurrency = deps.concurrency ?? 64;
		this.send = deps.send ?? ((input) => sendWebhook({ fetch: httpPost, ...input }));
	}

	/**
	 * Sends what is due, keeping up to `concurrency` attempts in flight and claiming more as slots
	 * free up, until nothing is due and nothing is in flight (or `budgetMs` has passed, after which
	 * it only waits for what is in flight). Returns the number of attempts made.
	 */
	async deliverDue(budgetMs = 20_000): Promise<number> {
		const deadline = performance.now() + budgetMs;
		const inflight = new Set<Promise<void>>();
		// Claim in batches: each claim is a commit, and a commit per delivery would cap throughput
		// at the database's commit rate. A quarter of the slots free (or none busy) is worth a claim.
		const batch = Math.max(1, Math.floor(this.concurrency / 4));
		let attempts = 0;
		let idleSince = 0;
		for (;;) {
			const free = this.concurrency - inflight.size;
			const worthIt = free >= batch || inflight.size === 0;
			const canClaim = worthIt && !this.stopping && performance.now() < deadline && (idleSince === 0 || performance.now() - idleSince >= 200);
			if (canClaim) {
				const claimed = await this.deps.uow.repos.delivery.claimDue(this.deps.now(), leaseFor(this.timeoutMs), free, newId('clm'));
				idleSince = claimed.length ? 0 : performance.now();
				if (claimed.length) logger.debug({ events: claimed.map((c) => c.eventId) }, 'webhook deliveries claimed');
				for (const delivery of claimed) {
					const p: Promise<void> = this.attempt(delivery)
						.then((sent) => void (sent && attempts++))
						.catch((err) => logger.error({ err, deliveryId: delivery.id }, 'webhook attempt could not be recorded'))
						.finally(() => inflight.delete(p));
					inflight.add(p);
				}
				if (claimed.length === free) continue;
			}
			if (!inflight.size) {
				if (idleSince !== 0 || this.stopping || performance.now() >= deadline) return attempts;
				continue;
			}
			// Wait for a slot, or re-check for newly due work a little later.
			await Promise.race([...inflight, new Promise((r) => setTimeout(r, 200).unref())]);
		}
	}

	/** Shutdown: claim nothing more; attempts in flight finish and are recorded. */
	stop(): void {
		this.stopping = true;
	}

	/** One attempt of a claimed delivery; false when nothing was sent (endpoint removed). */
	private async attempt(d: ClaimedDelivery): Promise<boolean> {
		const repo = this.deps.uow.repos.delivery;
		if (d.endpointDisabled) {
			await repo.cancel(d.id, d.claimToken, 'endpoint_removed', this.deps.now());
			return false;
		}
		const attempt = d.attempts + 1;
		const sentAt = this.deps.now();
		let result: SendWebhookResult;
		try {
			const body = webhookBody({ id: d.eventId, type: d.eventType, createdAt: d.eventCreatedAt, sessionId: d.sessionId, media: this.freshMedia(d.eventPayload.media, sentAt) });
			const headers = signWebhook({ id: d.eventId, timestampMs: sentAt, body, secret: this.deps.keys.unseal(d.secret) });
			result = await this.send({ url: d.url, headers, body, timeoutMs: this.timeoutMs });
		} catch (err) {
			// A secret that cannot be unsealed or used (server key changed): no retry can fix it.
			result = { outcome: 'final', attemptResult: 'invalid_url', latencyMs: 0, responseSnippet: '', error: `not sent: ${(err as Error).message}` };
		}
		const now = this.deps.now();
		const decision = decideAfterAttempt(attempt, result.attemptResult, now);
		const recorded = await this.record({
			deliveryId: d.id,
			claimToken: d.claimToken,
			attempt,
			sentAt,
			latencyMs: result.latencyMs,
			outcome: result.outcome,
			status: result.status ?? null,
			error: result.error ?? null,
			responseSnippet: result.responseSnippet,
			state: decision.state,
			nextAttemptAt: decision.state === 'pending' ? decision.nextAttemptAt : null,
			failReason: decision.state === 'failed' ? decision.reason : null,
			now
		});
		logger.debug({ deliveryId: d.id, eventId: d.eventId, attempt, result: result.attemptResult, error: result.error, recorded }, 'webhook attempt');
		if (!recorded) logger.warn({ deliveryId: d.id, eventId: d.eventId }, 'webhook claim expired before the attempt finished; another worker owns it now');
		else if (decision.state === 'failed') logger.warn({ eventId: d.eventId, endpointId: d.endpointId, reason: decision.reason, status: result.status, error: result.error }, 'webhook delivery failed');
		return true;
	}

	/**
	 * Writes an attempt's log row and the delivery's new state. Attempts that finish close together
	 * are written in one statement: at full speed that turns a commit per delivery into one per few,
	 * and the database's commit rate stops being the ceiling. The slot of the delivery stays taken
	 * until its row is written, so nothing is acknowledged to the loop before it is stored; a crash
	 * in the few milliseconds between the receiver's answer and the write only means the attempt is
	 * sent again (same event id) after the lease.
	 */
	private record(record: AttemptRecord): Promise<boolean> {
		return new Promise((done, fail) => {
			this.pending.push({ record, done, fail });
			if (this.pending.length >= Math.max(1, Math.floor(this.concurrency / 4))) this.flush();
			else this.flushTimer ??= setTimeout(() => this.flush(), 3);
		});
	}

	private flush(): void {
		if (this.flushTimer) clearTimeout(this.flushTimer);
		this.flushTimer = null;
		const batch = this.pending;
		this.pending = [];
		if (!batch.length) return;
		this.deps.uow.repos.delivery.completeAttempts(batch.map((b) => b.record)).then(
			(held) => batch.forEach((b) => b.done(held.has(b.record.deliveryId))),
			(err) => batch.forEach((b) => b.fail(err))
		);
	}

	/**
	 * The media object with a link signed now: a retry hours later must not carry a link that
	 * expired 15 minutes after the first attempt.
	 */
	private freshMedia(media: unknown, now: number): WebhookMedia | undefined {
		if (!media || typeof media !== 'object') return undefined;
		const m = media as WebhookMedia;
		const signed = signMediaUrl({ id: m.id, secret: this.deps.keys.mediaKey, now, baseUrl: this.deps.publicBaseUrl });
		return { id: m.id, createdAt: m.createdAt, url: signed.url, expires: signed.expires, contentType: m.contentType };
	}

	/** The attempt log, newest first. */
	attempts(filter: { eventId?: string; sessionId?: string; limit?: number } = {}) {
		return this.deps.uow.repos.delivery.listAttempts(filter);
	}

	deliveries(filter: DeliveryFilter = {}) {
		return this.deps.uow.repos.delivery.listDeliveries(filter);
	}

	/**
	 * Re-queues an event's failed deliveries with a fresh schedule (attempt 1 now). Returns how
	 * many; throws when the event does not exist.
	 */
	async resend(eventId: string, endpointId?: string): Promise<number> {
		const event = await this.deps.uow.repos.delivery.findEvent(eventId);
		if (!event) throw new Error(`No event '${eventId}'`);
		return this.deps.uow.repos.delivery.requeueFailed(eventId, this.deps.now(), endpointId);
	}
}

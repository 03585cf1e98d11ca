import { newId } from '../crypto.ts';
import type { Repos, UnitOfWork } from '../repositories/index.ts';
import type { OutboxEvent } from '../repositories/outbox.repository.ts';

/**
 * Something that reacts to outbox events inside the relay's transaction, so its reaction is
 * recorded exactly once together with the event being marked dispatched.
 */
export type OutboxConsumer = (repos: Repos, events: OutboxEvent[], now: number) => Promise<void>;

/**
 * Reads the transactional outbox in order and hands each batch to its consumers: the webhook
 * fan-out (one delivery per event and endpoint) and the post-session scheduler. Batches are locked
 * with `FOR UPDATE SKIP LOCKED`, so any number of instances relay concurrently without overlap;
 * a crash before commit leaves the batch undispatched for the next run.
 */
export class OutboxRelay {
	/** `consumers` see each batch in this order, in the relay's transaction. */
	constructor(private readonly deps: { uow: UnitOfWork; now: () => number; consumers: readonly OutboxConsumer[]; batchSize?: number }) {}

	/** Dispatches one batch; returns how many events it dispatched. */
	async relayOnce(limit = this.deps.batchSize ?? 200): Promise<number> {
		return this.deps.uow.transaction(async (repos) => {
			const events = await repos.delivery.lockUndispatched(limit);
			if (!events.length) return 0;
			const now = this.deps.now();
			for (const consumer of this.deps.consumers) await consumer(repos, events, now);
			await repos.delivery.markDispatched(
				events.map((e) => e.seq),
				now
			);
			return events.length;
		});
	}

	/** Dispatches until the outbox is empty (or `maxBatches` ran). */
	async drain(maxBatches = 50): Promise<number> {
		let total = 0;
		for (let i = 0; i < maxBatches; i++) {
			const n = await this.relayOnce();
			total += n;
			if (n === 0) break;
		}
		return total;
	}
}

/**
 * The webhook fan-out: every event to every active endpoint of its account whose environment
 * matches (an endpoint without env gets both); platform-wide `settings.*` events (no account) go to
 * every active endpoint of every account.
 */
export const webhookFanout: OutboxConsumer = async (repos, events, now) => {
	const accountIds = [...new Set(events.map((e) => e.accountId).filter((a): a is string => a !== null))];
	const platformWide = events.some((e) => e.accountId === null);
	const endpoints = await repos.delivery.activeEndpoints(accountIds, platformWide);
	if (!endpoints.length) return;
	const rows = [];
	for (const event of events) {
		for (const endpoint of endpoints) {
			if (event.accountId !== null) {
				if (endpoint.accountId !== event.accountId) continue;
				if (endpoint.env !== null && event.env !== null && endpoint.env !== event.env) continue;
			}
			rows.push({
				id: newId('whd'),
				eventSeq: event.seq,
				eventId: event.id,
				endpointId: endpoint.id,
				accountId: event.accountId,
				sessionId: event.sessionId,
				state: 'pending' as const,
				nextAttemptAt: now,
				createdAt: now,
				updatedAt: now
			});
		}
	}
	// Large fan-outs (a settings.* event to many accounts) in slices, to stay under parameter limits.
	for (let i = 0; i < rows.length; i += 500) await repos.delivery.insertDeliveries(rows.slice(i, i + 500));
};

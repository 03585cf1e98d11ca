import type { EventType } from '#lib/domain/webhook/webhook-event.schema.ts';
import { newId } from '../crypto.ts';
import type { Env } from '../repositories/account.repository.ts';
import type { Repos } from '../repositories/index.ts';

export { EVENT_TYPES, type EventType } from '#lib/domain/webhook/webhook-event.schema.ts';

export interface EventInput {
	type: EventType;
	/** '' for platform-level `settings.*` events. */
	sessionId: string;
	accountId: string | null;
	env: Env | null;
	at: number;
	payload?: Record<string, unknown>;
}

/**
 * Writes an event into the outbox. Call it with the repositories of the transaction that makes
 * the change, so the event exists if and only if the change does.
 */
export async function recordEvent(repos: Repos, input: EventInput): Promise<string> {
	const id = newId('evt');
	await repos.outbox.insert({
		id,
		type: input.type,
		sessionId: input.sessionId,
		accountId: input.accountId,
		env: input.env,
		createdAt: input.at,
		payload: input.payload
	});
	return id;
}

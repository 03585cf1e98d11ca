import { parseArgs } from 'node:util';
import type { App } from '../app.ts';
import type { CliResult } from './cli-result.ts';

export const WEBHOOK_DELIVERY_HELP = `  webhooks attempts [--event EVENT_ID | --session SESSION_ID] [--limit N]   the attempt log, newest first
  webhooks deliveries [--state pending|delivered|failed] [--event EVENT_ID] [--session SESSION_ID] [--limit N]
  webhooks resend EVENT_ID [--endpoint ENDPOINT_ID]   re-queues the event's failed deliveries (fresh schedule)`;

const time = (ms: number | null) => (ms ? new Date(ms).toISOString().replace('.000Z', 'Z') : '-');
const table = (rows: string[][]) => {
	if (rows.length < 2) return '(none)';
	const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
	return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
};
const oneLine = (s: string | null, max = 60) => {
	const t = (s ?? '').replace(/\s+/g, ' ').trim();
	return t.length > max ? `${t.slice(0, max - 1)}…` : t || '-';
};
const limitOf = (value: string | undefined, fallback: number) => {
	const n = Number(value ?? fallback);
	if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error('--limit must be an integer from 1 to 1000');
	return n;
};

/** `webhooks attempts | deliveries | resend`. */
export async function webhookDeliveryCommand(app: App, command: string, rest: string[]): Promise<CliResult> {
	switch (command) {
		case 'attempts': {
			const { values } = parseArgs({ args: rest, options: { event: { type: 'string' }, session: { type: 'string' }, limit: { type: 'string' } } });
			if (values.event && values.session) return { code: 1, output: 'Give --event or --session, not both' };
			const rows = await app.webhooks.attempts({ eventId: values.event, sessionId: values.session, limit: limitOf(values.limit, 50) });
			return {
				code: 0,
				output: table([
					['SENT', 'EVENT', 'TYPE', 'ENDPOINT', 'TRY', 'RESULT', 'STATUS', 'MS', 'NEXT', 'RESPONSE / ERROR'],
					...rows.map((a) => [time(a.sentAt), a.eventId, a.eventType, a.endpointId, String(a.attempt), a.outcome, a.status === null ? '-' : String(a.status), String(a.latencyMs), time(a.nextAttemptAt), oneLine(a.error ?? a.responseSnippet)])
				])
			};
		}
		case 'deliveries': {
			const { values } = parseArgs({ args: rest, options: { state: { type: 'string' }, event: { type: 'string' }, session: { type: 'string' }, limit: { type: 'string' } } });
			if (values.state && !['pending', 'delivered', 'failed'].includes(values.state)) return { code: 1, output: '--state must be pending, delivered or failed' };
			const rows = await app.webhooks.deliveries({ state: values.state as 'pending' | 'delivered' | 'failed' | undefined, eventId: values.event, sessionId: values.session, limit: limitOf(values.limit, 100) });
			return {
				code: 0,
				output: table([
					['EVENT', 'TYPE', 'SESSION', 'ENDPOINT', 'STATE', 'TRIES', 'NEXT / DONE', 'LAST'],
					...rows.map((d) => [
						d.eventId,
						d.eventType,
						d.sessionId || '-',
						d.endpointId,
						d.state + (d.failReason ? ` (${d.failReason})` : ''),
						String(d.attempts),
						time(d.state === 'pending' ? d.nextAttemptAt : (d.deliveredAt ?? d.updatedAt)),
						oneLine(d.lastStatus !== null ? String(d.lastStatus) : d.lastError, 40)
					])
				])
			};
		}
		case 'resend': {
			const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { endpoint: { type: 'string' } } });
			const eventId = positionals[0];
			if (!eventId) return { code: 1, output: 'webhooks resend needs EVENT_ID (see webhooks deliveries --state failed)' };
			const n = await app.webhooks.resend(eventId, values.endpoint);
			return n ? { code: 0, output: `Re-queued ${n} failed deliver${n === 1 ? 'y' : 'ies'} of ${eventId}; first attempt now, then the usual schedule` } : { code: 1, output: `No failed delivery of ${eventId} to re-send` };
		}
		default:
			return { code: 1, output: `Unknown command 'webhooks ${command}'.\n\n${WEBHOOK_DELIVERY_HELP}` };
	}
}

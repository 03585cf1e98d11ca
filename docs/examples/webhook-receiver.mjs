// A Veriflow webhook receiver in plain Node (22.5+; no dependencies): checks X-Service-Signature,
// deduplicates on the event id in a SQLite file (so a restart does not forget), and answers 200
// only once the event is handled, so a crash mid-way means Veriflow sends it again.
//
//   WEBHOOK_SECRET=whsec_… PORT=4000 node webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { DatabaseSync } from 'node:sqlite';

const SECRET = process.env.WEBHOOK_SECRET; // exactly as `webhooks add` printed it, "whsec_" included
const TOLERANCE_MS = 5 * 60 * 1000; // refuse replays of old deliveries
const db = new DatabaseSync(process.env.DEDUP_DB ?? 'webhook-events.db');
db.exec('create table if not exists seen (id text primary key, received_at integer not null)');
const isKnown = db.prepare('select 1 from seen where id = ?');
const remember = db.prepare('insert or ignore into seen (id, received_at) values (?, ?)');

/** `t=<ms>,v1=<hex>`: HMAC-SHA256 of "<t>.<raw body>" keyed with the secret string. */
function verify(header, rawBody) {
	const parts = Object.groupBy((header ?? '').split(','), (p) => p.slice(0, p.indexOf('=')));
	const t = parts.t?.[0]?.slice(2);
	if (!t || !/^\d+$/.test(t) || Math.abs(Date.now() - Number(t)) > TOLERANCE_MS) return false;
	const expected = createHmac('sha256', SECRET).update(`${t}.`).update(rawBody).digest();
	return (parts.v1 ?? []).some((p) => {
		const given = Buffer.from(p.slice(3), 'hex');
		return given.length === expected.length && timingSafeEqual(given, expected);
	});
}

/** Keep this well under Veriflow's 10 s time-out: queue slow work instead of doing it here. */
async function handle(event) {
	// Fetch the full state with your API key: GET {base_url}/sessions/{event.sessionId}
	console.log(`${event.type} for session ${event.sessionId || '(platform)'}`, event.media?.url ?? '');
}

createServer((req, res) => {
	const chunks = [];
	req.on('data', (c) => chunks.push(c));
	req.on('end', async () => {
		const raw = Buffer.concat(chunks); // verify the raw bytes, before any JSON parsing
		if (req.method !== 'POST' || !verify(req.headers['x-service-signature'], raw)) {
			res.writeHead(401).end('bad signature'); // 4xx: Veriflow does not retry
			return;
		}
		const event = JSON.parse(raw.toString('utf8'));
		// A duplicate (same id) is acknowledged and skipped.
		if (isKnown.get(event.id)) return void res.writeHead(200).end('duplicate');
		try {
			await handle(event);
			remember.run(event.id, Date.now());
			res.writeHead(200).end('ok');
		} catch (err) {
			console.error(err);
			res.writeHead(500).end('retry later'); // 5xx: Veriflow retries after 1 min, 5 min, …
		}
	});
}).listen(Number(process.env.PORT ?? 4000), () => console.log('listening'));

// Presentation-attack detection of the liveness_detection node, end to end: N genuine presentations
// (the simulated subject of tests/e2e/support/turning-face.ts through the real page in Chromium) and
// N of each attack of tests/e2e/support/liveness-attacks.ts, against a production build, each a
// sandbox session judged as a live one. Prints APCER per attack type and BPCER as ISO/IEC 30107-3
// defines them (APCER: share of one attack type's presentations accepted as bona fide; BPCER: share
// of bona fide presentations rejected), with the spec default of 3 retries per node.
// Run (after `npm run build`): npx tsx scripts/eval/liveness-attacks.ts [N=10]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startServer } from '../../tests/helpers/server.ts';
import { E2E_KEY } from '../../tests/e2e/support/constants.ts';
import { FAKE_MEDIA_ARGS } from '../../playwright.config.ts';
import { ATTACKS, injectionSession, photoAndMirrorSession, printSession, replaySession, subjectSession, type Presentation } from '../../tests/e2e/support/liveness-attacks.ts';

// Load is sampled during the run: the page's timing (and so the light's) depends on it.
const loads: number[] = [];
const sampler = setInterval(() => loads.push(loadavg()[0]), 5000);
const N = Math.max(1, Number(process.argv[2] ?? 10) || 10);
const root = path.resolve(import.meta.dirname, '..', '..');
const server = await startServer({ SEED_API_KEYS: E2E_KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'warn' });
process.env.VF_E2E_BASE_URL = server.url;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: FAKE_MEDIA_ARGS });
const all: Presentation[] = [];
const record = (p: Presentation) => {
	all.push(p);
	console.error(`${p.kind.padEnd(15)} ${p.accepted ? 'ACCEPTED' : 'refused '} ${p.outcome.padEnd(17)} ${p.reason ?? ''} ${p.signals.join(',')} challenge=${p.challengePassed}${p.challengeReason ? `(${p.challengeReason})` : ''} light=${p.lightPassed}${p.lightReason ? `(${p.lightReason})` : ''} lit=${p.litFrames ?? '-'} ${p.ms} ms`);
};
const safely = async (kind: Presentation['kind'], run: () => Promise<Presentation>) => {
	try {
		record(await run());
	} catch (err) {
		// A run that did not finish is neither accepted nor rejected: counted apart, never dropped silently.
		console.error(`${kind} did not finish: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
		all.push({ kind, sessionId: '', outcome: 'unfinished', accepted: false, signals: [], challengePassed: null, lightPassed: null, ms: 0 });
	}
};
try {
	for (let i = 0; i < N; i++) {
		let bodies: any[] = [];
		await safely('genuine', async () => {
			const run = await subjectSession(browser);
			bodies = run.bodies;
			return run.presentation;
		});
		await safely('photoAndMirror', () => photoAndMirrorSession());
		await safely('injection', () => injectionSession());
		if (bodies.length) await safely('replay', () => replaySession(bodies));
		await safely('relay', async () => (await subjectSession(browser, { lightLagMs: 300 })).presentation);
		await safely('print', () => printSession(browser));
	}
} finally {
	clearInterval(sampler);
	await browser.close();
	await server.stop();
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} % (${n}/${d})` : '–');
const finished = (kind: string) => all.filter((p) => p.kind === kind && p.outcome !== 'unfinished');
const unfinished = (kind: string) => all.filter((p) => p.kind === kind && p.outcome === 'unfinished').length;
const lit = all.some((p) => (p.litFrames ?? 0) > 0);
const why = (ps: Presentation[]) => {
	const counts = new Map<string, number>();
	for (const p of ps.filter((x) => !x.accepted)) {
		// The node's reason, then what decided it: the challenge's and the light's own reasons, camera signals.
		const key = [p.reason ?? p.outcome, ...(p.challengeReason ? [`challenge ${p.challengeReason}`] : []), ...(p.lightReason ? [`light ${p.lightReason}`] : []), ...p.signals].join(' + ');
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return [...counts].map(([k, v]) => `${k} ×${v}`).join(', ') || '–';
};
const lines = [
	`Liveness attacks, ${new Date().toISOString().slice(0, 10)}, N = ${N} per kind, ${lit ? 'light challenge shown' : 'no light challenge on this server'}, maxRetries 3 (spec default), light + continuous turn + camera signals enforced, ${cpus().length} CPUs, load average ${loads.length ? (loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1) : '–'} (1-min, mean over the run)`,
	'',
	'| presentation | measure | value | refused by |',
	'|---|---|---|---|',
	`| genuine (bona fide) | BPCER | ${pct(finished('genuine').filter((p) => !p.accepted).length, finished('genuine').length)} | ${why(finished('genuine'))} |`,
	...ATTACKS.map((a) => `| ${a} | APCER | ${pct(finished(a).filter((p) => p.accepted).length, finished(a).length)} | ${why(finished(a))} |`),
	'',
	`Unfinished runs (not counted): ${['genuine', ...ATTACKS].map((k) => `${k} ${unfinished(k)}`).join(', ')}.`,
	`Median genuine presentation: ${(() => {
		const ms = finished('genuine').map((p) => p.ms).sort((a, b) => a - b);
		return ms.length ? `${(ms[ms.length >> 1] / 1000).toFixed(1)} s (page open to verdict, this machine)` : '–';
	})()}`
];
console.log(lines.join('\n'));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/liveness-attacks.md'), lines.join('\n') + '\n');

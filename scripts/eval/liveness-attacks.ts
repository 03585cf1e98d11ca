// Presentation-attack detection of the liveness_detection node, end to end: N genuine presentations
// (the simulated subject of tests/e2e/support/turning-face.ts through the real page in Chromium) and
// N of each attack of tests/e2e/support/liveness-attacks.ts, against a production build, each a
// sandbox session judged as a live one. Prints APCER per attack type and BPCER as ISO/IEC 30107-3
// defines them (APCER: share of one attack type's presentations accepted as bona fide; BPCER: share
// of bona fide presentations rejected), with the spec default of 3 retries per node.
// Run (after `npm run build`): npx tsx scripts/eval/liveness-attacks.ts [N=10] [options]
//   --genuine-only   only the genuine subject (BPCER), e.g. to measure a starved device:
//   --cpu R          Chromium's CPU slowed R× for the browser presentations (a slow phone)
//   --react MS       the genuine subject waits MS after the page asks before turning (a slow reactor)
//   --retries N      the node's maxRetries (default 3, the spec's; 0 counts every try)
//   --subject F      the genuine subject's portrait (tests/fixtures/F, a head in turning-face.ts HEADS)
//   --light-gain K   the screen lights the genuine subject K times as strongly as usual (a brighter room: weaker)
//   --dump DIR       writes each presentation's node report details to DIR (kind-N.json)
//   --before DIR     also an older build (e.g. `git worktree` + `npm run build`, its build/ copied to
//                    DIR): each genuine presentation is run on it and on this one in turn, same load
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
const args = process.argv.slice(2);
const flag = (name: string): number | undefined => {
	const i = args.indexOf(name);
	const v = i >= 0 ? Number(args[i + 1]) : NaN;
	return Number.isFinite(v) ? v : undefined;
};
const N = Math.max(1, Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 10) || 10);
const beforeDir = args[args.indexOf('--before') + 1] && args.includes('--before') ? args[args.indexOf('--before') + 1] : null;
const genuineOnly = args.includes('--genuine-only') || beforeDir !== null;
const cpuThrottle = flag('--cpu') ?? 1;
const reactionMs = flag('--react') ?? 0;
const subject = args.includes('--subject') ? args[args.indexOf('--subject') + 1] : undefined;
const lightGain = flag('--light-gain');
const maxRetries = flag('--retries');
const suite = maxRetries === undefined ? {} : { maxRetries };
const root = path.resolve(import.meta.dirname, '..', '..');
const server = await startServer({ SEED_API_KEYS: E2E_KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'warn' });
process.env.VF_E2E_BASE_URL = server.url;
const before = beforeDir ? await startServer({ SEED_API_KEYS: E2E_KEY, RATE_LIMIT: '1000000', LOG_LEVEL: 'warn' }, { build: beforeDir }) : null;
const allBefore: Presentation[] = [];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: FAKE_MEDIA_ARGS });
const all: Presentation[] = [];
const dumpDir = args.includes('--dump') ? args[args.indexOf('--dump') + 1] : null;
const record = (p: Presentation) => {
	all.push(p);
	if (dumpDir && p.details) {
		mkdirSync(dumpDir, { recursive: true });
		writeFileSync(path.join(dumpDir, `${p.kind}-${all.filter((q) => q.kind === p.kind).length}.json`), JSON.stringify(p.details, null, 1));
	}
	line(p);
};
const line = (p: Presentation, label: string = p.kind) => {
	console.error(`${label.padEnd(15)} ${p.accepted ? 'ACCEPTED' : 'refused '} ${p.outcome.padEnd(17)} ${p.reason ?? ''} ${p.signals.join(',')} challenge=${p.challengePassed}${p.challengeReason ? `(${p.challengeReason}${p.continuity?.reason ? ` ${p.continuity.reason}` : ''})` : ''}${p.challengePeak !== undefined ? ` peak=${p.challengePeak.toFixed(1)}` : ''}${p.passive !== undefined ? ` passive=${p.passive.toFixed(2)}` : ''} light=${p.lightPassed}${p.lightReason ? `(${p.lightReason})` : ''}${p.lightResponse !== undefined ? ` resp=${p.lightResponse.toFixed(3)} score=${p.lightScore?.toFixed(2)}` : ''} lit=${p.litFrames ?? '-'} tries=${p.tries ?? '-'} ${p.ms} ms`);
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
		if (before) {
			process.env.VF_E2E_BASE_URL = before.url;
			try {
				const p = (await subjectSession(browser, { ...suite, cpuThrottle, reactionMs, subject, lightGain })).presentation;
				allBefore.push(p);
				line(p, 'genuine-before');
			} catch (err) {
				console.error(`genuine (before) did not finish: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
				allBefore.push({ kind: 'genuine', sessionId: '', outcome: 'unfinished', accepted: false, signals: [], challengePassed: null, lightPassed: null, ms: 0 });
			}
			process.env.VF_E2E_BASE_URL = server.url;
		}
		let bodies: any[] = [];
		await safely('genuine', async () => {
			const run = await subjectSession(browser, { ...suite, cpuThrottle, reactionMs, subject, lightGain });
			bodies = run.bodies;
			if (dumpDir) {
				// The frames the page posted, as the server read them (the last try's).
				const frames: any[] = bodies.at(-1)?.frames ?? [];
				const n = all.filter((q) => q.kind === 'genuine').length + 1;
				mkdirSync(dumpDir, { recursive: true });
				for (const [k, f] of frames.entries()) {
					const image = typeof f === 'string' ? f : (f?.image ?? f?.data);
					if (typeof image === 'string') writeFileSync(path.join(dumpDir, `genuine-${n}-frame${String(k).padStart(2, '0')}-t${Math.round(f?.t ?? 0)}.jpg`), Buffer.from(image.replace(/^data:[^,]+,/, ''), 'base64'));
				}
			}
			return run.presentation;
		});
		if (genuineOnly) continue;
		await safely('photoAndMirror', () => photoAndMirrorSession(suite));
		await safely('injection', () => injectionSession(suite));
		if (bodies.length) await safely('replay', () => replaySession(bodies, suite));
		await safely('relay', async () => (await subjectSession(browser, { ...suite, cpuThrottle, lightLagMs: 300 })).presentation);
		await safely('print', () => printSession(browser, suite));
	}
} finally {
	clearInterval(sampler);
	await browser.close();
	await server.stop();
	await before?.stop();
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
	`Liveness attacks, ${new Date().toISOString().slice(0, 10)}, N = ${N} per kind, ${lit ? 'light challenge shown' : 'no light challenge on this server'}, maxRetries ${maxRetries ?? '3 (spec default)'}, light + continuous turn + camera signals enforced${cpuThrottle > 1 ? `, Chromium CPU throttled ${cpuThrottle}×` : ''}${reactionMs ? `, subject turns ${reactionMs} ms after the prompt` : ''}${subject ? `, subject ${subject}` : ''}${lightGain !== undefined ? `, light ×${lightGain}` : ''}, ${cpus().length} CPUs, load average ${loads.length ? (loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1) : '–'} (1-min, mean over the run)`,
	'',
	'| presentation | measure | value | refused by |',
	'|---|---|---|---|',
	...(before
		? [`| genuine, build in ${beforeDir} | BPCER | ${pct(allBefore.filter((p) => p.outcome !== 'unfinished' && !p.accepted).length, allBefore.filter((p) => p.outcome !== 'unfinished').length)} | ${why(allBefore.filter((p) => p.outcome !== 'unfinished'))} |`]
		: []),
	`| genuine (bona fide) | BPCER | ${pct(finished('genuine').filter((p) => !p.accepted).length, finished('genuine').length)} | ${why(finished('genuine'))} |`,
	...(genuineOnly ? [] : ATTACKS).map((a) => `| ${a} | APCER | ${pct(finished(a).filter((p) => p.accepted).length, finished(a).length)} | ${why(finished(a))} |`),
	'',
	`Unfinished runs (not counted): ${['genuine', ...ATTACKS].map((k) => `${k} ${unfinished(k)}`).join(', ')}.`,
	`Median genuine presentation: ${(() => {
		const ms = finished('genuine').map((p) => p.ms).sort((a, b) => a - b);
		return ms.length ? `${(ms[ms.length >> 1] / 1000).toFixed(1)} s (page open to verdict, this machine)` : '–';
	})()}`
];
console.log(lines.join('\n'));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, `bench/results/${genuineOnly ? 'liveness-genuine' : 'liveness-attacks'}.md`), lines.join('\n') + '\n');

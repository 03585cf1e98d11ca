// `npm test`: every test. Builds the app (the HTTP and browser suites drive the production
// build), runs vitest (units, store suites on PGlite and — with TEST_DATABASE_URL — PostgreSQL,
// HTTP suites), then Playwright in headless Chromium. Ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

if (!process.env.TEST_DATABASE_URL) console.log('› TEST_DATABASE_URL is not set: store suites run on PGlite only');
if (run('npm', ['run', 'build']) !== 0) process.exit(1);

const totals = { passed: 0, failed: 0, skipped: 0, flaky: [] };
const vitest = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/vitest.json`]);
try {
	const r = JSON.parse(readFileSync(`${out}/vitest.json`, 'utf8'));
	totals.passed += r.numPassedTests;
	totals.failed += r.numFailedTests;
	totals.skipped += r.numPendingTests + r.numTodoTests;
} catch {
	totals.failed += 1;
}

let playwright = 0;
const e2eDir = path.join(root, 'tests/e2e');
if (existsSync(e2eDir) && readdirSync(e2eDir, { recursive: true }).some((f) => String(f).endsWith('.e2e.ts'))) {
	playwright = run('npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json` });
	try {
		const r = JSON.parse(readFileSync(`${out}/playwright.json`, 'utf8'));
		totals.passed += r.stats.expected + r.stats.flaky;
		totals.failed += r.stats.unexpected;
		totals.skipped += r.stats.skipped;
		totals.flaky = flakyTitles(r.suites ?? []);
	} catch {
		totals.failed += 1;
	}
}

/** Tests that failed first and passed on their retry (Playwright's "flaky"). */
function flakyTitles(suites) {
	const out = [];
	for (const s of suites) {
		for (const spec of s.specs ?? []) {
			if (spec.tests?.some((t) => t.status === 'flaky')) out.push(`${spec.file}: ${spec.title}`);
		}
		out.push(...flakyTitles(s.suites ?? []));
	}
	return out;
}

const failed = vitest !== 0 || playwright !== 0;
if (failed && totals.failed === 0) totals.failed = 1; // a suite that crashed before reporting
if (totals.flaky.length) console.log(`\nPassed only on a retry:\n${totals.flaky.map((t) => `  ${t}`).join('\n')}`);
console.log(`\nTests: ${totals.passed} passed${totals.flaky.length ? ` (${totals.flaky.length} on a retry)` : ''}, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failed ? 1 : 0);


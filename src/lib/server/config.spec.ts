import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ConfigError, parseConfig } from './config.ts';

describe('configuration', () => {
	it('has defaults for everything', () => {
		const c = parseConfig({});
		expect(c).toMatchObject({ PORT: 3000, HOST: '0.0.0.0', PUBLIC_BASE_URL: 'http://localhost:3000', DATA_DIR: './data', RATE_LIMIT: 100, RATE_LIMIT_WINDOW_S: 60, LOG_LEVEL: 'info', CLIENT_SECRET_TTL_S: 86400, SEED_API_KEYS: [] });
		expect(c.DATABASE_URL).toBeUndefined();
	});

	it('derives PUBLIC_BASE_URL from PORT and strips trailing slashes', () => {
		expect(parseConfig({ PORT: '8080' }).PUBLIC_BASE_URL).toBe('http://localhost:8080');
		expect(parseConfig({ PUBLIC_BASE_URL: 'https://id.example.com/' }).PUBLIC_BASE_URL).toBe('https://id.example.com');
	});

	it('treats empty values as unset', () => {
		expect(parseConfig({ PORT: '', DATABASE_URL: ' ' }).PORT).toBe(3000);
	});

	it('reports every bad value on its own line, naming the variable', () => {
		let err: unknown;
		try {
			parseConfig({ PORT: 'eighty', RATE_LIMIT: '0', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', SEED_API_KEYS: 'sk_test_short,abc', PUBLIC_BASE_URL: 'ftp://x' });
		} catch (e) {
			err = e;
		}
		expect(err).toBeInstanceOf(ConfigError);
		const problems = (err as ConfigError).problems.join('\n');
		expect(problems).toContain("PORT must be an integer (got 'eighty')");
		expect(problems).toContain('RATE_LIMIT must be at least 1');
		expect(problems).toContain('DATABASE_URL must be a URL (postgres://');
		expect(problems).not.toContain('mysql://x');
		expect(problems).toContain('LOG_LEVEL must be one of');
		expect(problems).toContain('SEED_API_KEYS each key must look like sk_test_');
		expect(problems).toContain('PUBLIC_BASE_URL must be a URL (http or https');
	});

	it('needs the seed webhook URL and secret together', () => {
		expect(() => parseConfig({ SEED_WEBHOOK_URL: 'https://hooks.example.com/x' })).toThrow('SEED_WEBHOOK_SECRET is required');
	});

	it('accepts a seed webhook only at an https URL or on this machine', () => {
		const secret = 'whsec_' + 'A'.repeat(44);
		expect(parseConfig({ SEED_WEBHOOK_URL: 'http://127.0.0.1:9000/hook', SEED_WEBHOOK_SECRET: secret }).SEED_WEBHOOK_URL).toBe('http://127.0.0.1:9000/hook');
		expect(() => parseConfig({ SEED_WEBHOOK_URL: 'http://hooks.example.com/x', SEED_WEBHOOK_SECRET: secret })).toThrow('SEED_WEBHOOK_URL: A webhook URL must be https');
		expect(() => parseConfig({ SEED_WEBHOOK_URL: 'https://hooks.example.com/x', SEED_WEBHOOK_SECRET: 'a-long-plain-password' })).toThrow('SEED_WEBHOOK_SECRET: webhook secret must start with "whsec_"');
	});

	it('documents every variable in .env.example', () => {
		const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
		const documented = new Set([...example.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
		const known = Object.keys(parseConfig({})).filter((k) => /^[A-Z_]+$/.test(k));
		for (const name of known) expect(documented, name).toContain(name);
		for (const name of ['DATABASE_URL', 'SECRET_KEY', 'SEED_WEBHOOK_URL', 'SMTP_URL', 'LLM_BASE_URL']) expect(documented).toContain(name);
	});
});

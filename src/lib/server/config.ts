import path from 'node:path';
import { z } from 'zod';
import { checkWebhookUrl } from './webhooks/webhook-url.ts';
import { standardWebhooksKey } from './webhooks/webhook-signature.ts';

/*
 * The environment, parsed once. Every variable is documented in the README's configuration table
 * and in .env.example; a bad value stops start-up with one line per problem naming the variable.
 */

const int = (min: number, max: number) =>
	z
		.string()
		.trim()
		.regex(/^-?\d+$/, 'must be an integer')
		.transform(Number)
		.pipe(z.int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const bool = z
	.string()
	.trim()
	.toLowerCase()
	.pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }))
	.transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (protocols: RegExp, hint: string) =>
	z
		.string()
		.trim()
		.refine((value) => {
			try {
				return protocols.test(new URL(value).protocol);
			} catch {
				return false;
			}
		}, `must be a URL (${hint})`);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z.object({
	PORT: int(1, 65535).default(3000),
	HOST: z.string().trim().min(1).default('0.0.0.0'),
	PUBLIC_BASE_URL: url(/^https?:$/, 'http or https, e.g. https://verify.example.com').optional(),
	DATA_DIR: z.string().trim().min(1).default('./data'),
	DATABASE_URL: url(/^postgres(ql)?:$/, 'postgres://user:password@host:5432/db').optional(),
	SEED_API_KEYS: z
		.string()
		.trim()
		.transform((value) => value.split(',').map((k) => k.trim()).filter(Boolean))
		.pipe(z.array(z.string().regex(/^sk_(test|live)_[A-Za-z0-9]{16,128}$/, 'each key must look like sk_test_… or sk_live_… (16–128 letters/digits after the prefix)')))
		.default([]),
	SEED_WEBHOOK_URL: url(/^https?:$/, 'http or https').optional(),
	SEED_WEBHOOK_SECRET: z.string().trim().min(16, 'must be at least 16 characters').optional(),
	RATE_LIMIT: int(1, 1_000_000).default(100),
	RATE_LIMIT_WINDOW_S: int(1, 86_400).default(60),
	LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
	CLIENT_SECRET_TTL_S: int(60, 30 * 86_400).default(86_400),
	SESSION_INACTIVITY_TIMEOUT_S: int(60, 7 * 86_400).default(1_800),
	SECRET_KEY: z.string().trim().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
	FRAME_ANCESTORS: z
		.string()
		.trim()
		.transform((value) => value.split(/[\s,]+/).filter(Boolean))
		.pipe(z.array(z.string().regex(/^(https?:\/\/[^\s/]+|'self'|'none')$/, "each entry must be an origin such as https://app.example.com, 'self' or 'none'")))
		.default([]),
	TRUST_PROXY: int(0, 10).default(0),
	RETENTION_LIVE_DAYS: int(1, 3650).default(90),
	RETENTION_TEST_DAYS: int(1, 3650).default(7),
	SMTP_URL: url(/^smtps?:$/, 'smtp://user:pass@host:587 or smtps://…').optional(),
	SMTP_FROM: z.string().trim().min(3).default('Veriflow <no-reply@localhost>'),
	SMS_WEBHOOK_URL: url(/^https?:$/, 'http or https').optional(),
	LLM_BASE_URL: url(/^https?:$/, 'an OpenAI-compatible base URL, e.g. http://localhost:11434/v1').optional(),
	LLM_API_KEY: z.string().trim().optional(),
	LLM_MODEL: z.string().trim().optional(),
	LLM_TIMEOUT_MS: int(500, 120_000).default(8_000),
	WORKERS: bool.default(true),
	/**
	 * Load the document reader, barcode reader, face models and age/sex estimator right after start,
	 * in the background (warm-up.ts), so the first user does not wait for them. The CLI and test
	 * servers that never read turn it off.
	 */
	WARM_MODELS: bool.default(true),
	/**
	 * The /demo page. Unset: on only with the embedded store, in the sandbox account it made itself;
	 * true: in the first account with a sandbox key; false: off.
	 */
	DEMO_ENABLED: bool.optional(),
	/** Demo sessions one client address may start per hour. */
	DEMO_RATE_LIMIT: int(1, 1_000_000).default(10),
	/** Post-session video analysis decodes with these; absent binaries make the analysis say so. */
	FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
	FFPROBE_PATH: z.string().trim().min(1).default('ffprobe')
});

export type Config = Omit<z.output<typeof envSchema>, 'PUBLIC_BASE_URL'> & {
	PUBLIC_BASE_URL: string;
	/** Absolute data directory. */
	dataDir: string;
};

export class ConfigError extends Error {
	constructor(readonly problems: string[]) {
		super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		this.name = 'ConfigError';
	}
}

/** Parses an environment; empty strings count as unset so `FOO=` in a .env file means "default". */
export function parseConfig(env: Record<string, string | undefined>): Config {
	const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
	const parsed = envSchema.safeParse(cleaned);
	if (!parsed.success) {
		throw new ConfigError(
			parsed.error.issues.map((issue) => {
				const name = String(issue.path[0] ?? '');
				const value = cleaned[name];
				const shown = name.includes('SECRET') || name.includes('KEY') || name === 'DATABASE_URL' ? '' : value !== undefined ? ` (got '${value}')` : '';
				return `${name} ${issue.message}${shown}`;
			})
		);
	}
	const c = parsed.data;
	const problems: string[] = [];
	if (c.SEED_WEBHOOK_URL && !c.SEED_WEBHOOK_SECRET) problems.push('SEED_WEBHOOK_SECRET is required when SEED_WEBHOOK_URL is set');
	if (c.SEED_WEBHOOK_SECRET && !c.SEED_WEBHOOK_URL) problems.push('SEED_WEBHOOK_URL is required when SEED_WEBHOOK_SECRET is set');
	if (c.SEED_WEBHOOK_URL) {
		try {
			checkWebhookUrl(c.SEED_WEBHOOK_URL);
		} catch (err) {
			problems.push(`SEED_WEBHOOK_URL: ${(err as Error).message}`);
		}
	}
	if (c.SEED_WEBHOOK_SECRET) {
		try {
			// Deliveries sign with it both ways; a secret Standard Webhooks cannot read would fail them all.
			standardWebhooksKey(c.SEED_WEBHOOK_SECRET);
		} catch (err) {
			problems.push(`SEED_WEBHOOK_SECRET: ${(err as Error).message} (e.g. whsec_$(openssl rand -base64 32))`);
		}
	}
	if (problems.length) throw new ConfigError(problems);
	return {
		...c,
		PUBLIC_BASE_URL: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
		dataDir: path.resolve(c.DATA_DIR)
	};
}

let current: Config | undefined;

/** The process's configuration (parsed on first use). */
export function config(): Config {
	current ??= parseConfig(process.env);
	return current;
}


import pino from 'pino';

/** Structured logs (JSON lines). The level comes from LOG_LEVEL; tests keep it quiet. */
export const logger = pino({
	level: process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info'),
	base: { service: 'veriflow' },
	redact: { paths: ['req.headers.authorization', '*.secret', '*.apiKey'], censor: '[redacted]' }
});

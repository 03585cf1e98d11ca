/**
 * The spec's error vocabulary. One error class carries a type from this map; exactly one place
 * (`#lib/server/http/error-response`) turns it into the `{error: {type, message, code?}}` body.
 */
export const ERROR_TYPES = {
	authentication_error: 401,
	not_found_error: 404,
	rate_limit_error: 429,
	validation_error: 400,
	server_error: 500
} as const;

export type ErrorType = keyof typeof ERROR_TYPES;

/** Machine-readable refinements of an error type (the spec leaves `code` open; these are ours). */
export const ERROR_CODES = [
	'invalid_json',
	'invalid_multipart',
	'body_too_large',
	'invalid_flow',
	'invalid_settings',
	'invalid_query',
	'invalid_cursor',
	'idempotency_key_reused',
	'method_not_allowed',
	'missing_api_key',
	'invalid_api_key',
	'revoked_api_key',
	'route_not_found',
	'session_not_found',
	'client_secret_invalid',
	'client_secret_expired',
	'client_secret_used',
	'session_finished',
	'node_not_current',
	'outcome_not_allowed',
	'conflict',
	'unsupported_media_type',
	'media_link_invalid',
	'media_not_found',
	'range_not_satisfiable',
	'video_not_enabled',
	'video_closed',
	'chunk_conflict',
	'internal'
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
	error: { type: ErrorType; message: string; code?: ErrorCode };
}

export class ApiError extends Error {
	readonly type: ErrorType;
	readonly status: number;
	readonly code?: ErrorCode;

	constructor(type: ErrorType, message: string, options: { code?: ErrorCode; status?: number } = {}) {
		super(message);
		this.name = 'ApiError';
		this.type = type;
		this.code = options.code;
		this.status = options.status ?? ERROR_TYPES[type];
	}

	toBody(): ErrorBody {
		return { error: { type: this.type, message: this.message, ...(this.code ? { code: this.code } : {}) } };
	}
}

export const validationError = (message: string, code?: ErrorCode, status = 400) =>
	new ApiError('validation_error', message, { code, status });

export const notFound = (message = 'Session not found', code: ErrorCode = 'session_not_found') =>
	new ApiError('not_found_error', message, { code });

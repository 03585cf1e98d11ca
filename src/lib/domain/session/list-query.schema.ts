import { z } from 'zod';
import { SESSION_STATUSES, type SessionStatus } from './session-status.ts';

export const SORT_FIELDS = ['createdAt', 'status', 'finishedAt'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
export const LIST_QUERY_PARAMS = [
	'limit',
	'cursor',
	'flowId',
	'clientReferenceId',
	'status',
	'createdAfter',
	'createdBefore',
	'sortBy',
	'sortOrder',
	'search',
	'includeTotalCount'
] as const;

const unixMs = z
	.string()
	.regex(/^\d{1,16}$/, 'must be a Unix time in milliseconds')
	.transform(Number);

/** A query-string value the store can hold: URL decoding turns `%00` into U+0000, which PostgreSQL refuses. */
const text = (max: number) =>
	z
		.string()
		.min(1)
		.max(max)
		.refine((v) => !v.includes('\u0000'), 'must not contain U+0000');

/** `GET /sessions` query parameters, as strings from the URL (also what the OpenAPI document shows). */
export const listSessionsQueryFields = z.strictObject({
		limit: z
			.string()
			.regex(/^\d{1,3}$/, 'must be an integer between 0 and 100')
			.transform(Number)
			.pipe(z.int().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100'))
			.optional(),
		cursor: text(512).optional(),
		flowId: text(128).optional(),
		clientReferenceId: text(256).optional(),
		status: z
			.string()
			.transform((value, ctx) => {
				const list = [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
				const bad = list.filter((s) => !(SESSION_STATUSES as readonly string[]).includes(s));
				if (!list.length || bad.length) {
					ctx.addIssue({ code: 'custom', message: `must be one or more of ${SESSION_STATUSES.join(', ')} (got '${bad.join(',') || value}')` });
					return z.NEVER;
				}
				return list as SessionStatus[];
			})
			.optional(),
		createdAfter: unixMs.optional(),
		createdBefore: unixMs.optional(),
		sortBy: z.enum(SORT_FIELDS).optional(),
		sortOrder: z.enum(SORT_ORDERS).optional(),
		search: text(200).optional(),
		includeTotalCount: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1').optional()
});

export const listSessionsQuerySchema = listSessionsQueryFields.transform((q) => ({
		...q,
		limit: q.limit ?? 20,
		sortBy: q.sortBy ?? ('createdAt' as const),
		sortOrder: q.sortOrder ?? ('desc' as const),
		includeTotalCount: q.includeTotalCount ?? false
	}));

export type ListSessionsQuery = z.output<typeof listSessionsQuerySchema>;

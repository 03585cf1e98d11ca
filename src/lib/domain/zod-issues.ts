import type { z } from 'zod';

const fieldOf = (path: readonly PropertyKey[]) =>
	path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');

/** One readable line per zod issue, each naming its field: "'langs[0]' must be one of …". */
export function describeZodIssue(issue: z.core.$ZodIssue): string {
	const field = fieldOf(issue.path);
	const named = (message: string) => (field ? `'${field}' ${message}` : message);
	switch (issue.code) {
		case 'unrecognized_keys':
			return issue.keys.map((k) => `unknown field '${field ? `${field}.` : ''}${k}'`).join('; ');
		case 'invalid_type':
			if (/received undefined/.test(issue.message)) return named('is required');
			return named(`must be ${issue.expected === 'int' ? 'an integer' : issue.expected === 'array' ? 'an array' : issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`);
		case 'invalid_value':
			return named(`must be one of ${issue.values.map(String).join(', ')}`);
		case 'too_small':
		case 'too_big': {
			if (issue.message && !/^Too (small|big)/.test(issue.message)) return named(issue.message);
			const bound = issue.code === 'too_small' ? `at least ${String(issue.minimum)}` : `at most ${String(issue.maximum)}`;
			const unit = issue.origin === 'string' ? ' characters long' : issue.origin === 'array' ? ' items long' : '';
			return named(`must be ${bound}${unit}`);
		}
		case 'invalid_union':
			return named('does not match any allowed shape');
		default:
			return named(issue.message.charAt(0).toLowerCase() + issue.message.slice(1));
	}
}

/** All issues as one message, at most `limit` of them. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[], limit = 5): string {
	const lines = issues.slice(0, limit).map(describeZodIssue);
	return issues.length > limit ? `${lines.join('; ')}; and ${issues.length - limit} more` : lines.join('; ');
}

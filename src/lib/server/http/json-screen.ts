import { validationError } from '#lib/domain/errors.ts';

/**
 * Screens a parsed JSON body before any schema or store sees it, for what JSON allows and the rest
 * of the system cannot hold:
 * - U+0000 and unpaired surrogates in any string or key: PostgreSQL refuses both in text and jsonb,
 *   so they would surface as a 500 halfway through a write.
 * - nesting deeper than MAX_JSON_DEPTH: every recursive walk (size checks, canonical JSON) would
 *   overflow the stack.
 * - a `__proto__` key: schema parsing builds plain objects, where that key sets the prototype
 *   instead of an entry, so it would vanish silently from settings the README promises to keep
 *   "exactly as sent".
 * The walk is iterative, so a hostile body cannot overflow the stack here either.
 */
export const MAX_JSON_DEPTH = 64;

export function screenJson(value: unknown, maxDepth = MAX_JSON_DEPTH): void {
	const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
	while (stack.length) {
		const { value: v, path } = stack.pop()!;
		if (typeof v === 'string') {
			checkText(v, path, 'value');
			continue;
		}
		if (v === null || typeof v !== 'object') continue;
		if (path.length >= maxDepth) {
			throw validationError(`The request body is nested more than ${maxDepth} levels deep${at(path)}`, 'invalid_json');
		}
		if (Array.isArray(v)) {
			for (let i = 0; i < v.length; i++) stack.push({ value: v[i], path: [...path, i] });
			continue;
		}
		for (const key of Object.keys(v)) {
			if (key === '__proto__') {
				throw validationError(`The key '__proto__' is not allowed${at(path)}: it cannot be stored as sent`, 'invalid_json');
			}
			checkText(key, [...path, key], 'key');
			stack.push({ value: (v as Record<string, unknown>)[key], path: [...path, key] });
		}
	}
}

function checkText(text: string, path: (string | number)[], what: 'key' | 'value'): void {
	if (text.includes('\u0000')) {
		throw validationError(`The ${what}${at(path)} contains the character U+0000, which cannot be stored`, 'invalid_json');
	}
	if (!text.isWellFormed()) {
		throw validationError(`The ${what}${at(path)} contains an unpaired UTF-16 surrogate (not valid Unicode)`, 'invalid_json');
	}
}

/** ` at 'metadata.k[2]'`, or nothing at the top level. */
function at(path: (string | number)[]): string {
	if (!path.length) return '';
	const text = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
	return ` at '${text.length > 200 ? `${text.slice(0, 200)}…` : text}'`;
}

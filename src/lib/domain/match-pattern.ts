import { RE2JS } from 're2js';

/**
 * Patterns of the `matches` action, written by integrators.
 *
 * JavaScript's RegExp backtracks: `(a+)+$`, `(a|a){30}b` or even `\s*\s*\s*$x` take exponential or
 * high-polynomial time on a crafted input and would stall the server for every tenant, and a running
 * RegExp cannot be interrupted. Static "star height" checks miss many such patterns, so the patterns
 * run on re2js, a port of RE2 whose matching time is linear in the input whatever the pattern.
 *
 * The value is a bare pattern (`^[A-Z]{2}\d+$`) or a literal with flags (`/^ita$/i`; flags `i`, `m`,
 * `s`, `u`). JavaScript syntax is accepted and translated; what RE2 cannot do in linear time —
 * lookarounds (`(?=`, `(?!`, `(?<=`, `(?<!`) and backreferences (`\1`, `\k<n>`) — is refused as
 * invalid. Patterns are capped at MAX_PATTERN_LENGTH characters and repeat counts at 1000 (RE2's
 * own limit); inputs at MAX_MATCH_INPUT_LENGTH characters. Matching finds the pattern anywhere in the
 * value, like `RegExp.prototype.test`; anchor it with `^…$` for a whole-value match.
 */
export const MAX_PATTERN_LENGTH = 200;
export const MAX_MATCH_INPUT_LENGTH = 2000;

export interface MatchPattern {
	test(input: string): boolean;
}

const FLAG_BITS: Record<string, number> = {
	i: RE2JS.CASE_INSENSITIVE,
	m: RE2JS.MULTILINE,
	s: RE2JS.DOTALL,
	u: 0
};

function splitPattern(value: string): { source: string; flags: string } {
	const literal = /^\/([\s\S]+)\/([a-z]*)$/.exec(value);
	return literal ? { source: literal[1]!, flags: literal[2]! } : { source: value, flags: '' };
}

function compile(value: string): MatchPattern | string {
	if (value.length > MAX_PATTERN_LENGTH) return `pattern longer than ${MAX_PATTERN_LENGTH} characters`;
	const { source, flags } = splitPattern(value);
	if (![...flags].every((f) => f in FLAG_BITS) || new Set(flags).size !== flags.length) {
		return 'unsupported flags (allowed: i, m, s, u)';
	}
	const bits = [...flags].reduce((acc, f) => acc | FLAG_BITS[f]!, 0);
	try {
		return RE2JS.compile(RE2JS.translateRegExp(source), bits);
	} catch (e) {
		const detail = e instanceof Error ? e.message : String(e);
		return `invalid or unsupported pattern (no lookarounds or backreferences): ${detail}`;
	}
}

/** Null when the `matches` value can be used, else a sentence saying why it is refused. */
export function checkMatchPattern(value: string): string | null {
	const compiled = compile(value);
	return typeof compiled === 'string' ? compiled : null;
}

/** Compiles a `matches` value into a linear-time matcher; null when it is refused. */
export function compileMatchPattern(value: string): MatchPattern | null {
	const compiled = compile(value);
	return typeof compiled === 'string' ? null : compiled;
}

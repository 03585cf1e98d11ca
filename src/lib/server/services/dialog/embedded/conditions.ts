import type { Entities } from './entities.ts';
import type { Intent } from './intent-lexicon.ts';

/**
 * Maps an outcome's natural-language condition, written in English by the integrator, onto what the
 * embedded judge can observe: intents and entities of the reply, the last data validation, or a
 * catch-all. A condition this cannot understand never matches (returns null), except the catch-all
 * phrases; then the avatar asks again rather than guess.
 *
 * Understood, for example: "The user agrees", "User said no", "the user is (not) ready",
 * "asks to repeat", "needs help", "is unsure", "The user provided their name", "email given",
 * "no phone number given", "gave a number / a date", "says 'blue'", "replied", "the answer is
 * unclear", "validation passed", "the value is invalid", "failed", "otherwise", "always",
 * "default", "anything else"; "and" / "or" combine them.
 */
export type Predicate =
	| { kind: 'always' }
	| { kind: 'replied' }
	| { kind: 'unrecognized' }
	| { kind: 'intent'; intent: Intent }
	| { kind: 'entity'; entity: keyof Entities }
	| { kind: 'validation'; passed: boolean }
	| { kind: 'says'; text: string }
	| { kind: 'not'; of: Predicate }
	| { kind: 'all'; of: Predicate[] }
	| { kind: 'any'; of: Predicate[] };

const CATCH_ALL = new Set([
	'otherwise', 'always', 'default', 'else', 'fallback', 'fall back', 'anything', 'anything else', 'any', 'any answer',
	'any other answer', 'any response', 'any other response', 'any reply', 'any other reply', 'any other case', 'any other input',
	'in all other cases', 'all other cases', 'in any other case', 'everything else', 'no condition', 'true', 'catch all',
	'catchall', 'none of the above', 'if nothing else matches', 'nothing else matches', 'other', 'others', 'else case',
	'default case', 'in any case', 'no match', 'unconditional', 'whatever'
]);

const SUBJECT = /^(?:if|when|whether)?\s*(?:the\s+)?(?:end\s+user|user|customer|person|client|caller|applicant|participant|they|he or she|he|she)?(?:'s)?\s*/;

const NEGATION = /\b(?:not|no|never|without|nothing|neither|nor|doesn't|does not|didn't|did not|isn't|is not|hasn't|has not|haven't|have not|can't|cannot|won't|will not|fails? to|failed to|refuses? to|refused to|declines? to|declined to|unable to|unwilling to|missing|absent)\b/;
const PROVIDE = /\b(?:gives?|gave|given|provides?|provided|providing|says?|said|tells?|told|shares?|shared|mentions?|mentioned|states?|stated|enters?|entered|types?|typed|spells?|spelled|supplies|supplied|offers?|offered|contains?|includes?|has|have|with|answers? with|replies with|responds with)\b/;

const ENTITY_WORDS: [keyof Entities, RegExp][] = [
	['email', /\b(?:e-?mails?|e-?mail address(?:es)?|mail address)\b/],
	['phone', /\b(?:phone|telephone|mobile number|cell number|cellphone)\b/],
	['date', /\b(?:date|birthday|birth ?date|born|dob)\b/],
	['name', /\b(?:name|names|first name|last name|full name|surname|firstname|lastname)\b/],
	['number', /\b(?:number|numbers|digits?|age|how old|amount|figure|numeric)\b/]
];

// Checked in this order; a negative phrase is listed before the positive word it contains.
const INTENT_PHRASES: [Intent, RegExp][] = [
	['notReady', /\b(?:not (?:yet )?ready|isn't ready|not yet|needs? (?:more )?time|wants? to wait|asks? to wait|needs? a (?:moment|minute|second)|later|not now|wait|hold on)\b/],
	['decline', /\b(?:declines?|declined|refuses?|refused|rejects?|rejected|disagrees?|disagreed|(?:says?|said|answers?|answered|replies|replied|responds?|responded) no|no|nope|negative|denies|denied|(?:does not|doesn't|did not|didn't) (?:agree|consent|accept|want|approve|confirm)|cancels?|cancell?ed|wants? to (?:stop|quit|cancel|leave)|stops?|quits?|opts? out|unwilling|not willing|not interested|(?:is )?not (?:ok|okay|fine))\b/],
	['unsure', /\b(?:unsure|not sure|uncertain|(?:does not|doesn't|did not|didn't) know|maybe|hesitates?|hesitant|undecided)\b/],
	['repeat', /\b(?:repeat|repetition|(?:did not|didn't|does not|doesn't) (?:understand|hear|catch)|confused|asks? again|say (?:it |that )?again|pardon|asks? what)\b/],
	['help', /\b(?:help|assistance|support|(?:has|have|had|asks?|asked) (?:a |any |some )?questions?)\b/],
	['ready', /\b(?:ready|wants? to (?:start|begin|continue|proceed|go on)|start|starts|begin|begins|proceed|proceeds|continue|continues|go ahead|lets go|let's go)\b/],
	['agree', /\b(?:agrees?|agreed|consents?|consented|accepts?|accepted|(?:says?|said|answers?|answered|replies|replied|responds?|responded) yes|yes|yeah|confirms?|confirmed|approves?|approved|positive|affirmative|(?:is )?(?:ok|okay|fine)(?: with)?|willing|happy to|wants? to)\b/]
];

const UNRECOGNIZED = /\b(?:unclear|not clear|unintelligible|gibberish|unrelated|off[- ]topic|irrelevant|(?:does not|doesn't) make sense|nonsense|not understood|cannot be understood|can't be understood|no valid answer|something else)\b/;
const REPLIED = /\b(?:replie[sd]|reply|responds?|responded|response|answers?|answered|says something|said something|speaks|spoke|any input|types? something)\b/;
const VALID_WORDS = /\b(?:valid|invalid|validation|validated|validates|is correct format|well-formed|malformed)\b/;
const PASS_WORDS = /\b(?:pass(?:es|ed)?|succeed(?:s|ed)?|success(?:ful)?|matche[sd]|match|true|ok)\b/;
const FAIL_WORDS = /\b(?:invalid|fail(?:s|ed|ure)?|unsuccessful|malformed|false|(?:does not|doesn't|did not|didn't) (?:match|pass))\b/;

function clean(text: string): string {
	return text
		.toLowerCase()
		.replace(/[’‘`´]/g, "'")
		.replace(/[^\p{L}\p{N}' -]+/gu, ' ')
		.replace(/\s+/g, ' ')
		.trim();
}

function atomic(raw: string): Predicate | null {
	const quoted = /["“”«»‘’']([^"“”«»‘’']{1,80})["“”«»‘’']/u.exec(raw);
	const text = clean(raw);
	if (text === '' && raw.trim() === '*') return { kind: 'always' };
	const bare = text.replace(SUBJECT, '').trim();
	if (CATCH_ALL.has(text) || CATCH_ALL.has(bare)) return { kind: 'always' };
	const negated = NEGATION.test(bare);
	// Negation is judged on what is left once the matched phrase is taken out, so "said no" is a
	// refusal but "did not say no" is not one, and "not ready" is simply not being ready.
	const wrapUnless = (p: Predicate, matched: RegExp): Predicate =>
		NEGATION.test(bare.replace(matched, ' ')) ? { kind: 'not', of: p } : p;

	if (quoted && /\b(?:says?|said|answers?|answered|repl(?:y|ies|ied)|types?|typed|mentions?|mentioned|responds?|responded|uses? the word)\b/.test(bare)) {
		return negated ? { kind: 'not', of: { kind: 'says', text: quoted[1]! } } : { kind: 'says', text: quoted[1]! };
	}
	if (UNRECOGNIZED.test(bare)) return { kind: 'unrecognized' };
	if (VALID_WORDS.test(bare)) {
		const failed = FAIL_WORDS.test(bare) || negated;
		return { kind: 'validation', passed: !failed };
	}
	for (const [entity, words] of ENTITY_WORDS) {
		if (!words.test(bare)) continue;
		// "agrees to share the e-mail" still reads as giving it; "confirms the e-mail" as agreeing.
		if (PROVIDE.test(bare) || !INTENT_PHRASES.some(([, re]) => re.test(bare.replace(words, ' ')))) {
			return wrapUnless({ kind: 'entity', entity }, words);
		}
	}
	for (const [intent, phrase] of INTENT_PHRASES) {
		if (phrase.test(bare)) return wrapUnless({ kind: 'intent', intent }, phrase);
	}
	if (FAIL_WORDS.test(bare)) return { kind: 'validation', passed: false };
	if (PASS_WORDS.test(bare)) return { kind: 'validation', passed: !negated };
	if (REPLIED.test(bare)) return wrapUnless({ kind: 'replied' }, REPLIED);
	return null;
}

function combine(parts: string[], kind: 'all' | 'any', next: (part: string) => Predicate | null): Predicate | null {
	if (parts.length === 1) return next(parts[0]!);
	const parsed = parts.map(next);
	if (parsed.some((p) => p === null)) return null;
	return { kind, of: parsed as Predicate[] };
}

/** The predicate a condition stands for, or null when the embedded judge cannot understand it. */
export function parseCondition(condition: string): Predicate | null {
	const text = condition.slice(0, 500);
	const whole = atomic(text);
	if (whole?.kind === 'always') return whole;
	const split =
		combine(text.split(/\s+or\s+/i), 'any', (part) => combine(part.split(/\s+and\s+|,\s*and\s+/i), 'all', atomic));
	return split ?? whole;
}

export interface Observation {
	intents: ReadonlySet<Intent>;
	entities: Entities;
	/** The reply, normalised. */
	reply: string;
	validationPassed?: boolean;
}

export function evaluate(p: Predicate, o: Observation, normalizeText: (s: string) => string): boolean {
	switch (p.kind) {
		case 'always':
			return true;
		case 'replied':
			return o.reply !== '';
		case 'unrecognized':
			return o.reply !== '' && o.intents.size === 0 && Object.keys(o.entities).length === 0;
		case 'intent':
			switch (p.intent) {
				// Saying "yes" to "are you ready?" is being ready, and "let's go" is agreeing.
				case 'agree':
				case 'ready':
					return o.intents.has('agree') || o.intents.has('ready');
				case 'notReady':
					return o.intents.has('notReady') || o.intents.has('decline');
				default:
					return o.intents.has(p.intent);
			}
		case 'entity':
			return o.entities[p.entity] !== undefined;
		case 'validation':
			return o.validationPassed === p.passed;
		case 'says': {
			const needle = normalizeText(p.text);
			return needle !== '' && ` ${o.reply} `.includes(` ${needle} `);
		}
		case 'not':
			return !evaluate(p.of, o, normalizeText);
		case 'all':
			return p.of.every((q) => evaluate(q, o, normalizeText));
		case 'any':
			return p.of.some((q) => evaluate(q, o, normalizeText));
	}
}

import { parseCondition, evaluate, type Observation, type Predicate } from './embedded/conditions.ts';
import { extractEntities, type Entities } from './embedded/entities.ts';
import { INTENT_LEXICONS, type Intent } from './embedded/intent-lexicon.ts';
import { phrasesFor, recogniseGoals, sorryLine } from './embedded/phrasebook.ts';
import { answerFor, QUESTION_LEXICONS, QUESTION_WORDS } from './embedded/questions.ts';
import { compileLexicon, findMatches, isCjkLang, normalize, type LexiconEntry } from './embedded/text.ts';
import { correctTypos, vocabularyOf } from './embedded/typos.ts';
import { choicesFrom, pickLine, questionFromInstruction } from './embedded/wording.ts';
import {
	sayText,
	type Choice,
	type DialogEngine,
	type DialogState,
	type JudgeInput,
	type JudgeResult,
	type SessionFacts,
	type SpeakInput,
	type SpeakResult,
	type SupportedLang,
	type UserQuestion
} from './dialog.types.ts';

export interface EmbeddedDialogEngineOptions {
	/** The clock for two-digit years in dates; injected for tests. */
	now?: () => Date;
}

export interface ReplyAnalysis extends Observation {
	entities: Entities;
}

const POSITIVE = new Set<Intent>(['agree', 'ready']);
const NEGATIVE = new Set<Intent>(['decline', 'notReady']);

interface LangLexicons {
	intents: LexiconEntry<Intent>[];
	questions: LexiconEntry<UserQuestion>[];
	/** What a question can be about ("my passport"): a question only in a reply that asks. */
	topics: LexiconEntry<UserQuestion>[];
	/** Question words ("why", "is it") and contrast words ("but"), for questions the lexicon does not know. */
	asking: LexiconEntry<'ask' | 'but'>[];
	/** Words of both, for typo correction. */
	vocabulary: Set<string>;
}

const lexicons = new Map<SupportedLang, LangLexicons>();
function lexiconsFor(lang: SupportedLang): LangLexicons {
	let found = lexicons.get(lang);
	if (!found) {
		const intents: [string, Intent][] = [];
		const questions: [string, UserQuestion][] = [];
		const topics: [string, UserQuestion][] = [];
		const asking: [string, 'ask' | 'but'][] = [];
		// The session language first, then English: people often answer "ok" or "yes" whatever the language.
		const langs = lang === 'en' ? (['en'] as const) : ([lang, 'en'] as const);
		for (const l of langs) {
			for (const [intent, phrases] of Object.entries(INTENT_LEXICONS[l]) as [Intent, readonly string[]][]) {
				for (const phrase of phrases) intents.push([phrase, intent]);
			}
			const q = QUESTION_LEXICONS[l] ?? (l.startsWith('zh') ? QUESTION_LEXICONS.zh : undefined);
			for (const [question, phrases] of Object.entries(q ?? {}) as [UserQuestion, readonly string[]][]) {
				for (const phrase of phrases) (phrase.startsWith('~') ? topics : questions).push([phrase.replace(/^~/, ''), question]);
			}
			for (const word of QUESTION_WORDS[l]?.ask ?? []) asking.push([word, 'ask']);
			for (const word of QUESTION_WORDS[l]?.but ?? []) asking.push([word, 'but']);
		}
		const compiled = { intents: compileLexicon(intents), questions: compileLexicon(questions), topics: compileLexicon(topics), asking: compileLexicon(asking) };
		found = { ...compiled, vocabulary: vocabularyOf([...compiled.intents, ...compiled.questions].map((e) => e.phrase)) };
		lexicons.set(lang, found);
	}
	return found;
}

/**
 * The question a reply asks, if any: the first one the lexicon knows, else `other` for a reply that
 * plainly asks something (a question word with a question mark or a "but", or a question mark on a
 * reply of three words or more).
 */
export function questionIn(reply: string, lang: SupportedLang, text = readable(reply, lang)): UserQuestion | undefined {
	const { questions, topics, asking } = lexiconsFor(lang);
	const known = findMatches(text, questions)[0]?.value;
	if (known) return known;
	const marks = findMatches(text, asking).map((m) => m.value);
	const questionMark = /[?？]/.test(reply);
	const asks = questionMark || marks.includes('ask');
	const topic = asks ? findMatches(text, topics)[0]?.value : undefined;
	if (topic) return topic;
	const words = isCjkLang(lang) ? text.replace(/\s+/g, '').length / 2 : text.split(' ').length;
	if (marks.includes('ask') && (questionMark || marks.includes('but'))) return 'other';
	if (questionMark && words >= 3) return 'other';
	return undefined;
}

/** The reply normalised, with typing slips corrected against the language's lexicons. */
function readable(reply: string, lang: SupportedLang): string {
	return correctTypos(normalize(reply), lexiconsFor(lang).vocabulary);
}

/** What the reply means: intents (with yes/no conflicts settled by the last one said) and entities. */
export function analyzeReply(reply: string, lang: SupportedLang, now: Date, text = readable(reply, lang)): ReplyAnalysis {
	const normalized = normalize(reply);
	const matches = findMatches(text, lexiconsFor(lang).intents);
	// "No… wait, yes, I'm ready": when both polarities occur, the one said last is the answer.
	const lastPolar = matches.findLast((m) => POSITIVE.has(m.value) || NEGATIVE.has(m.value));
	const keep = lastPolar ? (POSITIVE.has(lastPolar.value) ? POSITIVE : NEGATIVE) : null;
	const intents = new Set<Intent>();
	for (const m of matches) {
		const polar = POSITIVE.has(m.value) || NEGATIVE.has(m.value);
		if (!polar || keep?.has(m.value)) intents.add(m.value);
	}
	// Hedged is not agreed: "yes… I mean, I'm not sure" and "ok, I guess" are not a yes.
	if (intents.has('unsure')) {
		intents.delete('agree');
		intents.delete('ready');
	}
	const { entities, bareName } = extractEntities(reply, lang, now);
	if (bareName && intents.size > 0) delete entities.name;
	return { intents, entities, reply: normalized };
}

/**
 * The dialog engine that needs no network: phrasebook speech and a rule-based multilingual judge.
 */
export class EmbeddedDialogEngine implements DialogEngine {
	readonly #now: () => Date;
	readonly #conditions = new Map<string, Predicate | null>();

	constructor(options: EmbeddedDialogEngineOptions = {}) {
		this.#now = options.now ?? (() => new Date());
	}

	async speak({ prompt, lang, state }: SpeakInput): Promise<SpeakResult> {
		const verbatim = sayText(prompt);
		if (verbatim !== null) return { text: verbatim };
		const goals = recogniseGoals(prompt);
		let phrased = true;
		let lines: string[];
		if (goals.length > 0) lines = phrasesFor(goals, lang, knownName(state));
		else {
			// A goal the phrasebook does not know is never read out as an instruction ("Ask the user
			// which country…"): it becomes the question it asks (English, as the integrator wrote it),
			// or, failing that, the user is asked to pick from the outcomes. Either way the page offers
			// the outcomes as choices unless the question is in the session's language.
			const question = questionFromInstruction(prompt);
			phrased = question !== null && lang === 'en';
			lines = [question ?? pickLine(lang)];
		}
		if ((state.attempt ?? 0) > 0) lines.unshift(sorryLine(lang));
		return { text: lines.join(isCjkLang(lang) ? '' : ' '), phrased };
	}

	async judge({ outcomes, lang, state, reply }: JudgeInput): Promise<JudgeResult> {
		// Normalised and corrected once, for the intents and the question alike.
		const text = readable(reply, lang);
		const analysis = analyzeReply(reply, lang, this.#now(), text);
		const observation: Observation = { ...analysis, validationPassed: state.lastValidation?.passed };
		const entities = Object.fromEntries(
			Object.entries(analysis.entities).filter(([, v]) => v !== undefined)
		) as Record<string, string>;
		const question = questionIn(reply, lang, text);
		if (question) {
			// "Yes, but what do you do with my data?" is answered before it counts as a yes; only an
			// outcome that is about questions ("the user has a question") takes it as it is.
			const asks = outcomes.find((o) => isAboutHelp(this.#condition(o.condition)));
			return asks ? { outcomeId: asks.id, entities } : { outcomeId: null, entities, question };
		}
		for (const outcome of outcomes) {
			const predicate = this.#condition(outcome.condition);
			if (predicate && evaluate(predicate, observation, normalize)) return { outcomeId: outcome.id, entities };
		}
		// "I'm not sure" to a question nobody planned for: say what this is about, then ask again.
		if (analysis.intents.has('unsure')) return { outcomeId: null, entities, question: 'purpose' };
		return { outcomeId: null, entities };
	}

	canJudge(condition: string): boolean {
		return this.#condition(condition) !== null;
	}

	choices(outcomes: readonly { id: string; condition: string }[], lang: SupportedLang): Choice[] {
		return choicesFrom(outcomes, lang, (condition) => this.#condition(condition));
	}

	answer(question: UserQuestion, lang: SupportedLang, facts: SessionFacts): string {
		return answerFor(question, lang, facts);
	}

	repeatPhrase(lang: SupportedLang): string {
		return sorryLine(lang);
	}

	/** The predicate a condition maps to (null: not understood, never matches). Exposed for tests. */
	conditionOf(condition: string): Predicate | null {
		return this.#condition(condition);
	}

	#condition(condition: string): Predicate | null {
		let predicate = this.#conditions.get(condition);
		if (predicate === undefined) {
			predicate = parseCondition(condition);
			if (this.#conditions.size > 1000) this.#conditions.clear();
			this.#conditions.set(condition, predicate);
		}
		return predicate;
	}
}

function isAboutHelp(p: Predicate | null): boolean {
	if (!p) return false;
	if (p.kind === 'intent') return p.intent === 'help';
	if (p.kind === 'any') return p.of.some(isAboutHelp);
	return false;
}

const NAME_KEYS = ['name', 'firstName', 'first_name', 'fullName', 'givenName'];

/** The user's name if the session already knows it (provided by the integrator or said earlier). */
function knownName(state: DialogState): string | undefined {
	const record = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined);
	// providedData from the integrator, then what the user said earlier (the runner keeps judged
	// entities under `dialog`), then values saved at the top level.
	for (const source of [record(state.data.providedData), record(state.data.dialog), state.data]) {
		for (const key of NAME_KEYS) {
			const value = source?.[key];
			if (typeof value === 'string' && value.trim() && value.length <= 60) return value.trim().split(/\s+/)[0];
		}
	}
	return undefined;
}

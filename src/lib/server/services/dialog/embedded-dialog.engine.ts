import { parseCondition, evaluate, type Observation, type Predicate } from './embedded/conditions.ts';
import { extractEntities, type Entities } from './embedded/entities.ts';
import { INTENT_LEXICONS, type Intent } from './embedded/intent-lexicon.ts';
import { phrasesFor, recogniseGoals, sorryLine } from './embedded/phrasebook.ts';
import { compileLexicon, findMatches, isCjkLang, normalize, type LexiconEntry } from './embedded/text.ts';
import {
	sayText,
	type DialogEngine,
	type DialogState,
	type JudgeInput,
	type JudgeResult,
	type SpeakInput,
	type SupportedLang
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

const lexicons = new Map<SupportedLang, LexiconEntry<Intent>[]>();
function intentLexicon(lang: SupportedLang): LexiconEntry<Intent>[] {
	let lexicon = lexicons.get(lang);
	if (!lexicon) {
		const entries: [string, Intent][] = [];
		// The session language first, then English: people often answer "ok" or "yes" whatever the language.
		for (const source of lang === 'en' ? [INTENT_LEXICONS.en] : [INTENT_LEXICONS[lang], INTENT_LEXICONS.en]) {
			for (const [intent, phrases] of Object.entries(source) as [Intent, readonly string[]][]) {
				for (const phrase of phrases) entries.push([phrase, intent]);
			}
		}
		lexicon = compileLexicon(entries);
		lexicons.set(lang, lexicon);
	}
	return lexicon;
}

/** What the reply means: intents (with yes/no conflicts settled by the last one said) and entities. */
export function analyzeReply(reply: string, lang: SupportedLang, now: Date): ReplyAnalysis {
	const normalized = normalize(reply);
	const matches = findMatches(normalized, intentLexicon(lang));
	// "No… wait, yes, I'm ready": when both polarities occur, the one said last is the answer.
	const lastPolar = matches.findLast((m) => POSITIVE.has(m.value) || NEGATIVE.has(m.value));
	const keep = lastPolar ? (POSITIVE.has(lastPolar.value) ? POSITIVE : NEGATIVE) : null;
	const intents = new Set<Intent>();
	for (const m of matches) {
		const polar = POSITIVE.has(m.value) || NEGATIVE.has(m.value);
		if (!polar || keep?.has(m.value)) intents.add(m.value);
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

	async speak({ prompt, lang, state }: SpeakInput): Promise<{ text: string }> {
		const verbatim = sayText(prompt);
		if (verbatim !== null) return { text: verbatim };
		const goals = recogniseGoals(prompt);
		// Without a recognised goal there is nothing to translate from: the prompt itself is spoken,
		// as written by the integrator. Multilingual flows should use known goals or the LLM engine.
		const lines = goals.length > 0 ? phrasesFor(goals, lang, knownName(state)) : [prompt.trim()];
		if ((state.attempt ?? 0) > 0) lines.unshift(sorryLine(lang));
		return { text: lines.join(isCjkLang(lang) ? '' : ' ') };
	}

	async judge({ outcomes, lang, state, reply }: JudgeInput): Promise<JudgeResult> {
		const analysis = analyzeReply(reply, lang, this.#now());
		const observation: Observation = { ...analysis, validationPassed: state.lastValidation?.passed };
		const entities = Object.fromEntries(
			Object.entries(analysis.entities).filter(([, v]) => v !== undefined)
		) as Record<string, string>;
		for (const outcome of outcomes) {
			const predicate = this.#condition(outcome.condition);
			if (predicate && evaluate(predicate, observation, normalize)) return { outcomeId: outcome.id, entities };
		}
		return { outcomeId: null, entities };
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

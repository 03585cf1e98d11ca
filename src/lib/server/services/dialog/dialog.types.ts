import type { ValidationResult } from '#lib/domain/data-validation.ts';
import type { SupportedLang } from '#lib/domain/languages.ts';

export type { SupportedLang };

/** One line of the transcript (the spec's Phrase). */
export interface Phrase {
	id: string;
	createdAt: number;
	text: string;
	isAvatar: boolean;
}

/** A conditional outcome as the flow stores it (local until the shared flow schemas land). */
export interface ConditionalOutcome {
	id: string;
	condition: string;
	targetNodeId: string;
}

/** The `conversation` node (local type; the lead swaps in the shared schema's type). */
export interface ConversationNode {
	id: string;
	type: 'conversation';
	prompt: string;
	outcomes: ConditionalOutcome[];
	doesNotRequireReply?: boolean;
}

/**
 * The session data conditions and validations read: `providedData.*`, `extractedData.*` and the
 * values nodes saved, at the top level (the runner's `sessionDataView`).
 */
export type SessionData = Record<string, unknown>;

/** The last `data_validation` result, joined to the dialog state so conditions can be judged on it. */
export interface LastValidation extends ValidationResult {
	nodeId?: string;
	field?: string;
	action?: string;
	value?: string;
}

export interface DialogState {
	transcript: readonly Phrase[];
	data: SessionData;
	lastValidation?: LastValidation;
	/**
	 * How many times this node's prompt was already spoken (0 or absent the first time). When the
	 * judge found no outcome, the runner speaks the prompt again with attempt + 1, and engines say
	 * they did not understand before asking again.
	 */
	attempt?: number;
}

export interface SpeakInput {
	prompt: string;
	lang: SupportedLang;
	state: DialogState;
}

export interface JudgeInput {
	outcomes: readonly { id: string; condition: string }[];
	lang: SupportedLang;
	state: DialogState;
	reply: string;
}

/** A question the user asked instead of answering; answered from what the session knows. */
export type UserQuestion = 'purpose' | 'data' | 'duration' | 'other';
export const USER_QUESTIONS = ['purpose', 'data', 'duration', 'other'] as const satisfies readonly UserQuestion[];

export interface JudgeResult {
	/** The first outcome whose condition holds, in array order; null when none does (ask again). */
	outcomeId: string | null;
	/** What the reply contained: `name`, `email`, `number`, `date` (ISO), `phone` (E.164-ish)… */
	entities: Record<string, string>;
	/**
	 * The reply asked this (alone, or with an answer: "yes, but what do you do with my data?"). It is
	 * answered before the prompt is asked again, and the reply is not taken as an answer.
	 */
	question?: UserQuestion;
}

export interface SpeakResult {
	text: string;
	/**
	 * False when the engine could not turn the goal into words for the user (a goal it does not
	 * know, in a language it cannot write it in): the page then offers the outcomes as choices.
	 */
	phrased?: boolean;
}

/** An outcome offered to the user as a button, worded for them in the session language. */
export interface Choice {
	id: string;
	label: string;
}

/** What the session tells a user who asks how long it takes. */
export interface SessionFacts {
	/** Steps along the flow still ahead, this one included (null: not on the main path). */
	stepsLeft: number | null;
}

export interface DialogEngine {
	/** Turns a conversation node's prompt into the avatar's words in the session language. */
	speak(input: SpeakInput): Promise<SpeakResult>;
	/** Judges the conditional outcomes in array order against the dialog state and the latest reply. */
	judge(input: JudgeInput): Promise<JudgeResult>;
	/** What the avatar says, in the session language, before asking again when no outcome matched. */
	repeatPhrase(lang: SupportedLang): string;
	/** Whether this engine can ever find `condition` true from a reply (false: only a choice reaches it). */
	canJudge(condition: string): boolean;
	/** The outcomes worded as answers the user can pick, in the session language; unpickable ones left out. */
	choices(outcomes: readonly { id: string; condition: string }[], lang: SupportedLang): Choice[];
	/** A short, true answer to a user's question, in the session language. */
	answer(question: UserQuestion, lang: SupportedLang, facts: SessionFacts): string;
}

const SAY = /^\s*say\s*:/i;

/** The words to speak verbatim for a `Say:` prompt (text after the prefix, trimmed), else null. */
export function sayText(prompt: string): string | null {
	const m = SAY.exec(prompt);
	return m ? prompt.slice(m[0].length).trim() : null;
}

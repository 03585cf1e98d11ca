import type { ValidationResult } from '#lib/domain/data-validation.ts';
import type { SupportedLang } from '#lib/i18n/languages.ts';

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

export interface JudgeResult {
	/** The first outcome whose condition holds, in array order; null when none does (ask again). */
	outcomeId: string | null;
	/** What the reply contained: `name`, `email`, `number`, `date` (ISO), `phone` (E.164-ish)… */
	entities: Record<string, string>;
}

export interface DialogEngine {
	/** Turns a conversation node's prompt into the avatar's words in the session language. */
	speak(input: SpeakInput): Promise<{ text: string }>;
	/** Judges the conditional outcomes in array order against the dialog state and the latest reply. */
	judge(input: JudgeInput): Promise<JudgeResult>;
	/** What the avatar says, in the session language, before asking again when no outcome matched. */
	repeatPhrase(lang: SupportedLang): string;
}

const SAY = /^\s*say\s*:/i;

/** The words to speak verbatim for a `Say:` prompt (text after the prefix, trimmed), else null. */
export function sayText(prompt: string): string | null {
	const m = SAY.exec(prompt);
	return m ? prompt.slice(m[0].length).trim() : null;
}

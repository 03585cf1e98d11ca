export { createDialogEngine, DEFAULT_LLM_MODEL, type DialogEngineConfig } from './create-dialog-engine.ts';
export {
	sayText,
	USER_QUESTIONS,
	type Choice,
	type SessionFacts,
	type SpeakResult,
	type UserQuestion,
	type ConditionalOutcome,
	type ConversationNode,
	type DialogEngine,
	type DialogState,
	type JudgeInput,
	type JudgeResult,
	type LastValidation,
	type Phrase,
	type SessionData,
	type SpeakInput
} from './dialog.types.ts';
export { analyzeReply, EmbeddedDialogEngine, type EmbeddedDialogEngineOptions } from './embedded-dialog.engine.ts';
export { DEFAULT_LLM_TIMEOUT_MS, LlmDialogEngine, type DialogLogger, type LlmDialogEngineOptions } from './llm-dialog.engine.ts';

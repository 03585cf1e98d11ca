import type { DialogEngine } from './dialog.types.ts';
import { EmbeddedDialogEngine } from './embedded-dialog.engine.ts';
import { DEFAULT_LLM_TIMEOUT_MS, LlmDialogEngine, type DialogLogger } from './llm-dialog.engine.ts';

export interface DialogEngineConfig {
	LLM_BASE_URL?: string;
	LLM_API_KEY?: string;
	/** Defaults to DEFAULT_LLM_MODEL; local servers (Ollama, vLLM, llama.cpp) need their own name. */
	LLM_MODEL?: string;
	LLM_TIMEOUT_MS?: number;
}

export const DEFAULT_LLM_MODEL = 'gpt-4o-mini';

/** The LLM engine when `LLM_BASE_URL` is set (falling back to the embedded one), else the embedded engine. */
export function createDialogEngine(
	config: DialogEngineConfig,
	deps: { fetch?: typeof globalThis.fetch; logger?: DialogLogger } = {}
): DialogEngine {
	const embedded = new EmbeddedDialogEngine();
	const baseUrl = config.LLM_BASE_URL?.trim();
	if (!baseUrl) return embedded;
	return new LlmDialogEngine({
		baseUrl,
		apiKey: config.LLM_API_KEY?.trim() || undefined,
		model: config.LLM_MODEL?.trim() || DEFAULT_LLM_MODEL,
		timeoutMs: config.LLM_TIMEOUT_MS ?? DEFAULT_LLM_TIMEOUT_MS,
		fallback: embedded,
		fetch: deps.fetch,
		logger: deps.logger
	});
}

import { classifyResponse, type AttemptResult, type ResponseClass } from './retry-schedule.ts';

/** How much of a receiver's response is kept in the attempt log, in characters (code points). */
export const SNIPPET_CHARS = 512;
/** UTF-8 needs at most 4 bytes a code point: never read more than this of a response body. */
const SNIPPET_MAX_BYTES = SNIPPET_CHARS * 4;
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface SendWebhookInput {
	url: string;
	/** Signature headers from `signWebhook` plus anything else; `content-type` defaults to JSON. */
	headers: Record<string, string>;
	body: string;
	/** Whole-attempt limit: connecting, sending and receiving the status line and headers. */
	timeoutMs?: number;
	/** Injectable for tests or an SSRF-guarded fetch; defaults to the global one. */
	fetch?: typeof globalThis.fetch;
}

export interface SendWebhookResult {
	outcome: ResponseClass;
	/** The raw result to pass to `decideAfterAttempt`. */
	attemptResult: AttemptResult;
	status?: number;
	/** Time from sending to the response headers (or to the failure). */
	latencyMs: number;
	/** First 512 characters of the response body, never a cut UTF-8 sequence; '' when none. */
	responseSnippet: string;
	error?: string;
}

/**
 * Sends one webhook delivery attempt. Never throws: every failure becomes a result the worker can log
 * and schedule. Redirects are not followed (see `classifyResponse`), and the response body is read only
 * as far as the snippet needs, so a receiver streaming gigabytes back costs us a few kilobytes.
 */
export async function sendWebhook({
	url,
	headers,
	body,
	timeoutMs = DEFAULT_TIMEOUT_MS,
	fetch: fetchImpl = globalThis.fetch
}: SendWebhookInput): Promise<SendWebhookResult> {
	let parsed: URL | null = null;
	try {
		parsed = new URL(url);
	} catch {
		// reported below
	}
	if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
		return { outcome: 'final', attemptResult: 'invalid_url', latencyMs: 0, responseSnippet: '', error: 'invalid webhook URL' };
	}
	const controller = new AbortController();
	let timedOut = false;
	// The abort waits for the event loop's I/O phase: when other work on this process blocked the loop
	// past the time-out, the timer and the receiver's answer are both due when it resumes, timers
	// first. Without this the answer that came in time was thrown away, and the event went back for
	// its retry a minute later.
	let late: ReturnType<typeof setImmediate> | undefined;
	const timer = setTimeout(() => {
		late = setImmediate(() => {
			timedOut = true;
			controller.abort();
		});
	}, timeoutMs);
	const clearTimer = () => {
		clearTimeout(timer);
		if (late) clearImmediate(late);
	};
	const started = performance.now();
	const elapsed = () => Math.round(performance.now() - started);
	const requestHeaders = new Headers(headers);
	if (!requestHeaders.has('content-type')) requestHeaders.set('content-type', 'application/json');
	if (!requestHeaders.has('user-agent')) requestHeaders.set('user-agent', 'Veriflow-Webhooks/1');

	let response: Response;
	try {
		response = await fetchImpl(url, {
			method: 'POST',
			headers: requestHeaders,
			body,
			redirect: 'manual',
			signal: controller.signal
		});
	} catch (err) {
		clearTimer();
		const latencyMs = elapsed();
		if (timedOut) {
			return {
				outcome: 'retry',
				attemptResult: 'timeout',
				latencyMs,
				responseSnippet: '',
				error: `timeout after ${timeoutMs} ms`
			};
		}
		return { outcome: 'retry', attemptResult: 'network', latencyMs, responseSnippet: '', error: describeError(err) };
	}
	const latencyMs = elapsed();
	// The status decides the outcome; the snippet is best effort within what is left of the time limit.
	let responseSnippet = '';
	try {
		responseSnippet = await readSnippet(response);
	} catch {
		// Body aborted or broken after the status arrived: keep the status, log no snippet.
	} finally {
		clearTimer();
	}
	return {
		outcome: classifyResponse(response.status),
		attemptResult: response.status,
		status: response.status,
		latencyMs,
		responseSnippet
	};
}

async function readSnippet(response: Response): Promise<string> {
	if (!response.body) return '';
	const reader = response.body.getReader();
	const decoder = new TextDecoder('utf-8', { fatal: false });
	let text = '';
	let bytes = 0;
	try {
		while (bytes < SNIPPET_MAX_BYTES) {
			const { done, value } = await reader.read();
			if (done) {
				text += decoder.decode();
				break;
			}
			const chunk = value.subarray(0, SNIPPET_MAX_BYTES - bytes);
			bytes += chunk.length;
			// stream: true holds back a sequence cut at the chunk's end instead of emitting U+FFFD.
			text += decoder.decode(chunk, { stream: true });
			if (countCodePoints(text) >= SNIPPET_CHARS) break;
		}
	} finally {
		// Stop the download; undici closes the connection instead of draining the rest.
		reader.cancel().catch(() => {});
	}
	return Array.from(text).slice(0, SNIPPET_CHARS).join('');
}

function countCodePoints(s: string): number {
	let n = 0;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0xd800 || c > 0xdbff) n++;
	}
	return n;
}

function describeError(err: unknown): string {
	if (err instanceof Error) {
		const cause = (err as Error & { cause?: unknown }).cause;
		if (cause instanceof Error) {
			const code = (cause as Error & { code?: string }).code;
			return code ? `${code}: ${cause.message}` : cause.message;
		}
		return err.message;
	}
	return String(err);
}

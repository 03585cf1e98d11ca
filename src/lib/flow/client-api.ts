import type { OpenRequest, OpenResponse, PageState, SubmitRequest, SubmitResponse } from '#lib/domain/page/page.schema.ts';
import { backoffDelay, isTransient } from './backoff.ts';
import { jsonInit, OPEN_PATH } from './open-request.ts';

/** An answer of the page API that retrying will not change (4xx), with the API's error body. */
export class PageApiError extends Error {
	constructor(
		readonly status: number,
		readonly type: string,
		readonly code: string | undefined,
		message: string
	) {
		super(message);
		this.name = 'PageApiError';
	}
}

export interface RetryNotice {
	attempt: number;
	/** When the next try happens (client clock). */
	retryAt: number;
	/** Tries again now instead of waiting (the "Reconnect now" button, the browser coming online). */
	retryNow: () => void;
}

export interface ClientHooks {
	/** A request failed for a reason that may pass (connection, server): it will be retried. */
	onRetry?(notice: RetryNotice): void;
	/** A request that had to be retried went through. */
	onRecovered?(): void;
}

export interface SandboxMessage {
	id: string;
	channel: 'email' | 'sms';
	body: string;
	createdAt: number;
}

type Fetch = typeof fetch;

/**
 * The browser's side of `/api/client/*`. Requests that fail because of the connection or the
 * server are retried with back-off until they go through (the page shows "reconnecting" meanwhile);
 * answers that retrying will not change are thrown as PageApiError. A node result keeps its
 * requestId across retries, so the server answers a retried result once.
 */
export class PageClient {
	token: string | null = null;
	/** Server clock minus client clock, from the Date header (for passcode countdowns). */
	clockOffsetMs = 0;

	constructor(
		private readonly hooks: ClientHooks = {},
		private readonly fetchFn: Fetch = (...args) => fetch(...args),
		private readonly base = ''
	) {}

	/**
	 * `sent`: the same request already on its way (the page shell sends it while this code loads);
	 * its answer is read as the first attempt's, and a retry sends the request again.
	 */
	open(body: OpenRequest, signal?: AbortSignal, sent?: Promise<Response>): Promise<OpenResponse> {
		return this.request('POST', OPEN_PATH, body, signal, { sent });
	}

	state(signal?: AbortSignal): Promise<PageState> {
		return this.request('GET', '/api/client/state', undefined, signal);
	}

	/** "I'm still here": keeps an idle session open (see PageRunner.stillHere). */
	keepAlive(signal?: AbortSignal): Promise<PageState> {
		return this.request('POST', '/api/client/state', {}, signal);
	}

	submit(nodeId: string, body: SubmitRequest, signal?: AbortSignal): Promise<SubmitResponse> {
		return this.request('POST', `/api/client/nodes/${encodeURIComponent(nodeId)}`, body, signal);
	}

	handoff(signal?: AbortSignal): Promise<{ url: string; expiresAt: number }> {
		return this.request('POST', '/api/client/handoff', {}, signal);
	}

	async sandboxMessages(signal?: AbortSignal): Promise<SandboxMessage[]> {
		return (await this.request<{ messages: SandboxMessage[] }>('GET', '/api/client/sandbox', undefined, signal, { retry: false })).messages;
	}

	/** The server's idea of now (for countdowns to server timestamps). */
	serverNow(): number {
		return Date.now() + this.clockOffsetMs;
	}

	private async request<T>(method: string, path: string, body: unknown, signal?: AbortSignal, options: { retry?: boolean; sent?: Promise<Response> } = {}): Promise<T> {
		for (let attempt = 0; ; attempt++) {
			let status: number | null = null;
			try {
				const res = await (attempt === 0 && options.sent ? options.sent : this.fetchFn(`${this.base}${path}`, jsonInit(method, body, this.token, signal)));
				status = res.status;
				this.readClock(res.headers.get('date'));
				const json = (await res.json().catch(() => null)) as { error?: { type?: string; code?: string; message?: string } } | null;
				if (res.ok && json) {
					if (attempt > 0) this.hooks.onRecovered?.();
					return json as T;
				}
				if (!isTransient(status) || options.retry === false) {
					throw new PageApiError(status, json?.error?.type ?? 'server_error', json?.error?.code, json?.error?.message ?? `HTTP ${status}`);
				}
			} catch (err) {
				if (err instanceof PageApiError) throw err;
				if (signal?.aborted) throw err;
				if (options.retry === false) throw new PageApiError(0, 'network_error', undefined, (err as Error).message);
				// fetch rejects on a lost connection: fall through to the retry.
			}
			await this.wait(attempt, signal);
		}
	}

	private wait(attempt: number, signal?: AbortSignal): Promise<void> {
		const delay = backoffDelay(attempt);
		return new Promise((resolve, reject) => {
			const done = () => {
				clearTimeout(timer);
				globalThis.removeEventListener?.('online', done);
				signal?.removeEventListener('abort', abort);
				resolve();
			};
			const abort = () => {
				clearTimeout(timer);
				globalThis.removeEventListener?.('online', done);
				reject(signal!.reason);
			};
			const timer = setTimeout(done, delay);
			globalThis.addEventListener?.('online', done);
			signal?.addEventListener('abort', abort, { once: true });
			this.hooks.onRetry?.({ attempt, retryAt: Date.now() + delay, retryNow: done });
		});
	}

	private readClock(header: string | null): void {
		const server = header ? Date.parse(header) : NaN;
		if (Number.isNaN(server)) return;
		// The header has whole seconds: only a clearly wrong client clock is corrected.
		const offset = server - Date.now();
		this.clockOffsetMs = Math.abs(offset) > 2000 ? offset : 0;
	}
}

/** A request id for one user action (kept across its retries). */
export function newRequestId(): string {
	// randomUUID needs a secure context; getRandomValues does not.
	if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
	const bytes = new Uint8Array(16);
	crypto.getRandomValues(bytes);
	return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

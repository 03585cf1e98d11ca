import type { LinkKind, LinkProblem, PageIntro } from '#lib/domain/page/page-intro.ts';
import type { EmbedEvent, NodeView, Notice, PageState } from '#lib/domain/page/page.schema.ts';
import type { SupportedLang } from '#lib/domain/languages.ts';
import { newRequestId, PageApiError, PageClient } from './client-api.ts';
import { postEmbedEvent } from './embed-events.ts';
import type { Gate } from './environment.ts';
import { MediaSession } from './media-session.svelte.ts';
import { pageSettings, PROBLEM_CODES, type RunnerStart, type Screen } from './page-start.ts';

export type { RunnerStart, Screen };
import { openRequest } from './open-request.ts';
import { loadStoredPage, saveStoredPage } from './page-storage.ts';
import type { PermissionResult } from './permission-result.ts';
import type { SessionRecorder } from './session-recorder.ts';
import { readingTimeMs, Voice } from './speech.svelte.ts';
import type { Translator } from './translator.svelte.ts';

/** Something the server told the user about their last action (one shape with the server's). */
export type { Notice };

export type ActResult = { ok: true; notice?: Notice; moved: boolean } | { ok: false; reason: 'stale' | 'ended' | 'refused' };

export interface RunnerOptions {
	code: string;
	start: RunnerStart;
	translator: Translator;
	client?: PageClient;
	media?: MediaSession;
	voice?: Voice;
	recorder?: Recorder;
	/** The frame the page runs in (for postMessage to an embedding page). */
	frame?: { parent: { postMessage(message: unknown, origin: string): void } | null };
}

/** The link problem an API error means, if it is one. */
export function problemOf(err: unknown): LinkProblem | null {
	if (!(err instanceof PageApiError)) return null;
	switch (err.code) {
		case 'client_secret_invalid':
			return 'invalid';
		case 'client_secret_expired':
			return 'expired';
		case 'client_secret_used':
			return 'used';
		case 'session_finished':
			return 'finished';
		case 'invalid_api_key':
		case 'missing_api_key':
			// The page token was revoked or never belonged to this tab.
			return 'used';
		default:
			return err.status === 401 ? 'used' : null;
	}
}

const POLL_MS = 2500;

/** What the runner needs of the session video's recorder. */
export type Recorder = Pick<SessionRecorder, 'begin' | 'end'>;

/**
 * The session recorder, fetched when the camera is granted: no session records on the permissions
 * page and most keep no video, so its code (and the chunk uploader's) is not part of the first load.
 * A session that never recorded has nothing to end, so nothing is fetched for it.
 */
function lazyRecorder(token: () => string): Recorder {
	let recorder: Promise<Recorder> | null = null;
	return {
		begin: async (stream) => {
			recorder ??= import('./session-recorder.ts').then((m) => new m.SessionRecorder(token));
			return (await recorder.catch(() => null))?.begin(stream) ?? false;
		},
		end: async () => {
			await (await recorder?.catch(() => null))?.end();
		}
	};
}

/** How long before an idle session ends the page warns: two minutes, or half a short timeout. */
export function idleWarningMs(timeoutMs: number): number {
	return Math.min(120_000, Math.floor(timeoutMs / 2));
}

/**
 * The hosted page's state: which screen shows, the session as the server last described it, and
 * the user's actions on it. The server holds the position; this class reports node results,
 * applies the state that comes back, speaks the avatar's new phrases, tells an embedding page
 * what happened, and keeps going through lost connections (retries with back-off; what the user
 * typed stays in the node component, which is not unmounted while it waits).
 *
 * The link is opened (single use) when the user continues from the permissions page rather than
 * on load, so a link scanner that runs scripts or a curious preview cannot use it up, and the user
 * can choose the language before anything is spoken.
 */
export class PageRunner {
	readonly code: string;
	readonly via: LinkKind;
	readonly intro: PageIntro | null;
	readonly translator: Translator;
	readonly client: PageClient;
	readonly media: MediaSession;
	readonly voice: Voice;
	readonly recorder: Recorder;

	problem = $state<LinkProblem | null>(null);
	state = $state.raw<PageState | null>(null);
	gate = $state<Gate | null>(null);
	permission = $state.raw<PermissionResult | null>(null);
	handoff = $state.raw<{ url: string; expiresAt: number } | null>(null);
	handoffOpen = $state(false);
	/** Set while a request waits to be retried: the page shows "reconnecting". */
	connection = $state.raw<{ retryAt: number; retryNow: () => void } | null>(null);
	/** Briefly true after a connection came back. */
	reconnected = $state(false);
	opening = $state(false);
	/** An answer the page cannot explain better than "something went wrong". */
	failed = $state(false);
	/** The avatar's words of the current turn, for the captions. */
	captions = $state<string[]>([]);
	/** The user pressed the browser's back button; the flow stays where the server has it. */
	backBlocked = $state(false);
	/** The user picked a language on the permissions page (sent first in the open call). */
	chosenLang = $state<SupportedLang | null>(null);
	/**
	 * Set while the session is about to end for inactivity (`endsAt`, page clock): the page asks
	 * "are you still there?". The node stays mounted underneath, so what the user typed stays.
	 */
	idleWarning = $state.raw<{ endsAt: number } | null>(null);

	readonly settings = $derived.by(() => pageSettings(this.state, this.intro));

	readonly screen: Screen = $derived.by(() => {
		if (this.problem) return 'problem';
		if (this.state?.finished) return 'end';
		if (this.state?.role === 'observer') return 'observer';
		if (this.handoffOpen) return 'handoff';
		if (this.gate) return 'gate';
		if (!this.permission) return this.state || this.intro ? 'permissions' : 'loading';
		if (!this.state?.node) return 'loading';
		return 'node';
	});

	get node(): NodeView | null {
		return this.state?.node ?? null;
	}

	/** The session language once known (speech and recognition use it), else the UI language. */
	get lang(): SupportedLang {
		return this.state?.session.lang ?? this.translator.lang;
	}

	#frame: RunnerOptions['frame'];
	#origins: string[] = [];
	#poll: ReturnType<typeof setInterval> | null = null;
	#polling = false;
	#turn: Promise<void> = Promise.resolve();
	#spoken = new Set<string>();
	#abort = new AbortController();
	#reconnectedTimer: ReturnType<typeof setTimeout> | null = null;
	#idleTimers: ReturnType<typeof setTimeout>[] = [];
	#startKind: RunnerStart['kind'];

	constructor(options: RunnerOptions) {
		this.code = options.code;
		this.translator = options.translator;
		this.#frame = options.frame;
		this.#startKind = options.start.kind;
		this.via = options.start.kind === 'intro' ? options.start.intro.via : options.start.via;
		this.intro = options.start.kind === 'intro' ? options.start.intro : null;
		this.client =
			options.client ??
			new PageClient({
				onRetry: (n) => (this.connection = { retryAt: n.retryAt, retryNow: n.retryNow }),
				onRecovered: () => this.#recovered()
			});
		this.media = options.media ?? new MediaSession();
		this.voice = options.voice ?? new Voice();
		this.recorder = options.recorder ?? lazyRecorder(() => this.client.token ?? '');
		this.#origins = options.start.kind === 'intro' ? options.start.intro.embedOrigins : options.start.embedOrigins;
	}

	/**
	 * Runs once the page is interactive and this code has been fetched (`PageShell.load`): checks the
	 * voice, and resumes a link opened before. An openable link's gate, language and `veriflow:ready`
	 * are the shell's, done before this code was needed.
	 */
	async start(): Promise<void> {
		void this.voice.check(this.lang);
		if (this.#startKind !== 'opened' || this.problem) return;
		// Opened before: only the tab that holds its page token goes on.
		const stored = loadStoredPage(this.code);
		if (!stored) return this.#fail('used');
		this.client.token = stored.pageToken;
		this.permission = stored.permission ?? null;
		try {
			const state = await this.client.state(this.#abort.signal);
			this.#origins = state.embedOrigins;
			// A reload repeats the current question, not the whole conversation.
			for (const p of state.transcript) this.#spoken.add(p.id);
			this.#apply(state);
			if (state.node?.speech && !state.finished) this.#speak([state.node.speech]);
			if (this.permission?.outcome === 'granted' && this.permission.camera && !state.finished && state.role === 'primary') {
				void this.media.resume().then(() => this.#record());
			}
		} catch (err) {
			this.#handleError(err);
		}
	}

	/**
	 * Exchanges the link for a page token (once). False when the link turned out to be dead. `sent`:
	 * the same open call, already sent by the page shell while this code was on its way.
	 */
	async open(sent?: Promise<Response>): Promise<boolean> {
		if (this.state) return true;
		if (!this.intro) return false;
		this.opening = true;
		try {
			const body = openRequest(this.code, this.intro, this.chosenLang, typeof navigator !== 'undefined' ? navigator.languages : []);
			const res = await this.client.open(body, this.#abort.signal, sent);
			this.client.token = res.pageToken;
			this.#origins = res.state.embedOrigins;
			this.#persist();
			await this.translator.use(res.state.session.lang);
			this.#apply(res.state);
			return true;
		} catch (err) {
			this.#handleError(err);
			return false;
		} finally {
			this.opening = false;
		}
	}

	/** The permissions page's answer; a current or later `permissions` node receives it. */
	setPermission(result: PermissionResult): void {
		this.permission = result;
		this.#persist();
		this.#record();
	}

	/** Reports the user's action on the current node. */
	async act(action: string, payload: Record<string, unknown> = {}): Promise<ActResult> {
		const state = this.state;
		const node = state?.node;
		if (!state || !node) return { ok: false, reason: 'stale' };
		const step = state.session.step;
		this.failed = false;
		try {
			const res = await this.client.submit(node.id, { step, requestId: newRequestId(), action, payload }, this.#abort.signal);
			this.#apply(res.state);
			return { ok: true, moved: res.state.session.step !== step || res.state.node?.id !== node.id, ...(res.notice ? { notice: res.notice } : {}) };
		} catch (err) {
			if (err instanceof PageApiError && err.status === 409 && (err.code === 'node_not_current' || err.code === 'session_finished')) {
				// Another tab, the other device or the server moved on: show where things stand.
				await this.refresh();
				return { ok: false, reason: err.code === 'session_finished' ? 'ended' : 'stale' };
			}
			this.#handleError(err);
			return { ok: false, reason: 'refused' };
		}
	}

	/** Re-reads the session (observers poll; a refused result shows where things stand). */
	async refresh(): Promise<void> {
		if (!this.client.token) return;
		try {
			this.#apply(await this.client.state(this.#abort.signal));
		} catch (err) {
			this.#handleError(err);
		}
	}

	/** A one-time link for the phone (opens the session first if needed). */
	async startHandoff(): Promise<void> {
		if (!(await this.open())) return;
		try {
			this.handoff = await this.client.handoff(this.#abort.signal);
			this.handoffOpen = true;
			this.#schedulePolling();
		} catch (err) {
			this.#handleError(err);
		}
	}

	closeHandoff(): void {
		this.handoffOpen = false;
	}

	dismissGate(): void {
		this.gate = null;
	}

	/** Resolves when the avatar has finished speaking the current turn (at once without a voice). */
	async turnDone(): Promise<void> {
		await this.#turn;
	}

	/** How long a reader needs for the current captions when no voice spoke them. */
	readingPauseMs(): number {
		return this.voice.unavailable || this.voice.muted ? readingTimeMs(this.captions.join(' ')) : 0;
	}

	/** The browser's back button was pressed: the flow stays where the server holds it. */
	noteBack(): void {
		this.backBlocked = true;
	}

	/** Speaks the current turn again (the "Repeat" control). */
	repeat(): void {
		this.voice.cancel();
		this.#turn = (async () => {
			for (const text of this.captions) await this.voice.speak(text, this.lang);
		})();
	}

	/** The answer to the idle warning: the server counts it as activity; the page stays as it is. */
	async stillHere(): Promise<void> {
		if (!this.client.token) return;
		try {
			this.#apply(await this.client.keepAlive(this.#abort.signal));
		} catch (err) {
			this.#handleError(err);
		}
	}

	destroy(): void {
		this.#abort.abort();
		this.#stopPolling();
		this.#clearIdle();
		this.voice.cancel();
		this.media.end();
		if (this.#reconnectedTimer) clearTimeout(this.#reconnectedTimer);
	}

	#apply(next: PageState): void {
		const prev = this.state;
		this.state = next;
		if (this.connection) this.#recovered();
		// An intro page announced itself before opening; a resumed one does once it knows the session.
		if (!prev && this.#startKind === 'opened') this.#post('veriflow:ready', {});
		if (prev?.session.lang !== next.session.lang) {
			void this.translator.use(next.session.lang);
			void this.voice.check(next.session.lang);
		}

		const fresh = next.transcript.filter((p) => p.isAvatar && !this.#spoken.has(p.id));
		for (const p of next.transcript) this.#spoken.add(p.id);
		const nodeChanged = next.node && (next.node.id !== prev?.node?.id || next.session.step !== prev?.session.step);
		if (fresh.length && next.role === 'primary') this.#speak(fresh.map((p) => p.text));
		else if (fresh.length) this.captions = fresh.map((p) => p.text);
		// A step without words of its own (an e-mail field) should not show the last question.
		else if (nodeChanged) this.captions = [];

		if (nodeChanged && next.node) {
			this.backBlocked = false;
			this.#post('veriflow:node', { nodeType: next.node.type });
		}
		if (next.finished && !prev?.finished) {
			const verdict = typeof next.finished.isVerified === 'boolean' ? { isVerified: next.finished.isVerified } : {};
			this.#post(next.finished.status === 'complete' ? 'veriflow:complete' : 'veriflow:incomplete', next.finished.status === 'complete' ? verdict : {});
			void this.recorder.end();
			this.media.end();
			this.handoffOpen = false;
		}
		this.#schedulePolling();
		this.#scheduleIdle(next);
	}

	/**
	 * Every state the server sends says how long the session may still stay idle: the warning shows
	 * that long minus idleWarningMs, and when the time is up the page asks where things stand (the
	 * server's sweeper ends the session; the end screen then says so).
	 */
	#scheduleIdle(state: PageState): void {
		this.#clearIdle();
		const idle = state.idle ?? null;
		if (!idle || state.finished || state.role !== 'primary') return;
		const warnIn = Math.max(0, idle.leftMs - idleWarningMs(idle.timeoutMs));
		const endsAt = Date.now() + idle.leftMs;
		this.#idleTimers.push(
			setTimeout(() => (this.idleWarning = { endsAt }), warnIn),
			// A moment after the end, and then every 10 s: the server's sweeper runs every half minute.
			setTimeout(() => void this.refresh(), idle.leftMs > 0 ? idle.leftMs + 1000 : 10_000)
		);
	}

	#clearIdle(): void {
		for (const t of this.#idleTimers.splice(0)) clearTimeout(t);
		this.idleWarning = null;
	}

	/** The session video, when the session keeps one and the camera is on (server decides). */
	#record(): void {
		const stream = this.media.stream;
		if (stream && this.client.token && this.state?.role === 'primary' && !this.state.finished) void this.recorder.begin(stream);
	}

	#speak(texts: string[]): void {
		this.captions = texts;
		const lang = this.lang;
		this.#turn = this.#turn.then(async () => {
			for (const text of texts) await this.voice.speak(text, lang);
		});
	}

	#handleError(err: unknown): void {
		if (this.#abort.signal.aborted) return;
		const problem = problemOf(err);
		if (problem) return this.#fail(problem);
		this.failed = true;
	}

	#fail(problem: LinkProblem): void {
		this.problem = problem;
		this.media.end();
		this.#stopPolling();
		this.#post('veriflow:error', { code: PROBLEM_CODES[problem] });
	}

	#recovered(): void {
		this.connection = null;
		this.reconnected = true;
		if (this.#reconnectedTimer) clearTimeout(this.#reconnectedTimer);
		this.#reconnectedTimer = setTimeout(() => (this.reconnected = false), 4000);
	}

	#persist(): void {
		if (!this.client.token) return;
		saveStoredPage(this.code, { pageToken: this.client.token, ...(this.permission ? { permission: this.permission } : {}) });
	}

	/** Observers follow the other device; a primary that offered a hand-over watches for it. */
	#schedulePolling(): void {
		const s = this.state;
		const wanted = !!s && !s.finished && !this.problem && (s.role === 'observer' || (this.handoff !== null && this.handoff.expiresAt > this.client.serverNow()));
		if (wanted && !this.#poll) {
			this.#poll = setInterval(async () => {
				if (this.#polling) return;
				this.#polling = true;
				try {
					await this.refresh();
				} finally {
					this.#polling = false;
				}
			}, POLL_MS);
		} else if (!wanted) this.#stopPolling();
	}

	#stopPolling(): void {
		if (this.#poll) clearInterval(this.#poll);
		this.#poll = null;
	}

	/**
	 * Tells an embedding page how tall the content is (`veriflow:resize`), so it can size its iframe
	 * instead of cutting the camera oval off. Only changes of a pixel or more are sent.
	 */
	reportHeight(height: number): void {
		const rounded = Math.ceil(height);
		if (!Number.isFinite(rounded) || rounded <= 0 || rounded === this.#lastHeight) return;
		// Before the allowed origins are known nothing is sent: the next change (or the open) sends it.
		if (this.#post('veriflow:resize', { height: rounded }) > 0) this.#lastHeight = rounded;
	}
	#lastHeight = 0;

	#post(type: EmbedEvent, extra: { sessionId?: string; status?: string; nodeType?: string; code?: string; height?: number; isVerified?: boolean }): number {
		if (!this.#frame) return 0;
		const sessionId = extra.sessionId ?? this.state?.session.id ?? (type === 'veriflow:error' ? null : (this.intro?.sessionId ?? null));
		const status = extra.status ?? this.state?.session.status ?? (type === 'veriflow:error' ? null : (this.intro?.status ?? null));
		return postEmbedEvent(this.#frame, this.#origins, {
			type,
			sessionId,
			status,
			...(extra.nodeType ? { nodeType: extra.nodeType } : {}),
			...(extra.code ? { code: extra.code } : {}),
			...(extra.height !== undefined ? { height: extra.height } : {}),
			...(extra.isVerified !== undefined ? { isVerified: extra.isVerified } : {})
		});
	}

	/** Whether this page started from an already opened link (a reload). */
	get resumed(): boolean {
		return this.#startKind === 'opened';
	}
}

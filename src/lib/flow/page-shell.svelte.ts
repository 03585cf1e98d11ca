import type { LinkProblem, PageIntro } from '#lib/domain/page/page-intro.ts';
import type { EmbedEvent } from '#lib/domain/page/page.schema.ts';
import type { SupportedLang } from '#lib/domain/languages.ts';
import { resolveLanguage } from '#lib/i18n/resolve-language.ts';
import { postEmbedEvent } from './embed-events.ts';
import { jsonInit, OPEN_PATH, openRequest } from './open-request.ts';
import { detectGate, type Gate } from './environment.ts';
import { browserOnly } from './lazy-component.svelte.ts';
import type { PageRunner } from './page-runner.svelte.ts';
import { pageSettings, PROBLEM_CODES, type PageEnv, type PageStart, type Screen } from './page-start.ts';
import type { Translator } from './translator.svelte.ts';

type RunnerModule = Pick<typeof import('./page-runner.svelte.ts'), 'PageRunner'>;

export interface ShellOptions {
	code: string;
	start: PageStart;
	translator: Translator;
	/** The frame the page runs in (for postMessage to an embedding page). */
	frame?: { parent: { postMessage(message: unknown, origin: string): void } | null };
	/** Fetches the session's code (tests hand in the module). */
	loadRunner?: () => Promise<RunnerModule>;
	/** Called when the session's code is first asked for: what comes with it can be fetched alongside. */
	onLoad?: () => void;
	/**
	 * Called once Continue's open call is on its way (the first node's screen can be fetched now:
	 * no sooner, so that on a phone's few connections the call is not queued behind it).
	 */
	onOpen?: () => void;
	/** Sends the open call made before the runner exists (tests hand in a scripted server). */
	fetch?: typeof fetch;
}

const importRunner = (): Promise<RunnerModule> => (import.meta.env.SSR ? browserOnly() : import('./page-runner.svelte.ts'));

/**
 * The page before the session's code is needed: the permissions page of an openable link (or the
 * gate in front of it), a dead link's explanation, and what an embedding page hears about them.
 * The `PageRunner` (opening the link, the nodes, media, the voice, reconnecting) is fetched when the
 * user continues, to resume an opened link, or in the background while the user reads: the first
 * load of a phone then carries only what the first screen does (npm run bench -- page). Once the
 * runner exists, it holds the page's state and this class reads through to it.
 */
export class PageShell {
	readonly code: string;
	readonly start: PageStart;
	readonly intro: PageIntro | null;
	readonly translator: Translator;
	/** The session's code once fetched; from then on it owns the page's state. */
	runner = $state.raw<PageRunner | null>(null);
	/** The user picked a language on the permissions page (sent first in the open call). */
	chosenLang = $state<SupportedLang | null>(null);
	/** The session's code could not be fetched (a dropped connection): Continue says so and can be tried again. */
	loadFailed = $state(false);

	#problem = $state<LinkProblem | null>(null);
	#gate = $state<Gate | null>(null);
	#frame: ShellOptions['frame'];
	#loadRunner: () => Promise<RunnerModule>;
	#onLoad: (() => void) | undefined;
	#onOpen: (() => void) | undefined;
	#fetch: typeof fetch;
	#loading: Promise<PageRunner | null> | null = null;
	#lastHeight = 0;
	#destroyed = false;

	readonly settings = $derived.by(() => this.runner?.settings ?? pageSettings(null, this.intro));

	readonly screen: Screen = $derived.by(() => {
		if (this.runner) return this.runner.screen;
		if (this.#problem) return 'problem';
		if (this.#gate) return 'gate';
		return this.intro ? 'permissions' : 'loading';
	});

	constructor(options: ShellOptions) {
		this.code = options.code;
		this.start = options.start;
		this.translator = options.translator;
		this.#frame = options.frame;
		this.#loadRunner = options.loadRunner ?? importRunner;
		this.#onLoad = options.onLoad;
		this.#onOpen = options.onOpen;
		this.#fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
		this.intro = options.start.kind === 'intro' ? options.start.intro : null;
		if (options.start.kind === 'problem') this.#problem = options.start.problem;
		// SSR already knows an in-app browser: its first paint is the "open in your browser" page.
		const { start } = options;
		if (start.kind === 'intro' && start.inApp && (start.intro.requirements.camera || start.intro.requirements.microphone)) this.#gate = 'inApp';
	}

	get problem(): LinkProblem | null {
		return this.runner ? this.runner.problem : this.#problem;
	}

	get gate(): Gate | null {
		return this.runner ? this.runner.gate : this.#gate;
	}

	/** An answer the page cannot explain better than "something went wrong" (or the code did not come). */
	get failed(): boolean {
		return this.loadFailed || !!this.runner?.failed;
	}

	/** Runs once the page is interactive: gates and language of an openable link, or resuming an opened one. */
	async begin(env: PageEnv): Promise<void> {
		const start = this.start;
		if (start.kind === 'problem') {
			this.#post('veriflow:error', start.embedOrigins, { sessionId: null, status: null, code: PROBLEM_CODES[start.problem] });
			return;
		}
		if (start.kind === 'opened') {
			await this.load();
			return;
		}
		const intro = start.intro;
		this.#gate = detectGate({ inApp: !!start.inApp, secureContext: env.secureContext, hasGetUserMedia: env.hasGetUserMedia }, intro.requirements);
		if (!intro.fixedLang) {
			const lang = resolveLanguage({ browserLanguages: env.languages, sessionLangs: intro.langs, defaultLang: intro.defaultLang, override: intro.override });
			await this.translator.use(lang);
		}
		this.#post('veriflow:ready', intro.embedOrigins, { sessionId: intro.sessionId, status: intro.status });
	}

	/**
	 * The session's runner, fetched and started once (shown from the moment it exists). Null when its
	 * code could not be fetched (the next call tries again) or the page is a dead link's.
	 */
	async load(): Promise<PageRunner | null> {
		const runner = await this.#required();
		if (!runner) return null;
		if (this.runner !== runner) this.#publish(runner);
		// Resolves once a resumed link knows where it stands (an openable one at once).
		await this.#started;
		return runner;
	}

	/**
	 * Continue: the runner (fetched if need be) opens the link. The open call is sent before the
	 * page re-renders around the runner, so a slow phone does not make the user wait for that too.
	 * Null when the code could not be fetched or the link turned out to be dead (the page says which).
	 */
	async open(): Promise<PageRunner | null> {
		// The code is still on its way (Continue the moment the page was live, on a slow phone): the
		// call goes now, alongside it, and the runner reads the answer (npm run bench -- page).
		const sent = this.runner ? undefined : this.#sendOpen();
		if (sent) this.#onOpen?.();
		const runner = await this.#required();
		if (!runner) return null;
		const opened = runner.open(sent);
		if (!sent) this.#onOpen?.();
		if (this.runner !== runner) this.#publish(runner);
		return (await opened) ? runner : null;
	}

	#started: Promise<void> = Promise.resolve();

	/**
	 * The open call, as the runner would send it. Its answer is read by the runner once made; if the
	 * code never comes, the next Continue sends it again, and the tab's nonce makes it the same call.
	 */
	#sendOpen(): Promise<Response> | undefined {
		if (!this.intro || this.#destroyed) return undefined;
		const body = openRequest(this.code, this.intro, this.chosenLang, typeof navigator !== 'undefined' ? navigator.languages : []);
		const sent = this.#fetch(OPEN_PATH, jsonInit('POST', body, null));
		// Nobody may read it (the code did not come): that is not an unhandled rejection.
		sent.catch(() => undefined);
		return sent;
	}

	#publish(runner: PageRunner): void {
		this.loadFailed = false;
		this.runner = runner;
		this.#started = runner.start();
	}

	/** The runner the user is waiting for: a failed fetch is said (`failed`), and the next try fetches again. */
	async #required(): Promise<PageRunner | null> {
		const runner = await this.#create();
		if (!runner && this.start.kind !== 'problem' && !this.#destroyed) this.loadFailed = true;
		return runner;
	}

	/** The runner, fetched and made once (not yet shown). */
	#create(): Promise<PageRunner | null> {
		if (this.runner) return Promise.resolve(this.runner);
		const start = this.start;
		if (start.kind === 'problem' || this.#destroyed) return Promise.resolve(null);
		if (!this.#loading) this.#onLoad?.();
		this.#loading ??= this.#loadRunner().then(
			({ PageRunner }) => {
				if (this.#destroyed) return null;
				const runner = new PageRunner({ code: this.code, start, translator: this.translator, frame: this.#frame });
				runner.chosenLang = this.chosenLang;
				runner.gate = this.#gate;
				return runner;
			},
			() => {
				this.#loading = null;
				return null;
			}
		);
		return this.#loading;
	}

	/**
	 * Fetches and starts the runner while the user reads the permissions page (it asks nothing of
	 * the server until Continue), so that Continue only has to send the open call.
	 */
	prefetch(): void {
		// A failed fetch here is not the user's problem yet: Continue tries again and says so then.
		void this.#create().then((runner) => {
			if (runner && this.runner !== runner) this.#publish(runner);
		});
	}

	chooseLanguage(lang: SupportedLang): Promise<void> {
		this.chosenLang = lang;
		if (this.runner) this.runner.chosenLang = lang;
		return this.translator.use(lang);
	}

	dismissGate(): void {
		this.#gate = null;
		this.runner?.dismissGate();
	}

	/**
	 * Tells an embedding page how tall the content is (`veriflow:resize`), so it can size its iframe
	 * instead of cutting the camera oval off. Only changes of a pixel or more are sent.
	 */
	reportHeight(height: number): void {
		if (this.runner) return this.runner.reportHeight(height);
		const rounded = Math.ceil(height);
		if (!Number.isFinite(rounded) || rounded <= 0 || rounded === this.#lastHeight) return;
		const origins = this.start.kind === 'intro' ? this.start.intro.embedOrigins : this.start.embedOrigins;
		const ids = this.intro ? { sessionId: this.intro.sessionId, status: this.intro.status } : { sessionId: null, status: null };
		if (this.#post('veriflow:resize', origins, { ...ids, height: rounded }) > 0) this.#lastHeight = rounded;
	}

	destroy(): void {
		this.#destroyed = true;
		this.runner?.destroy();
	}

	#post(type: EmbedEvent, origins: readonly string[], extra: { sessionId: string | null; status: string | null; code?: string; height?: number }): number {
		if (!this.#frame) return 0;
		return postEmbedEvent(this.#frame, origins, { type, ...extra });
	}
}

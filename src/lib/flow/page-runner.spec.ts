import { describe, expect, it } from 'vitest';
import type { PageIntro } from '#lib/domain/page/page-intro.ts';
import type { PageState } from '#lib/domain/page/page.schema.ts';
import { BUNDLED_LOCALES } from '#lib/i18n/bundled-locales.ts';
import { PageClient } from './client-api.ts';
import { MediaSession } from './media-session.svelte.ts';
import { saveStoredPage } from './page-storage.ts';
import { PageRunner, type RunnerOptions } from './page-runner.svelte.ts';
import { PageShell } from './page-shell.svelte.ts';
import type { PageEnv, PageStart } from './page-start.ts';
import { Translator } from './translator.svelte.ts';

const env = (languages: string[] = ['en']) => ({ languages, secureContext: true, hasGetUserMedia: true });

const intro: PageIntro = {
	via: 'cs',
	sessionId: 'ses_1',
	status: 'created',
	embedOrigins: ['https://shop.example'],
	langs: [],
	sandbox: true,
	avatar: null,
	customization: {},
	requirements: { camera: false, microphone: false, recognition: false, biometric: false },
	firstScreens: ['enter_email']
};

function pageState(over: Partial<PageState> = {}, session: Partial<PageState['session']> = {}): PageState {
	return {
		session: { id: 'ses_1', status: 'inProgress', lang: 'fr', langs: [], step: 1, ...session },
		role: 'primary',
		sandbox: true,
		demo: false,
		progress: null,
		idle: null,
		avatar: null,
		customization: {},
		node: { id: 'email', type: 'enter_email', props: {} },
		transcript: [],
		requirements: { camera: false, microphone: false, recognition: false, biometric: false },
		embedOrigins: ['https://shop.example'],
		...over
	};
}

type Handler = (body: any, headers: Record<string, string>) => { status: number; json: unknown };

/** A page (its shell, then the runner it fetches) wired to a scripted server and a recording parent frame. */
function setup(start: PageStart, routes: Record<string, Handler | Handler[]>, code = 'cs_' + 'a'.repeat(24)) {
	const requests: { route: string; body: any; headers: Record<string, string> }[] = [];
	const fetchFn = (async (url: string, init: RequestInit) => {
		const route = `${init.method} ${url}`;
		const body = init.body ? JSON.parse(String(init.body)) : undefined;
		const headers = init.headers as Record<string, string>;
		requests.push({ route, body, headers });
		const entry = routes[route];
		const handler = Array.isArray(entry) ? entry.shift() : entry;
		if (!handler) throw new Error(`unexpected ${route}`);
		const { status, json } = handler(body, headers);
		return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
	}) as typeof fetch;
	const posted: { message: any; origin: string }[] = [];
	const frame = { parent: { postMessage: (message: unknown, origin: string) => void posted.push({ message, origin }) } };
	const translator = new Translator('en', BUNDLED_LOCALES.en);
	let fetched = 0;
	let failNext = 0;
	const loadRunner = async () => {
		fetched++;
		if (failNext-- > 0) throw new TypeError('Failed to fetch dynamically imported module');
		return { PageRunner: class extends PageRunner {
			constructor(options: RunnerOptions) {
				super({ ...options, client: new PageClient({}, fetchFn), media: new MediaSession(null) });
			}
		} };
	};
	const shell = new PageShell({ code, start, translator, frame, loadRunner, fetch: fetchFn });
	/** The page once interactive, then its runner (what Continue or a resumed link does). */
	const begin = async (e: PageEnv) => {
		await shell.begin(e);
		return (await shell.load())!;
	};
	return { shell, begin, requests, posted, translator, fetches: () => fetched, failLoads: (n: number) => (failNext = n) };
}

describe('PageShell and PageRunner', () => {
	it('greets the embedding page, follows the browser language and opens on the user’s word', async () => {
		const { shell, requests, posted, translator, fetches } = setup(
			{ kind: 'intro', intro },
			{
				'POST /api/client/open': () => ({
					status: 200,
					json: {
						pageToken: 'pt_' + 'b'.repeat(32),
						state: pageState({ transcript: [{ id: 'phr_1', createdAt: 1, text: 'Bonjour !', isAvatar: true }] })
					}
				})
			}
		);
		await shell.begin(env(['fr-CA', 'en']));
		expect(translator.lang).toBe('fr');
		expect(shell.screen).toBe('permissions');
		expect(posted).toEqual([{ message: { type: 'veriflow:ready', sessionId: 'ses_1', status: 'created' }, origin: 'https://shop.example' }]);
		expect(requests).toEqual([]);
		// The permissions page needs none of the session's code: it comes on Continue.
		expect(fetches()).toBe(0);
		await shell.chooseLanguage('de');
		expect(translator.lang).toBe('de');

		// Continue: the code comes, and the open call goes out with the user's language first.
		const runner = (await shell.open())!;
		expect(shell.runner).toBe(runner);
		expect(fetches()).toBe(1);
		expect(requests).toHaveLength(1);
		expect(requests[0]!.body).toMatchObject({ clientSecret: 'cs_' + 'a'.repeat(24), languages: ['de', ...globalThis.navigator.languages] });
		expect(runner.captions).toEqual(['Bonjour !']);
		expect(posted.at(-1)!.message).toEqual({ type: 'veriflow:node', sessionId: 'ses_1', status: 'inProgress', nodeType: 'enter_email' });
		// Still on the permissions page until the user answered it.
		expect(runner.screen).toBe('permissions');
		runner.setPermission({ outcome: 'granted', camera: false, microphone: false, consent: { biometric: false, enrolment: false } });
		expect(runner.screen).toBe('node');
		expect(shell.screen).toBe('node');
		expect(translator.lang).toBe('fr');
	});

	it('says so when the session’s code could not be fetched, and fetches it on the next try', async () => {
		const { shell, failLoads, fetches } = setup({ kind: 'intro', intro }, {});
		await shell.begin(env());
		// The background fetch while the user reads failing is not the user's problem yet.
		failLoads(2);
		shell.prefetch();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(shell.failed).toBe(false);
		expect(shell.runner).toBeNull();
		expect(await shell.load()).toBeNull();
		expect(shell.failed).toBe(true);
		expect(shell.screen).toBe('permissions');
		const runner = await shell.load();
		expect(runner).toBeInstanceOf(PageRunner);
		expect(shell.failed).toBe(false);
		expect(fetches()).toBe(3);
		// Fetched once: later calls (and the background fetch) hand back the same runner.
		shell.prefetch();
		expect(await shell.load()).toBe(runner);
		expect(fetches()).toBe(3);
	});

	it('sends the open call while the code is on its way, once; a lost answer or a failed fetch is sent again as the same call', async () => {
		const opened = () => ({ status: 200, json: { pageToken: 'pt_' + 'b'.repeat(32), state: pageState() } });
		const { shell, requests, fetches, failLoads } = setup({ kind: 'intro', intro }, { 'POST /api/client/open': [opened, () => ({ status: 503, json: null }), opened] });
		await shell.begin(env());
		// The code fails to come: the call went out first (the server answered it), the page says the code did not come.
		failLoads(1);
		expect(await shell.open()).toBeNull();
		expect(shell.failed).toBe(true);
		expect(requests.map((r) => r.route)).toEqual(['POST /api/client/open']);
		expect(fetches()).toBe(1);
		// Continue again: the call goes again with the same nonce (the server knows the tab). Its answer
		// is lost this time (503): the runner, made meanwhile, retries once and reads the third.
		const runner = (await shell.open())!;
		expect(runner.state?.node?.id).toBe('email');
		expect(fetches()).toBe(2);
		expect(requests).toHaveLength(3);
		expect(new Set(requests.map((r) => r.body.nonce)).size).toBe(1);
		expect(requests.every((r) => r.body.clientSecret === shell.code && r.headers['content-type'] === 'application/json')).toBe(true);
		// Opened: a later Continue sends nothing.
		expect(await shell.open()).toBe(runner);
		expect(requests).toHaveLength(3);
	});

	it('explains a dead link and tells the embedding page, without fetching the session’s code', async () => {
		const { shell, posted, fetches } = setup({ kind: 'problem', problem: 'expired', embedOrigins: ['https://shop.example'] }, {});
		await shell.begin(env());
		expect(shell.screen).toBe('problem');
		expect(shell.problem).toBe('expired');
		expect(posted).toEqual([{ message: { type: 'veriflow:error', sessionId: null, status: null, code: 'client_secret_expired' }, origin: 'https://shop.example' }]);
		expect(await shell.load()).toBeNull();
		shell.prefetch();
		expect(fetches()).toBe(0);
	});

	it('reports the content’s height to an embedding page before and after the runner came', async () => {
		const { shell, posted } = setup({ kind: 'intro', intro }, {});
		shell.reportHeight(640.2);
		shell.reportHeight(641);
		expect(posted.map((p) => p.message)).toEqual([{ type: 'veriflow:resize', sessionId: 'ses_1', status: 'created', height: 641 }]);
		await shell.load();
		shell.reportHeight(700);
		expect(posted.at(-1)!.message).toEqual({ type: 'veriflow:resize', sessionId: 'ses_1', status: 'created', height: 700 });
	});

	it('puts an in-app browser’s gate first and lets the user past it', async () => {
		const { shell } = setup({ kind: 'intro', intro: { ...intro, requirements: { camera: true, microphone: false, recognition: false, biometric: true } }, inApp: 'instagram' }, {});
		expect(shell.screen).toBe('gate');
		expect(shell.gate).toBe('inApp');
		shell.dismissGate();
		expect(shell.screen).toBe('permissions');
	});

	it('reports a result with its step and a request id, and shows where things stand when it was stale', async () => {
		const token = 'pt_' + 'c'.repeat(32);
		saveStoredPage('cs_resume', { pageToken: token, permission: { outcome: 'granted', camera: false, microphone: false, consent: { biometric: false, enrolment: false } } });
		const moved = pageState({ node: { id: 'code', type: 'two_factor_email', props: { showUI: true, otpLength: 6, channels: ['email'], channel: null, destination: null, expiresAt: null, resendAvailableAt: null, attemptsLeft: 3, sendsLeft: 5, testMode: false } } }, { step: 2 });
		const { begin, requests } = setup({ kind: 'opened', via: 'cs', embedOrigins: ['https://shop.example'] }, {
			'GET /api/client/state': [() => ({ status: 200, json: pageState() }), () => ({ status: 200, json: moved })],
			'POST /api/client/nodes/email': [
				() => ({ status: 200, json: { state: pageState(), notice: { code: 'email.invalid' } } }),
				() => ({ status: 409, json: { error: { type: 'validation_error', message: 'stale', code: 'node_not_current' } } })
			]
		}, 'cs_resume');
		const runner = await begin(env());
		expect(runner.screen).toBe('node');
		expect(requests[0]!.headers.authorization).toBe(`Bearer ${token}`);

		expect(await runner.act('submit', { email: 'x' })).toEqual({ ok: true, moved: false, notice: { code: 'email.invalid' } });
		const submitted = requests[1]!.body;
		expect(submitted).toMatchObject({ step: 1, action: 'submit', payload: { email: 'x' } });
		expect(submitted.requestId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);

		expect(await runner.act('submit', { email: 'y@example.com' })).toEqual({ ok: false, reason: 'stale' });
		expect(runner.node?.id).toBe('code');
		expect(requests[2]!.body.requestId).not.toBe(submitted.requestId);
	});

	it('shows a link found dead on Continue as such, from the shell as from the runner', async () => {
		const { shell, posted } = setup({ kind: 'intro', intro }, {
			'POST /api/client/open': () => ({ status: 410, json: { error: { type: 'validation_error', message: 'expired', code: 'client_secret_expired' } } })
		});
		await shell.begin(env());
		expect(await shell.open()).toBeNull();
		expect(shell.problem).toBe('expired');
		expect(shell.screen).toBe('problem');
		expect(posted.at(-1)!.message).toEqual({ type: 'veriflow:error', sessionId: null, status: null, code: 'client_secret_expired' });
	});

	it('turns a dead link into its explanation and tells the embedding page why', async () => {
		const { begin, posted } = setup({ kind: 'intro', intro }, {
			'POST /api/client/open': () => ({ status: 409, json: { error: { type: 'validation_error', message: 'used', code: 'client_secret_used' } } })
		});
		const runner = await begin(env());
		expect(await runner.open()).toBe(false);
		expect(runner.problem).toBe('used');
		expect(runner.screen).toBe('problem');
		expect(posted.at(-1)!.message).toEqual({ type: 'veriflow:error', sessionId: null, status: null, code: 'client_secret_used' });
	});

	it('refuses to resume in a tab that never opened the link', async () => {
		const { begin, requests, posted } = setup({ kind: 'opened', via: 'cs', embedOrigins: ['https://shop.example'] }, {}, 'cs_other_tab');
		const runner = await begin(env());
		expect(runner.problem).toBe('used');
		expect(requests).toEqual([]);
		expect(posted).toEqual([{ message: { type: 'veriflow:error', sessionId: null, status: null, code: 'client_secret_used' }, origin: 'https://shop.example' }]);
	});

	it('announces the end once and shows the observer screen after a hand-over', async () => {
		saveStoredPage('cs_end', { pageToken: 'pt_' + 'd'.repeat(32), permission: { outcome: 'granted', camera: false, microphone: false, consent: { biometric: false, enrolment: false } } });
		const { begin, posted } = setup({ kind: 'opened', via: 'cs', embedOrigins: ['https://shop.example'] }, {
			'GET /api/client/state': [
				() => ({ status: 200, json: pageState({ role: 'observer' }) }),
				() => ({ status: 200, json: pageState({ role: 'observer', node: null, finished: { status: 'complete' } }, { status: 'complete' }) }),
				() => ({ status: 200, json: pageState({ role: 'observer', node: null, finished: { status: 'complete' } }, { status: 'complete' }) })
			]
		}, 'cs_end');
		const runner = await begin(env());
		expect(runner.screen).toBe('observer');
		await runner.refresh();
		await runner.refresh();
		expect(runner.screen).toBe('end');
		expect(posted.filter((p) => p.message.type === 'veriflow:complete')).toHaveLength(1);
		runner.destroy();
	});

	it('tells the embedding page when a session ended incomplete', async () => {
		saveStoredPage('cs_gone', { pageToken: 'pt_' + 'e'.repeat(32) });
		const { begin, posted } = setup({ kind: 'opened', via: 'cs', embedOrigins: ['https://shop.example'] }, {
			'GET /api/client/state': () => ({ status: 200, json: pageState({ node: null, finished: { status: 'incomplete' } }, { status: 'incomplete' }) })
		}, 'cs_gone');
		const runner = await begin(env());
		expect(runner.screen).toBe('end');
		expect(posted.map((p) => p.message)).toEqual([
			{ type: 'veriflow:ready', sessionId: 'ses_1', status: 'incomplete' },
			{ type: 'veriflow:incomplete', sessionId: 'ses_1', status: 'incomplete' }
		]);
	});
});

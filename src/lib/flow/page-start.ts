import type { LinkKind, LinkProblem, PageIntro } from '#lib/domain/page/page-intro.ts';
import type { PageState } from '#lib/domain/page/page.schema.ts';

/**
 * What the page's first load and the session's code (fetched later) share: how a page starts, which
 * screen shows, and the settings both read. Kept apart so the first load carries none of the runner.
 */

/** What the page shows, in order of precedence (see `PageRunner.screen`). */
export type Screen = 'problem' | 'end' | 'observer' | 'handoff' | 'gate' | 'permissions' | 'loading' | 'node';

/** The server-rendered start of a page the session's code runs: an openable link, or one opened before. */
export type RunnerStart = { kind: 'intro'; intro: PageIntro; inApp?: string } | { kind: 'opened'; via: LinkKind; embedOrigins: string[] };

/** The server-rendered start of any page: also a dead link, which never fetches the session's code. */
export type PageStart = RunnerStart | { kind: 'problem'; problem: LinkProblem; embedOrigins: string[] };

/** The browser facts the page starts from (read once it is interactive). */
export interface PageEnv {
	languages: readonly string[];
	secureContext: boolean;
	hasGetUserMedia: boolean;
}

/** The error code an embedding page hears for each link problem. */
export const PROBLEM_CODES: Record<LinkProblem, string> = {
	invalid: 'client_secret_invalid',
	expired: 'client_secret_expired',
	used: 'client_secret_used',
	finished: 'session_finished'
};

export interface PageSettings {
	customization: PageState['customization'];
	requirements: PageState['requirements'];
	avatar: PageState['avatar'];
	sandbox: boolean;
	showUxControls: boolean;
}

/** The page's settings: the session's once opened, the link's intro before. */
export function pageSettings(state: PageState | null, intro: PageIntro | null): PageSettings {
	const s = state ?? intro;
	return {
		customization: s?.customization ?? {},
		requirements: s?.requirements ?? { camera: false, microphone: false, recognition: false, biometric: false },
		avatar: s?.avatar ?? null,
		sandbox: state?.sandbox ?? intro?.sandbox ?? false,
		showUxControls: s?.customization?.controls?.showUxControls !== false
	};
}

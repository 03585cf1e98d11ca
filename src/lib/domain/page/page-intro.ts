import type { SupportedLang } from '../langs.ts';
import type { NodeType } from '../flow/node-types.ts';
import type { PageState } from './page.schema.ts';

/** Why a hosted-page link cannot be opened (each has its own translated page, and nothing else). */
export const LINK_PROBLEMS = ['invalid', 'expired', 'used', 'finished'] as const;
export type LinkProblem = (typeof LINK_PROBLEMS)[number];

/** Which kind of code a hosted-page URL carries. */
export type LinkKind = 'cs' | 'handoff';

/**
 * What the server-rendered permissions page needs before the link is opened: read from the
 * session's settings without consuming the client secret, so the first paint is complete and
 * interactive with no API call. Only for a link that can still be opened.
 */
export interface PageIntro {
	via: LinkKind;
	/** For the embedding page's `veriflow:ready` (ids and statuses are not personal data). */
	sessionId: string;
	status: 'created' | 'inProgress';
	/** Origins that may embed the page (already public in its frame-ancestors header). */
	embedOrigins: string[];
	/** Languages the session allows, and its default (the browser resolves against these). */
	langs: SupportedLang[];
	defaultLang?: SupportedLang;
	/** A hand-over continues in the language the session already speaks. */
	fixedLang?: SupportedLang;
	/** `?lang=` of a sandbox session (the demo), passed on to open. */
	override?: string;
	sandbox: boolean;
	avatar: PageState['avatar'];
	customization: PageState['customization'];
	requirements: PageState['requirements'];
	/** The node types the session most likely shows first (flow-progress.ts firstScreens): fetched first. */
	firstScreens: NodeType[];
}

/**
 * What `/verify` shows before the link is opened (PageService.preview): the permissions page of an
 * openable link, or why the link cannot go on, with the language to say it in.
 */
export type PagePreview = { lang: SupportedLang } & (
	| { kind: 'intro'; intro: PageIntro }
	/** Opened already: the tab that opened it resumes with its page token, any other gets `used`. */
	| { kind: 'opened'; via: LinkKind; embedOrigins: string[] }
	| { kind: 'problem'; problem: LinkProblem; embedOrigins: string[] }
);

/** A file the page's `<head>` asks the browser to fetch early (`<link rel="preload">`). */
export interface PreloadLink {
	href: string;
	as: 'fetch';
}

/**
 * Page data of `/verify`. `catalogue` is the UI text of `lang`, for SSR and hydration; `userAgent`
 * is the request's, so the first paint already fits the device (phone or desktop, which browser's
 * instructions).
 */
export type VerifyPageData<Catalogue> = { catalogue: Catalogue; userAgent: string } & (
	| (Extract<PagePreview, { kind: 'intro' }> & { inApp?: string })
	| Exclude<PagePreview, { kind: 'intro' }>
);

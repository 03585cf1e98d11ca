import type { ApiPrincipal } from '#lib/server/repositories/account.repository.ts';
import type { RateLimitDecision } from '#lib/server/http/rate-limit.ts';

declare global {
	namespace App {
		interface Locals {
			requestId: string;
			/** Set by `handle` for authenticated /api requests. */
			principal?: ApiPrincipal;
			rateLimit?: RateLimitDecision;
			/** Interface language of a hosted page response (the html lang attribute). */
			lang?: string;
			/** Who may frame this `/verify` response, from its load's look at the link (page-headers.ts). */
			frameAncestors?: string[];
			/** Files a later step needs, preloaded from the page's `<head>` (page-shell-html.ts). */
			preload?: readonly import('#lib/domain/page/page-intro.ts').PreloadLink[];
		}
		/** Shallow history entries of the hosted page: the session step each entry was pushed for. */
		interface PageState {
			vfStep?: number;
		}
		interface Error {
			message: string;
			requestId?: string;
		}
	}
}

export {};

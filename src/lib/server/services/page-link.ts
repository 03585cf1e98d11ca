import type { LinkKind, LinkProblem } from '#lib/domain/page/page-intro.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import { sha256Hex } from '../crypto.ts';
import type { Repos } from '../repositories/index.ts';
import type { Handoff } from '../repositories/page-access.repository.ts';
import type { ClientSecretRecord } from '../repositories/session.repository.ts';

const CLIENT_SECRET = /^cs_[A-Za-z0-9]{20,64}$/;
const HANDOFF = /^ho_[A-Za-z0-9]{20,64}$/;

/**
 * The stored client secret a `cs_…` names, or null; a malformed one names none. The one place a
 * client secret is looked up (the page's preview and `PageService.open` both come here).
 */
export async function findClientSecret(repos: Repos, clientSecret: string): Promise<ClientSecretRecord | null> {
	return CLIENT_SECRET.test(clientSecret) ? repos.sessions.findSecretByHash(sha256Hex(clientSecret)) : null;
}

/** The stored hand-over a `ho_…` code names, or null, the way findClientSecret does for secrets. */
export async function findHandoffCode(repos: Repos, code: string): Promise<Handoff | null> {
	return HANDOFF.test(code) ? repos.pageAccess.findHandoff(sha256Hex(code)) : null;
}

/** What a hosted-page URL leads to, decided without consuming its code. */
export type LinkCheck =
	| { kind: 'problem'; problem: LinkProblem; session?: Session }
	/** Opened already: only the tab holding the page token may go on. */
	| { kind: 'opened'; via: LinkKind; session: Session }
	| { kind: 'openable'; via: LinkKind; session: Session };

const ended = (s: Session) => s.status === 'complete' || s.status === 'incomplete';

/**
 * Looks at `/verify?cs=…` or `?handoff=…` the way `PageService.open` will judge it, so the page can
 * explain a dead link at once (and render no session data for it). A secret that expired unopened
 * reads as expired even after the sweeper ended its session: that is what the user can act on.
 */
export async function inspectLink(repos: Repos, now: number, params: { cs?: string | null; handoff?: string | null }): Promise<LinkCheck> {
	if (params.cs) {
		const secret = await findClientSecret(repos, params.cs);
		const session = secret ? await repos.sessions.findById(secret.sessionId) : null;
		if (!secret || !session) return { kind: 'problem', problem: 'invalid' };
		const expired = now >= secret.expireAt;
		if (ended(session)) {
			return { kind: 'problem', problem: session.data.endReason === 'expired' || (expired && secret.openedAt === null) ? 'expired' : 'finished', session };
		}
		if (expired) return { kind: 'problem', problem: 'expired', session };
		if (secret.openedAt !== null) return { kind: 'opened', via: 'cs', session };
		return { kind: 'openable', via: 'cs', session };
	}
	if (params.handoff) {
		const handoff = await findHandoffCode(repos, params.handoff);
		const session = handoff ? await repos.sessions.findById(handoff.sessionId) : null;
		if (!handoff || !session) return { kind: 'problem', problem: 'invalid' };
		if (ended(session)) return { kind: 'problem', problem: 'finished', session };
		if (handoff.usedAt !== null) return { kind: 'opened', via: 'handoff', session };
		if (now >= handoff.expiresAt) return { kind: 'problem', problem: 'expired', session };
		return { kind: 'openable', via: 'handoff', session };
	}
	return { kind: 'problem', problem: 'invalid' };
}

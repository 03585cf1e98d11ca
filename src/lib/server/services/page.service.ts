import { isVerified } from '#lib/domain/session/report-rules.ts';
import { ApiError } from '#lib/domain/errors.ts';
import { isSupportedLang, SUPPORTED_LANGS, type SupportedLang } from '#lib/domain/langs.ts';
import { resolveLanguage } from '#lib/i18n/resolve-language.ts';
import type { OpenRequest, PageState, SubmitRequest, SubmitResponse } from '#lib/domain/page/page.schema.ts';
import type { PageIntro, PagePreview } from '#lib/domain/page/page-intro.ts';
import { evidenceEnvelopeSchema, openRequestSchema, submitRequestSchema } from '#lib/domain/page/page.schema.ts';
import { formatZodIssues } from '#lib/domain/zod-issues.ts';
import { randomBase62, sha256Hex } from '../crypto.ts';
import { MAX_JSON_BODY_BYTES } from '../http/body.ts';
import type { Repos, UnitOfWork } from '../repositories/index.ts';
import type { CatalogueService } from './catalogue.service.ts';
import type { PendingEffect } from './runner/node-handler.ts';
import { firstScreens, flowProgress } from '#lib/domain/flow/flow-progress.ts';
import type { Session, SessionDevice, SessionLocation } from '#lib/domain/session/session.model.ts';
import { DEMO_FLOW_ID } from './demo.service.ts';
import { FlowRunner, toPhrase, type RunnerResult } from './runner/runner.service.ts';
import { canonicalJson } from './session.service.ts';
import { findClientSecret, findHandoffCode, inspectLink, type LinkCheck } from './page-link.ts';

export const HANDOFF_TTL_MS = 10 * 60_000;

/** Reads an upload's body once its node type says how large it may be. */
export type EvidenceBodyReader = (maxBytes: number) => Promise<unknown>;

/** An upload for a node that takes none is read only to answer why (the JSON routes' own limit). */
const NO_INTAKE_MAX_BYTES = MAX_JSON_BODY_BYTES;

const CAMERA_TYPES = new Set(['liveness_detection', 'face_scan', 'face_compare', 'recognition', 'document_scan']);
const BIOMETRIC_TYPES = new Set(['liveness_detection', 'face_scan', 'face_compare', 'recognition']);

/** What a flow needs from the device, for the permissions page. */
export function requirementsOf(flow: { type: string }[]) {
	return {
		camera: flow.some((n) => CAMERA_TYPES.has(n.type)),
		microphone: flow.some((n) => n.type === 'conversation'),
		recognition: flow.some((n) => n.type === 'recognition'),
		biometric: flow.some((n) => BIOMETRIC_TYPES.has(n.type))
	};
}

/** Who a page request acts for, once its page token is checked. */
export interface PagePrincipal {
	sessionId: string;
	role: 'primary' | 'observer';
	tokenHash: string;
}

/** What the server learns about the end user's device when the link is opened (for the report). */
export interface OpenContext {
	ip?: string;
	location?: SessionLocation;
	device?: SessionDevice;
}

const linkError = (code: 'client_secret_invalid' | 'client_secret_expired' | 'client_secret_used' | 'session_finished', message: string, status: number) =>
	new ApiError(status === 404 ? 'not_found_error' : 'validation_error', message, { code, status });

/**
 * The hosted page's side of a session: opening a client secret (single use: exchanged for a page
 * token that a reload in the same tab keeps), the page's view of the session, node results, and
 * the hand-over to another device.
 */
export class PageService {
	constructor(
		private readonly deps: { uow: UnitOfWork; now: () => number; runner: FlowRunner; catalogue: CatalogueService; frameAncestors: string[]; inactivityMs: number }
	) {}

	/**
	 * `/verify` before the link is opened (its server-rendered load): a dead link gets its
	 * explanation and nothing of the session; an openable one its permissions page, in the language
	 * the browser and the session agree on. `frameAncestors` is for the response's CSP
	 * (http/page-headers.ts), so one page load looks the link up once.
	 */
	async preview(link: { cs?: string | null; handoff?: string | null }, prefs: { browserLanguages: string[]; override?: string | null }): Promise<{ page: PagePreview; frameAncestors: string[] }> {
		const repos = this.deps.uow.repos;
		const check = await inspectLink(repos, this.deps.now(), link);
		const frameAncestors = await this.frameAncestorsOf(repos, check);
		if (check.kind !== 'openable') {
			// Only the browser's own preference: the session's languages are session data.
			const lang = resolveLanguage({ browserLanguages: prefs.browserLanguages });
			// The embedding page is told why the frame cannot go on; its origins are already public in
			// this response's frame-ancestors header.
			const embedOrigins = check.session ? frameAncestors : [];
			const page: PagePreview = check.kind === 'opened' ? { kind: 'opened', lang, via: check.via, embedOrigins } : { kind: 'problem', lang, problem: check.problem, embedOrigins };
			return { page, frameAncestors };
		}
		const session = check.session;
		const { settings } = session;
		const langs = settings.langs?.filter(isSupportedLang) ?? [];
		const defaultLang = isSupportedLang(settings.defaultLang) ? settings.defaultLang : undefined;
		// `?lang=` is a demo feature: honoured for sandbox sessions only.
		const override = session.env === 'test' ? (prefs.override ?? undefined) : undefined;
		const fixedLang = check.via === 'handoff' && isSupportedLang(session.lang) ? session.lang : undefined;
		const lang = fixedLang ?? resolveLanguage({ browserLanguages: prefs.browserLanguages, sessionLangs: langs, defaultLang, override });
		const avatar = await this.deps.catalogue.avatarFor(settings.avatarId, repos);
		const intro: PageIntro = {
			via: check.via,
			sessionId: session.id,
			status: session.status === 'inProgress' ? 'inProgress' : 'created',
			embedOrigins: frameAncestors,
			langs,
			...(defaultLang ? { defaultLang } : {}),
			...(fixedLang ? { fixedLang } : {}),
			...(override ? { override: override.slice(0, 16) } : {}),
			sandbox: session.env === 'test',
			avatar: avatar ? { id: avatar.id, name: avatar.name, imageUrl: avatar.imageUrl, gender: avatar.gender } : null,
			customization: settings.customization ?? {},
			requirements: requirementsOf(session.flow),
			firstScreens: firstScreens(session.flow, session.status === 'inProgress' ? session.currentNodeId : null)
		};
		return { page: { kind: 'intro', lang, intro }, frameAncestors };
	}

	/**
	 * Who may frame the page a `/verify` URL leads to, for a response whose load did not say (an
	 * error page): the link's account's origins, or FRAME_ANCESTORS alone when it names no session.
	 */
	async frameAncestors(link: { cs?: string | null; handoff?: string | null }): Promise<string[]> {
		const repos = this.deps.uow.repos;
		return this.frameAncestorsOf(repos, await inspectLink(repos, this.deps.now(), link));
	}

	private async frameAncestorsOf(repos: Repos, check: LinkCheck): Promise<string[]> {
		return check.session ? this.embedOrigins(repos, check.session.accountId) : this.deps.frameAncestors.filter((o) => o.startsWith('http'));
	}

	/** FRAME_ANCESTORS plus the account's own list (CLI: accounts frame-ancestors). */
	private async embedOrigins(repos: Repos, accountId: string): Promise<string[]> {
		const account = await repos.accounts.getAccount(accountId);
		return [...new Set([...this.deps.frameAncestors, ...(account?.frameAncestors ?? [])].filter((o) => /^https?:\/\//.test(o)))];
	}

	async open(body: unknown, context: OpenContext = {}): Promise<{ pageToken: string; state: PageState }> {
		const parsed = openRequestSchema.safeParse(body);
		if (!parsed.success) throw new ApiError('validation_error', formatZodIssues(parsed.error.issues), { code: 'client_secret_invalid' });
		const request = parsed.data as OpenRequest & { languages: string[] };
		if (!request.clientSecret === !request.handoff) throw new ApiError('validation_error', 'Send a clientSecret or a handoff code', { code: 'client_secret_invalid' });
		const pageToken = `pt_${randomBase62(32)}`;
		const tokenHash = sha256Hex(pageToken);
		const effects: PendingEffect[] = [];

		const state = await this.deps.uow.transaction(async (repos) => {
			const now = this.deps.now();
			let session: Session;
			const nonceHash = request.nonce ? sha256Hex(`open-nonce:${request.nonce}`) : null;
			if (request.handoff) {
				let sessionId = await repos.pageAccess.redeemHandoff(sha256Hex(request.handoff), now, nonceHash);
				if (!sessionId) {
					const known = await findHandoffCode(repos, request.handoff);
					// The same tab again (its answer was lost): it is the device that took over.
					if (known && nonceHash && known.nonceHash === nonceHash && now < known.expiresAt) sessionId = known.sessionId;
					else throw known ? linkError('client_secret_used', 'This hand-over link was already used or has expired', 409) : linkError('client_secret_invalid', 'This link is not valid', 404);
				}
				session = (await repos.sessions.lockById(sessionId))!;
				if (session.status !== 'inProgress') throw linkError('session_finished', 'This verification is already finished', 409);
				await repos.pageAccess.demoteOtherTokens(session.id, tokenHash);
			} else {
				const secret = await findClientSecret(repos, request.clientSecret!);
				if (!secret) throw linkError('client_secret_invalid', 'This link is not valid', 404);
				session = (await repos.sessions.lockById(secret.sessionId))!;
				if (session.status === 'complete' || session.status === 'incomplete') throw linkError('session_finished', 'This verification is already finished', 409);
				if (now >= secret.expireAt) throw linkError('client_secret_expired', 'This link has expired', 410);
				if (secret.openedAt !== null) {
					// Only the tab that opened it may open it again (a retry whose answer was lost).
					if (!nonceHash || secret.openNonceHash !== nonceHash) throw linkError('client_secret_used', 'This link was already opened; it works once', 409);
				}
			}
			if (request.clientSecret && session.status === 'created') {
				await repos.sessions.updateSecret(session.id, { openedAt: now, openNonceHash: nonceHash });
				const { settings } = session;
				const lang = resolveLanguage({
					browserLanguages: request.languages,
					sessionLangs: settings.langs?.filter(isSupportedLang),
					defaultLang: settings.defaultLang,
					// `?lang=` is a demo feature: honoured for sandbox sessions only.
					override: session.env === 'test' ? request.override : undefined
				});
				await repos.sessions.update(session.id, { location: context.location ?? null, device: context.device ?? null });
				session = await this.deps.runner.start(repos, session, lang, effects);
			}
			const expiresAt = (await repos.sessions.findSecretsBySessionIds([session.id])).get(session.id)!.expireAt;
			await repos.pageAccess.insertToken({ hash: tokenHash, sessionId: session.id, role: 'primary', createdAt: now, expiresAt });
			return this.stateOf(repos, session.id, 'primary');
		});
		if (effects.length) {
			await this.deps.runner.runEffects(effects, state.session.id);
			return { pageToken, state: await this.state({ sessionId: state.session.id, role: 'primary', tokenHash }) };
		}
		return { pageToken, state };
	}

	/** The principal of a page token, or an authentication error the page can explain. */
	async authenticate(header: string | null): Promise<PagePrincipal> {
		const match = /^Bearer\s+(pt_[A-Za-z0-9]{20,64})\s*$/.exec(header ?? '');
		if (!match) throw new ApiError('authentication_error', 'Missing page token', { code: 'missing_api_key' });
		const tokenHash = sha256Hex(match[1]);
		const row = await this.deps.uow.repos.pageAccess.findToken(tokenHash);
		if (!row || row.revokedAt !== null) throw new ApiError('authentication_error', 'This page is no longer valid', { code: 'invalid_api_key' });
		if (this.deps.now() >= row.expiresAt) throw new ApiError('authentication_error', 'This link has expired', { code: 'client_secret_expired' });
		return { sessionId: row.sessionId, role: row.role, tokenHash };
	}

	async state(principal: PagePrincipal): Promise<PageState> {
		return this.stateOf(this.deps.uow.repos, principal.sessionId, principal.role);
	}

	/**
	 * "I'm still here": the user answered the page's idle warning. Counts as activity for a session in
	 * progress (the sweeper ends it SESSION_INACTIVITY_TIMEOUT_S after the last one); what they typed
	 * stays on the page. Only the primary page keeps a session alive: an observer's call only reads.
	 */
	async keepAlive(principal: PagePrincipal): Promise<PageState> {
		const repos = this.deps.uow.repos;
		const session = principal.role === 'primary' ? await repos.sessions.findById(principal.sessionId) : null;
		if (session?.status === 'inProgress') {
			const at = this.deps.now();
			await repos.sessions.update(session.id, { lastActivityAt: at, updatedAt: at });
		}
		return this.stateOf(repos, principal.sessionId, principal.role);
	}

	/**
	 * A node result. A retry with the same requestId returns the first answer; a result for a node
	 * or a step that is no longer current is refused (409).
	 */
	async submit(principal: PagePrincipal, nodeId: string, body: unknown): Promise<SubmitResponse> {
		const parsed = submitRequestSchema.safeParse(body);
		if (!parsed.success) throw new ApiError('validation_error', formatZodIssues(parsed.error.issues));
		const request = parsed.data as Required<SubmitRequest>;
		return this.commit(principal, nodeId, request, (repos, session, effects) => this.deps.runner.act(repos, session, nodeId, request.action, request.payload, effects));
	}

	/**
	 * A camera node's upload (`/api/client/nodes/{nodeId}/evidence`). The session is loaded once; the
	 * node type's intake parses the body (read up to the type's own limit), the analysis runs outside
	 * the transaction, and its decision runs inside it like any node result. An upload for a node that
	 * is not current, or a retry already answered, is answered without the engines running.
	 */
	async submitEvidence(principal: PagePrincipal, nodeId: string, readBody: EvidenceBodyReader): Promise<SubmitResponse> {
		const receivedAt = this.deps.now();
		const session = await this.deps.uow.repos.sessions.findById(principal.sessionId);
		if (!session) throw new ApiError('not_found_error', 'Session not found', { code: 'session_not_found' });
		const node = session.flow.find((n) => n.id === nodeId);
		const intake = node ? this.deps.runner.evidenceIntake(node) : null;
		if (!node || !intake) {
			// No upload to read: the plain path says why (unknown node, not current, no such action).
			const envelope = evidenceEnvelopeSchema.safeParse(await readBody(NO_INTAKE_MAX_BYTES));
			if (!envelope.success) throw new ApiError('validation_error', formatZodIssues(envelope.error.issues));
			const { step, requestId } = envelope.data;
			return this.submit(principal, nodeId, { step, ...(requestId ? { requestId } : {}), action: 'evidence', payload: {} });
		}
		const upload = await intake.parse(await readBody(intake.maxBodyBytes));
		const request = { step: upload.envelope.step, requestId: upload.envelope.requestId, action: 'evidence', payload: { claim: upload.envelope.claim } };
		const settled =
			session.status !== 'inProgress' ||
			session.currentNodeId !== nodeId ||
			principal.role !== 'primary' ||
			(request.requestId !== undefined && (await this.deps.uow.repos.submissions.find(session.id, request.requestId)) !== null);
		if (settled) return this.commit(principal, nodeId, request, (repos, locked, effects) => this.deps.runner.act(repos, locked, nodeId, request.action, request.payload, effects));
		const decision = await this.deps.runner.analyse(upload, session, node, receivedAt);
		return this.commit(principal, nodeId, request, (repos, locked, effects) => this.deps.runner.decide(repos, locked, node, decision, effects));
	}

	/**
	 * One node result in the session's transaction: the role, the replay of an earlier requestId and
	 * the step are checked here, once, for actions and uploads alike; after-commit effects follow.
	 */
	private async commit(
		principal: PagePrincipal,
		nodeId: string,
		request: { step: number; requestId?: string; action: string; payload: Record<string, unknown> },
		run: (repos: Repos, session: Session, effects: PendingEffect[]) => Promise<RunnerResult>
	): Promise<SubmitResponse> {
		if (principal.role !== 'primary') {
			throw new ApiError('validation_error', 'This device only follows the verification; it continues on the other device', { code: 'node_not_current', status: 409 });
		}
		const requestHash = sha256Hex(canonicalJson({ nodeId, action: request.action, payload: request.payload }));
		const effects: PendingEffect[] = [];
		const first = await this.deps.uow.transaction(async (repos) => {
			const session = await repos.sessions.lockById(principal.sessionId);
			if (!session) throw new ApiError('not_found_error', 'Session not found', { code: 'session_not_found' });
			const replay = request.requestId ? await repos.submissions.find(session.id, request.requestId) : null;
			if (replay) {
				if (replay.requestHash !== requestHash) throw new ApiError('validation_error', 'This requestId was already used for another result', { code: 'conflict', status: 409 });
				return { response: replay.response, replayed: true };
			}
			if (request.step !== session.step && session.currentNodeId === nodeId) {
				throw new ApiError('validation_error', 'This result was made for an earlier state of the page', { code: 'node_not_current', status: 409 });
			}
			const result = await run(repos, session, effects);
			const response: SubmitResponse = { state: await this.stateOf(repos, session.id, 'primary') };
			if (result.notice) response.notice = result.notice;
			if (request.requestId) {
				await repos.submissions.insert({ sessionId: session.id, requestId: request.requestId, step: request.step, nodeId, requestHash, response, createdAt: this.deps.now() });
			}
			return { response, replayed: false };
		});
		if (first.replayed || !effects.length) return first.response;
		const notice = await this.deps.runner.runEffects(effects, principal.sessionId);
		return { state: await this.state(principal), ...(notice ?? first.response.notice ? { notice: notice ?? first.response.notice } : {}) };
	}

	/** A one-time link (shown as a QR code) that moves the session to another device. */
	async createHandoff(principal: PagePrincipal): Promise<{ code: string; expiresAt: number }> {
		if (principal.role !== 'primary') throw new ApiError('validation_error', 'Only the device running the verification can hand it over', { code: 'node_not_current', status: 409 });
		const session = await this.deps.uow.repos.sessions.findById(principal.sessionId);
		if (!session || session.status !== 'inProgress') throw linkError('session_finished', 'This verification is already finished', 409);
		const code = `ho_${randomBase62(24)}`;
		const now = this.deps.now();
		const expiresAt = now + HANDOFF_TTL_MS;
		await this.deps.uow.repos.pageAccess.insertHandoff({ hash: sha256Hex(code), sessionId: session.id, createdAt: now, expiresAt });
		return { code, expiresAt };
	}

	async stateOf(repos: Repos, sessionId: string, role: 'primary' | 'observer'): Promise<PageState> {
		const session = await repos.sessions.findById(sessionId);
		if (!session) throw new ApiError('not_found_error', 'Session not found', { code: 'session_not_found' });
		const { settings } = session;
		const avatar = await this.deps.catalogue.avatarFor(settings.avatarId, repos);
		const lang: SupportedLang = isSupportedLang(session.lang) ? session.lang : 'en';
		const node = await this.deps.runner.view(repos, session);
		const state: PageState = {
			session: { id: session.id, status: session.status, lang, langs: settings.langs?.filter(isSupportedLang) ?? [...SUPPORTED_LANGS], step: session.step },
			role,
			sandbox: session.env === 'test',
			demo: session.env === 'test' && session.flowId === DEMO_FLOW_ID && role === 'primary',
			avatar: avatar ? { id: avatar.id, name: avatar.name, imageUrl: avatar.imageUrl, gender: avatar.gender } : null,
			customization: settings.customization ?? {},
			node,
			progress: flowProgress(session.flow, node?.id),
			transcript: (await repos.transcript.list(session.id)).map(toPhrase),
			requirements: requirementsOf(session.flow),
			embedOrigins: await this.embedOrigins(repos, session.accountId),
			idle: null
		};
		if (role === 'primary' && session.status === 'inProgress' && session.lastActivityAt !== null) {
			const { inactivityMs } = this.deps;
			state.idle = { timeoutMs: inactivityMs, leftMs: Math.max(0, Math.min(inactivityMs, session.lastActivityAt + inactivityMs - this.deps.now())) };
		}
		if (session.status === 'complete' || session.status === 'incomplete') {
			state.finished = { status: session.status, ...(settings.finalPhrase && session.status === 'complete' ? { finalPhrase: settings.finalPhrase } : {}) };
			// For the embedding page's `veriflow:complete` only: a page that is never framed has no use for it.
			if (state.embedOrigins.length) state.finished.isVerified = isVerified(session.status, await repos.nodeReports.list(session.id)) ?? false;
		}
		return state;
	}
}

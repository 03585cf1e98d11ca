import { ApiError } from '#lib/domain/errors.ts';
import type { FlowNode, NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { OUTCOME_SHAPE, fixedOutcomeKeys, type NodeType } from '#lib/domain/flow/node-types.ts';
import { isSupportedLang, type SupportedLang } from '#lib/domain/langs.ts';
import { nodeViewSchema, type NodeView } from '#lib/domain/nodes/node-contracts.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import type { Phrase } from '#lib/domain/session/session.schema.ts';
import { newId } from '../../crypto.ts';
import { logger } from '../../logger.ts';
import type { Repos } from '../../repositories/index.ts';
import type { ActionResult, EvidenceIntake, ParsedEvidence, NodeContext, NodeFinish, NodeHandler, NodeLeave, Notice, PendingEffect } from './node-handler.ts';
import { HANDLERS } from './handlers/index.ts';
import type { RunnerDeps } from './runner-deps.ts';

const MAX_AUTOMATIC_MOVES = 500;

/**
 * A node's handler, seen through the common interface: the registry's per-type handlers take the
 * context of their own type, and the runner only ever passes them a context built from that node.
 */
const handlerOf = (node: FlowNode): NodeHandler => HANDLERS[node.type] as NodeHandler;

/** The outcome of a page action: the session as it now stands and what to tell the user. */
export interface RunnerResult {
	session: Session;
	notice?: Notice;
}

/**
 * Walks a session through its flow. The server holds the position: the page reports the result
 * of the current node, the runner checks it is current and legal, records the node report, moves
 * to the target and runs the next node's entry. Every move happens in one transaction with the
 * status change and its event; network work (sending a passcode) runs after the commit.
 */
export class FlowRunner {
	constructor(private readonly deps: RunnerDeps) {}

	/** First open: created → inProgress, the opening phrase, then on to the first node. */
	async start(repos: Repos, session: Session, lang: SupportedLang, effects: PendingEffect[]): Promise<Session> {
		let row = await this.deps.sessions.transition(repos, session.id, 'inProgress', { lang });
		const data = { ...(row.data ?? {}) };
		if (row.settings.initialPhrase) await this.phrase(repos, row.id, null, row.settings.initialPhrase, true);
		const start = row.flow.find((n) => n.type === 'start');
		if (!start || start.type !== 'start') throw new Error(`Session ${row.id} has no start node`);
		row = await this.moveTo(repos, { ...row, data }, start, { outcome: 'outcome' }, effects);
		return row;
	}

	/** Runs one page action on the current node, inside the caller's transaction. */
	async act(repos: Repos, session: Session, nodeId: string, action: string, payload: Record<string, unknown>, effects: PendingEffect[]): Promise<RunnerResult> {
		return this.perform(repos, session, nodeId, effects, (node, handler, ctx) => {
			// Own keys only: a name such as `constructor` or `__proto__` must not reach Object.prototype.
			const run = handler.actions && Object.hasOwn(handler.actions, action) ? handler.actions[action] : undefined;
			if (run) return run(ctx, payload);
			if (action === 'evidence' && handler.evidence) {
				throw new ApiError('validation_error', `A ${node.type} node decides from what the server reads: upload it to /api/client/nodes/${node.id}/evidence`, { code: 'outcome_not_allowed', status: 400 });
			}
			throw new ApiError('validation_error', `A ${node.type} node has no action '${action}'`, { code: 'outcome_not_allowed', status: 400 });
		});
	}

	/**
	 * Runs the decision an evidence upload's analysis produced (`EvidenceIntake`), inside the
	 * caller's transaction, on the node it was made for if that node is still current.
	 */
	async decide<T extends NodeType>(repos: Repos, session: Session, node: NodeOf<T>, decision: (ctx: NodeContext<T>) => Promise<ActionResult>, effects: PendingEffect[]): Promise<RunnerResult> {
		this.assertCurrent(session, node.id);
		const data = { ...(session.data ?? {}) };
		const result = await decision(this.context(repos, { ...session, data }, node, effects));
		return this.apply(repos, { ...session, data }, node, result, effects);
	}

	/** The checks every node result goes through, then `run` with the node's handler and context. */
	private async perform(repos: Repos, session: Session, nodeId: string, effects: PendingEffect[], run: (node: FlowNode, handler: NodeHandler, ctx: NodeContext) => Promise<ActionResult>): Promise<RunnerResult> {
		this.assertCurrent(session, nodeId);
		const node = this.node(session, nodeId);
		const data = { ...(session.data ?? {}) };
		const ctx = this.context(repos, { ...session, data }, node, effects);
		const result = await run(node, handlerOf(node), ctx);
		return this.apply(repos, { ...session, data }, node, result, effects);
	}

	private assertCurrent(session: Session, nodeId: string): void {
		if (session.status !== 'inProgress') {
			throw new ApiError('validation_error', 'This session is over', { code: 'session_finished', status: 409 });
		}
		if (session.currentNodeId !== nodeId) {
			throw new ApiError('validation_error', `Node '${nodeId}' is not the current node`, { code: 'node_not_current', status: 409 });
		}
	}

	/** Runs a parsed upload's analysis (outside any transaction) with the engines the runner holds. */
	analyse<T extends NodeType>(upload: ParsedEvidence<T>, session: Session, node: NodeOf<T>, receivedAt: number): Promise<(ctx: NodeContext<T>) => Promise<ActionResult>> {
		return upload.analyse({ session, node, receivedAt, deps: this.deps });
	}

	/** The node type's evidence route, or null when the type decides from page actions only. */
	evidenceIntake(node: FlowNode): EvidenceIntake<NodeType> | null {
		return handlerOf(node).evidence ?? null;
	}

	/** Applies what an action or an after-commit effect decided. */
	async apply(repos: Repos, session: Session, node: FlowNode, result: ActionResult, effects: PendingEffect[]): Promise<RunnerResult> {
		let row = session;
		if (result.finish) {
			row = await this.moveTo(repos, session, node, result.finish, effects);
		} else if (result.leave) {
			row = await this.leave(repos, session, node, result.leave);
		} else {
			await repos.sessions.update(session.id, { data: session.data, lastActivityAt: this.deps.now(), updatedAt: this.deps.now() });
		}
		return { session: row, notice: result.notice };
	}

	/**
	 * Finishes `node` with `finish`, records its report and enters the target; nodes that finish
	 * on entry (data validation) are passed through; an END node completes the session.
	 */
	private async moveTo(repos: Repos, session: Session, node: FlowNode, finish: NodeFinish, effects: PendingEffect[]): Promise<Session> {
		let row = session;
		let current: FlowNode = node;
		let outcome: NodeFinish = finish;
		for (let moves = 0; moves < MAX_AUTOMATIC_MOVES; moves++) {
			const target = this.targetOf(current, outcome.outcome);
			const at = this.deps.now();
			if (current.type !== 'start') {
				await repos.nodeReports.insert({ sessionId: row.id, nodeId: current.id, type: current.type, outcome: outcome.outcome, targetNodeId: target, createdAt: at, details: outcome.details });
			}
			const next = this.node(row, target);
			row = { ...row, currentNodeId: next.id, step: row.step + 1, lastActivityAt: at, updatedAt: at };
			await repos.sessions.update(row.id, { currentNodeId: row.currentNodeId, step: row.step, data: row.data, lastActivityAt: at, updatedAt: at });
			if (next.type === 'end') return this.complete(repos, row);
			const handler = handlerOf(next);
			const entered = handler.enter ? await handler.enter(this.context<NodeType>(repos, row, next, effects)) : undefined;
			if (!entered) {
				await repos.sessions.update(row.id, { data: row.data });
				return row;
			}
			current = next;
			outcome = entered;
		}
		throw new Error(`Session ${row.id}: more than ${MAX_AUTOMATIC_MOVES} automatic moves`);
	}

	/**
	 * The user ended the session on `node`: its report says so (outcome `userLeft`, no target) and
	 * the session ends `incomplete`, the spec's state for a session that stops short of an END node.
	 */
	private async leave(repos: Repos, session: Session, node: FlowNode, leave: NodeLeave): Promise<Session> {
		const at = this.deps.now();
		await repos.nodeReports.insert({ sessionId: session.id, nodeId: node.id, type: node.type, outcome: 'userLeft', targetNodeId: null, createdAt: at, details: { reason: leave.reason, ...leave.details } });
		await repos.sessions.update(session.id, { data: session.data, lastActivityAt: at, updatedAt: at });
		return this.deps.sessions.transition(repos, session.id, 'incomplete');
	}

	private async complete(repos: Repos, session: Session): Promise<Session> {
		const { finalPhrase } = session.settings;
		if (finalPhrase) await this.phrase(repos, session.id, null, finalPhrase, true);
		await repos.sessions.update(session.id, { data: session.data });
		return this.deps.sessions.transition(repos, session.id, 'complete');
	}

	/** The target of an outcome; throws if the outcome is not one this node type can end with. */
	targetOf(node: FlowNode, outcome: string): string {
		const shape = OUTCOME_SHAPE[node.type];
		if (shape === 'single' && node.type === 'start') return node.outcome;
		if (shape === 'fixed') {
			const keys = fixedOutcomeKeys(node.type)!;
			const outcomes = (node as { outcomes: Record<string, string> }).outcomes;
			if (!keys.includes(outcome) || !outcomes[outcome]) {
				throw new ApiError('validation_error', `'${outcome}' is not an outcome of a ${node.type} node`, { code: 'outcome_not_allowed', status: 400 });
			}
			return outcomes[outcome];
		}
		if (shape === 'conditional') {
			const found = (node as { outcomes: { id: string; targetNodeId: string }[] }).outcomes.find((o) => o.id === outcome);
			if (!found) throw new ApiError('validation_error', `'${outcome}' is not an outcome of node '${node.id}'`, { code: 'outcome_not_allowed', status: 400 });
			return found.targetNodeId;
		}
		throw new Error(`A ${node.type} node has no outcome`);
	}

	node(session: Session, id: string): FlowNode {
		const node = session.flow.find((n) => n.id === id);
		if (!node) throw new Error(`Session ${session.id}: no node '${id}'`);
		return node;
	}

	/** What the page sees of the current node. */
	async view(repos: Repos, session: Session): Promise<NodeView | null> {
		if (session.status !== 'inProgress' || !session.currentNodeId) return null;
		const node = this.node(session, session.currentNodeId);
		const handler = handlerOf(node);
		const ctx = this.context(repos, session, node, []);
		const props = handler.view ? await handler.view(ctx) : {};
		const phrases = await repos.transcript.list(session.id);
		const spoken = phrases.filter((p) => p.isAvatar && p.nodeId === node.id);
		const conversation = node.type === 'conversation' ? { expectsReply: !node.doesNotRequireReply, repeated: spoken.length > 1 } : {};
		// Checked against the node type's contract: what the page reads is what the contract says.
		const view = nodeViewSchema.parse({ id: node.id, type: node.type, props, ...(spoken.length ? { speech: spoken[spoken.length - 1].text } : {}), ...conversation });
		return view;
	}

	context<T extends NodeType>(repos: Repos, session: Session, node: NodeOf<T>, effects: PendingEffect[]): NodeContext<T> {
		const lang = (isSupportedLang(session.lang) ? session.lang : 'en') as SupportedLang;
		return {
			repos,
			session,
			node,
			lang,
			now: this.deps.now(),
			deps: this.deps,
			data: session.data,
			transcript: async () => (await repos.transcript.list(session.id)).map(toPhrase),
			say: (text) => this.phrase(repos, session.id, node.id, text, true),
			hear: (text) => this.phrase(repos, session.id, node.id, text, false),
			afterCommit: (effect) => void effects.push({ nodeId: node.id, run: effect })
		};
	}

	private async phrase(repos: Repos, sessionId: string, nodeId: string | null, text: string, isAvatar: boolean): Promise<void> {
		const clean = text.trim().slice(0, 4000);
		if (!clean) return;
		await repos.transcript.insert({ id: newId('phr'), sessionId, nodeId, createdAt: this.deps.now(), text: clean, isAvatar });
	}

	/**
	 * Runs after-commit effects in order; an effect that finishes its node (a passcode that could
	 * not be delivered) is applied in a transaction of its own, if that node is still current.
	 */
	async runEffects(effects: PendingEffect[], sessionId: string): Promise<Notice | undefined> {
		let notice: Notice | undefined;
		for (const effect of effects) {
			let result: ActionResult | void;
			try {
				result = await effect.run();
			} catch (err) {
				logger.error({ err, sessionId }, 'after-commit effect failed');
				continue;
			}
			if (!result) continue;
			notice = result.notice ?? notice;
			if (result.finish) {
				const more: PendingEffect[] = [];
				await this.deps.uow.transaction(async (repos) => {
					const row = await repos.sessions.lockById(sessionId);
					if (!row || row.status !== 'inProgress' || row.currentNodeId !== effect.nodeId) return;
					await this.apply(repos, row, this.node(row, effect.nodeId), { finish: result.finish }, more);
				});
				if (more.length) notice = (await this.runEffects(more, sessionId)) ?? notice;
			}
		}
		return notice;
	}
}

export const toPhrase = (p: { id: string; createdAt: number; text: string; isAvatar: boolean }): Phrase => ({ id: p.id, createdAt: p.createdAt, text: p.text, isAvatar: p.isAvatar });

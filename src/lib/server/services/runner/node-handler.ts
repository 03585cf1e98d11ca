import type { Notice } from '#lib/domain/page/page.schema.ts';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import type { NodeType } from '#lib/domain/flow/node-types.ts';
import type { SupportedLang } from '#lib/domain/langs.ts';
import type { Phrase } from '#lib/domain/session/session.schema.ts';
import type { Repos } from '../../repositories/index.ts';
import type { SessionRow } from '../../repositories/session.repository.ts';
import type { RunnerDeps } from './runner-deps.ts';

/** What a node finished with: an outcome key (fixed nodes) or conditional outcome id. */
export interface NodeFinish {
	outcome: string;
	/** What the server measured or decided, kept in the node report. */
	details?: Record<string, unknown>;
}

/** Something the user should be told about their last action: one shape for server and page. */
export type { Notice };

/** The user ends the session on this node (it becomes `incomplete`), e.g. leaving a conversation. */
export interface NodeLeave {
	reason: string;
	details?: Record<string, unknown>;
}

export interface ActionResult {
	finish?: NodeFinish;
	leave?: NodeLeave;
	notice?: Notice;
}

/** Work that must not run inside the database transaction (network sends); may finish the node. */
export type AfterCommit = () => Promise<ActionResult | void>;

/** An after-commit effect and the node that registered it (only that node may be finished by it). */
export interface PendingEffect {
	nodeId: string;
	run: AfterCommit;
}

export interface NodeContext<T extends NodeType = NodeType> {
	readonly repos: Repos;
	readonly session: SessionRow;
	readonly node: NodeOf<T>;
	readonly lang: SupportedLang;
	readonly now: number;
	readonly deps: RunnerDeps;
	/** The session data nodes have saved so far (mutable: changes are stored with the move). */
	readonly data: Record<string, unknown>;
	/** The transcript so far (read-only view). */
	transcript(): Promise<Phrase[]>;
	/** Adds an avatar phrase to the transcript. */
	say(text: string): Promise<void>;
	/** Adds a user phrase to the transcript. */
	hear(text: string): Promise<void>;
	afterCommit(effect: AfterCommit): void;
	/**
	 * What a dedicated upload route measured before this action (face evidence: see
	 * services/faces/face-evidence.service.ts). Never built from the page's JSON.
	 */
	readonly evidence?: unknown;
}

export interface NodeHandler<T extends NodeType = NodeType> {
	/** Runs when the node becomes current; a returned finish moves on at once (no UI). */
	enter?(ctx: NodeContext<T>): Promise<NodeFinish | void>;
	/** Public, node-specific state for the page (never secrets, never other users' data). */
	view?(ctx: NodeContext<T>): Promise<Record<string, unknown>> | Record<string, unknown>;
	/** The page's actions on this node, by name. Unknown actions are refused. */
	actions?: Record<string, (ctx: NodeContext<T>, payload: Record<string, unknown>) => Promise<ActionResult>>;
}

export type HandlerRegistry = { [K in NodeType]: NodeHandler<K> };

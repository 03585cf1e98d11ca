import type { Notice } from '#lib/domain/page/page.schema.ts';
import type { ViewPropsOf } from '#lib/domain/nodes/node-contracts.ts';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import type { FaceNodeType, NodeType, TwoFactorType } from '#lib/domain/flow/node-types.ts';
import type { SupportedLang } from '#lib/domain/langs.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import type { Phrase } from '#lib/domain/session/session.schema.ts';
import type { Repos } from '../../repositories/index.ts';
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
	readonly session: Session;
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
}

/** What every evidence upload carries besides its node-specific content. */
export interface EvidenceEnvelope {
	step: number;
	requestId?: string;
	/** What the page believes happened: kept against the server's findings, never trusted. */
	claim: Record<string, unknown>;
}

/** What the analysis of an upload may read: the session as loaded before the transaction. */
export interface AnalyseInput<T extends NodeType> {
	readonly session: Session;
	readonly node: NodeOf<T>;
	/** Server time the upload was received. */
	readonly receivedAt: number;
	readonly deps: RunnerDeps;
}

/**
 * A camera node's upload in its three steps. `parse` checks the body (types by their bytes, sizes by
 * their headers) before any session check; `analyse` runs the engines outside the transaction;
 * `decide` judges inside it, from that analysis only. The analysis never travels as data: it exists
 * only as the argument `analyse` hands to `decide`, so a page cannot send one of its own.
 */
export interface EvidencePhase<T extends NodeType, Upload extends EvidenceEnvelope, Analysis> {
	/** Largest request body the node's upload may have. */
	maxBodyBytes: number;
	parse(body: unknown): Promise<Upload>;
	analyse(input: AnalyseInput<T>, upload: Upload): Promise<Analysis>;
	decide(ctx: NodeContext<T>, analysis: Analysis, upload: Upload): Promise<ActionResult>;
}

/** An upload that was parsed and can be analysed; its decision runs in the session's transaction. */
export interface ParsedEvidence<T extends NodeType> {
	readonly envelope: EvidenceEnvelope;
	analyse(input: AnalyseInput<T>): Promise<(ctx: NodeContext<T>) => Promise<ActionResult>>;
}

/** A node type's evidence route, with the phase's own types closed over. */
export interface EvidenceIntake<T extends NodeType> {
	readonly maxBodyBytes: number;
	parse(body: unknown): Promise<ParsedEvidence<T>>;
}

/** Closes an evidence phase over its upload and analysis types. */
export function evidenceIntake<T extends NodeType, Upload extends EvidenceEnvelope, Analysis>(phase: EvidencePhase<T, Upload, Analysis>): EvidenceIntake<T> {
	return {
		maxBodyBytes: phase.maxBodyBytes,
		async parse(body) {
			const upload = await phase.parse(body);
			return {
				envelope: { step: upload.step, ...(upload.requestId ? { requestId: upload.requestId } : {}), claim: upload.claim },
				async analyse(input) {
					const analysis = await phase.analyse(input, upload);
					return (ctx) => phase.decide(ctx, analysis, upload);
				}
			};
		}
	};
}

export interface NodeHandler<T extends NodeType = NodeType> {
	/** Runs when the node becomes current; a returned finish moves on at once (no UI). */
	enter?(ctx: NodeContext<T>): Promise<NodeFinish | void>;
	/** Public, node-specific state for the page (never secrets, never other users' data). */
	view?(ctx: NodeContext<T>): Promise<ViewPropsOf<T>> | ViewPropsOf<T>;
	/** The page's actions on this node, by name. Unknown actions are refused. */
	actions?: Record<string, (ctx: NodeContext<T>, payload: Record<string, unknown>) => Promise<ActionResult>>;
	/** Camera nodes: the upload to `/api/client/nodes/{nodeId}/evidence` they decide from. */
	evidence?: EvidenceIntake<T>;
}

/** Node types that share one handler: it is written for, and receives, any type of its group. */
type HandlerGroup<K extends NodeType> = K extends TwoFactorType ? TwoFactorType : K extends FaceNodeType ? FaceNodeType : K;

/** Every node type's handler; a type without one is a type error. */
export type HandlerRegistry = { [K in NodeType]: NodeHandler<HandlerGroup<K>> };

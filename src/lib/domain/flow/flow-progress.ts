import type { FlowNode } from './flow.schema.ts';
import { FIXED_OUTCOME_KEYS, isFixedOutcomeType, type NodeType } from './node-types.ts';

/** Node types the user sees as a step of their own (start, end and data checks are invisible). */
const SILENT: ReadonlySet<NodeType> = new Set(['start', 'end', 'data_validation']);

export interface FlowProgress {
	/** 1-based: the step the user is on. */
	current: number;
	total: number;
}

/**
 * Where the user is, as "step n of m", along the flow's main path: from START, each node's first
 * outcome (the spec lists the success first: permissionsGranted, emailEntered, passed…; for a
 * conversation or a data check, its first condition). Null when the current node is not on that
 * path (the user took a branch, so a count would mislead) or the path has fewer than two steps.
 */
export function flowProgress(flow: readonly FlowNode[], currentNodeId: string | null | undefined): FlowProgress | null {
	if (!currentNodeId) return null;
	const path = mainPath(flow).map((n) => n.id);
	const at = path.indexOf(currentNodeId);
	if (at < 0 || path.length < 2) return null;
	return { current: at + 1, total: path.length };
}

/** The steps the user sees along the flow's main path (see flowProgress), from `fromId` (default START). */
export function mainPath(flow: readonly FlowNode[], fromId?: string): FlowNode[] {
	const byId = new Map(flow.map((n) => [n.id, n]));
	const path: FlowNode[] = [];
	const seen = new Set<string>();
	let node: FlowNode | undefined = fromId ? byId.get(fromId) : flow.find((n) => n.type === 'start');
	while (node && !seen.has(node.id)) {
		seen.add(node.id);
		if (!SILENT.has(node.type)) path.push(node);
		const next = mainSuccessor(node);
		node = next ? byId.get(next) : undefined;
	}
	return path;
}

/**
 * The node types a session most likely shows first, from `fromId` (its current node) or START: the
 * first step of the main path, and the one after it when that is a permissions node (which the
 * permissions page answers at once). A guess the hosted page uses to fetch those screens before
 * any other; a user who takes a branch gets theirs when it is reached.
 */
export function firstScreens(flow: readonly FlowNode[], fromId?: string | null): NodeType[] {
	const [first, second] = mainPath(flow, fromId ?? undefined);
	if (!first) return [];
	return first.type === 'permissions' && second && second.type !== 'permissions' ? [first.type, second.type] : [first.type];
}

function mainSuccessor(node: FlowNode): string | null {
	if (node.type === 'start') return node.outcome;
	if (node.type === 'end') return null;
	if (isFixedOutcomeType(node.type)) {
		const outcomes = (node as { outcomes: Record<string, string> }).outcomes;
		return outcomes[FIXED_OUTCOME_KEYS[node.type][0]] ?? null;
	}
	const conditional = (node as { outcomes?: { targetNodeId: string }[] }).outcomes;
	return conditional?.[0]?.targetNodeId ?? null;
}

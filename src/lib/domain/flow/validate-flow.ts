import type { z } from 'zod';
import { NODE_SCHEMAS, type Flow, type FlowNode } from './flow.schema.ts';
import {
	FIXED_OUTCOME_KEYS,
	NODE_TYPES,
	OUTCOME_SHAPE,
	isFixedOutcomeType,
	isNodeType,
	type NodeType
} from './node-types.ts';

export const MAX_FLOW_NODES = 500;

/** Which rule an issue breaks; tests and callers can switch on it. */
export type FlowRule =
	| 'shape'
	| 'field'
	| 'unique_node_id'
	| 'unique_outcome_id'
	| 'one_start'
	| 'has_end'
	| 'target_exists'
	| 'no_self_loop'
	| 'no_cycle'
	| 'reachable';

export interface FlowIssue {
	rule: FlowRule;
	message: string;
	nodeId?: string;
	field?: string;
}

export type FlowValidation = { ok: true; flow: Flow } | { ok: false; issues: FlowIssue[] };

const describeNode = (id: unknown, type: unknown, index: number) =>
	typeof id === 'string' && id
		? `flow node '${id}'${typeof type === 'string' ? ` (${type})` : ''}`
		: `flow node #${index}`;

/** An outgoing edge of a node: the outcome that names it and the target id. */
export interface FlowEdge {
	outcome: string;
	field: string;
	target: string;
}

/** Every edge of a node, read defensively so it also works on nodes that failed their schema. */
export function edgesOf(node: { type?: unknown; outcome?: unknown; outcomes?: unknown }): FlowEdge[] {
	if (!isNodeType(node.type)) return [];
	const shape = OUTCOME_SHAPE[node.type];
	if (shape === 'single') {
		return typeof node.outcome === 'string' ? [{ outcome: 'outcome', field: 'outcome', target: node.outcome }] : [];
	}
	if (shape === 'fixed' && node.outcomes && typeof node.outcomes === 'object' && !Array.isArray(node.outcomes)) {
		return Object.entries(node.outcomes as Record<string, unknown>)
			.filter((entry): entry is [string, string] => typeof entry[1] === 'string')
			.map(([key, target]) => ({ outcome: key, field: `outcomes.${key}`, target }));
	}
	if (shape === 'conditional' && Array.isArray(node.outcomes)) {
		return node.outcomes.flatMap((outcome: unknown, i: number) => {
			const o = outcome as { id?: unknown; targetNodeId?: unknown } | null;
			return o && typeof o.targetNodeId === 'string'
				? [{ outcome: typeof o.id === 'string' ? o.id : String(i), field: `outcomes[${i}].targetNodeId`, target: o.targetNodeId }]
				: [];
		});
	}
	return [];
}

function pathToField(path: readonly PropertyKey[]): string {
	let out = '';
	for (const part of path) {
		if (typeof part === 'number') out += `[${part}]`;
		else out += out ? `.${String(part)}` : String(part);
	}
	return out;
}

function valueAt(node: unknown, path: readonly PropertyKey[]): unknown {
	let cur: unknown = node;
	for (const part of path) {
		if (cur === null || typeof cur !== 'object') return undefined;
		cur = (cur as Record<PropertyKey, unknown>)[part];
	}
	return cur;
}

function schemaIssueMessage(issue: z.core.$ZodIssue, node: unknown, type: NodeType): { field: string; message: string }[] {
	const field = pathToField(issue.path);
	if (issue.code === 'unrecognized_keys') {
		// Only outcome maps are strict: name the legal keys so the caller can fix a typo.
		const legal = isFixedOutcomeType(type) ? FIXED_OUTCOME_KEYS[type].join(', ') : '';
		return issue.keys.map((key) => ({
			field: field ? `${field}.${key}` : key,
			message: `unknown outcome key '${key}'${legal ? ` (a ${type} node has: ${legal})` : ''}`
		}));
	}
	if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && valueAt(node, issue.path) === undefined) {
		return [{ field, message: 'is required' }];
	}
	if (issue.code === 'invalid_value' && 'values' in issue) {
		return [{ field, message: `must be one of ${issue.values.map(String).join(', ')}` }];
	}
	if (issue.code === 'invalid_type') {
		return [{ field, message: `must be ${issue.expected === 'int' ? 'an integer' : `of type ${issue.expected}`}` }];
	}
	if (issue.code === 'too_small' || issue.code === 'too_big') {
		const custom = issue.message && !issue.message.startsWith('Too ') ? issue.message : undefined;
		const bound = issue.code === 'too_small' ? `at least ${String(issue.minimum)}` : `at most ${String(issue.maximum)}`;
		return [{ field, message: custom ?? `must be ${bound}` }];
	}
	return [{ field, message: issue.message }];
}

/** Cross-field rules the per-type schemas cannot express. */
function semanticIssues(node: FlowNode): { field: string; message: string }[] {
	const out: { field: string; message: string }[] = [];
	if (node.type === 'face_scan' || node.type === 'face_compare') {
		const source = node.referenceImageSource;
		if (node.type === 'face_scan' && node.mode === 'compare' && !source) {
			out.push({ field: 'referenceImageSource', message: "is required when mode is 'compare'" });
		}
		// With `session` the key may be left out: the node compares with the face saved last.
		if (source === 'providedData' && !node.referenceImageKey) {
			out.push({ field: 'referenceImageKey', message: `is required when referenceImageSource is '${source}'` });
		}
		if (source === 'url' && !node.referenceImageUrl) {
			out.push({ field: 'referenceImageUrl', message: "is required when referenceImageSource is 'url'" });
		}
	}
	if ((node.type === 'face_scan' || node.type === 'liveness_detection' || node.type === 'recognition' || node.type === 'face_compare') && node.minFaceSize !== undefined && node.maxFaceSize !== undefined && node.minFaceSize > node.maxFaceSize) {
		out.push({ field: 'minFaceSize', message: 'must not be larger than maxFaceSize' });
	}
	if (node.type === 'two_factor' || node.type === 'two_factor_email' || node.type === 'two_factor_sms') {
		const channels =
			node.type === 'two_factor' ? node.channels : node.type === 'two_factor_email' ? ['email'] : ['sms'];
		if (node.contactSource === 'module_settings') {
			if (channels.includes('email') && !node.staticEmail) {
				out.push({ field: 'staticEmail', message: "is required when contactSource is 'module_settings' and e-mail is a channel" });
			}
			if (channels.includes('sms') && !node.staticPhone) {
				out.push({ field: 'staticPhone', message: "is required when contactSource is 'module_settings' and SMS is a channel" });
			}
		}
	}
	if (node.type === 'data_validation') {
		const { action, value } = node.validation;
		if ((action === 'greaterThan' || action === 'lessThan') && value !== undefined && !Number.isFinite(Number(value)) && !/^\d{4}-\d{2}-\d{2}/.test(value)) {
			out.push({ field: 'validation.value', message: `must be a number or an ISO date for action '${action}'` });
		}
	}
	if (node.type === 'conversation' || node.type === 'data_validation') {
		const seen = new Set<string>();
		node.outcomes.forEach((outcome, i) => {
			if (seen.has(outcome.id)) out.push({ field: `outcomes[${i}].id`, message: `repeats outcome id '${outcome.id}'` });
			seen.add(outcome.id);
		});
	}
	return out;
}

/**
 * Checks a flow against every rule of the spec: node shapes and required fields per type, unique
 * node ids, unique outcome ids within a node, exactly one START, at least one END, every target
 * existing, no self-loops, no cycles, and every node reachable from START.
 */
export function validateFlow(input: unknown): FlowValidation {
	const issues: FlowIssue[] = [];
	if (!Array.isArray(input)) {
		return { ok: false, issues: [{ rule: 'shape', field: 'flow', message: 'flow must be an array of nodes' }] };
	}
	if (input.length === 0) {
		return { ok: false, issues: [{ rule: 'one_start', field: 'flow', message: 'flow must contain a start node and an end node' }] };
	}
	if (input.length > MAX_FLOW_NODES) {
		return { ok: false, issues: [{ rule: 'shape', field: 'flow', message: `flow must have at most ${MAX_FLOW_NODES} nodes` }] };
	}

	const nodes: FlowNode[] = [];
	const graphNodes: { id: string; type: NodeType; raw: Record<string, unknown> }[] = [];
	input.forEach((raw: unknown, index) => {
		if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
			issues.push({ rule: 'shape', message: `flow node #${index} must be an object` });
			return;
		}
		const record = raw as Record<string, unknown>;
		const where = describeNode(record.id, record.type, index);
		const nodeId = typeof record.id === 'string' && record.id ? record.id : undefined;
		if (record.type === undefined) {
			issues.push({ rule: 'field', nodeId, field: 'type', message: `${where}: 'type' is required` });
			return;
		}
		if (!isNodeType(record.type)) {
			issues.push({
				rule: 'field',
				nodeId,
				field: 'type',
				message: `${where}: unknown node type '${String(record.type)}' (one of ${NODE_TYPES.join(', ')})`
			});
			return;
		}
		const type = record.type;
		const parsed = NODE_SCHEMAS[type].safeParse(raw);
		if (!parsed.success) {
			for (const issue of parsed.error.issues) {
				for (const { field, message } of schemaIssueMessage(issue, raw, type)) {
					issues.push({ rule: 'field', nodeId, field, message: `${where}: '${field}' ${message}` });
				}
			}
		} else {
			const node = parsed.data as FlowNode;
			for (const { field, message } of semanticIssues(node)) {
				issues.push({
					rule: message.startsWith('repeats outcome id') ? 'unique_outcome_id' : 'field',
					nodeId,
					field,
					message: `${where}: '${field}' ${message}`
				});
			}
			nodes.push(node);
		}
		if (nodeId) graphNodes.push({ id: nodeId, type, raw: record });
	});

	issues.push(...graphIssues(graphNodes));
	return issues.length ? { ok: false, issues } : { ok: true, flow: nodes };
}

function graphIssues(nodes: { id: string; type: NodeType; raw: Record<string, unknown> }[]): FlowIssue[] {
	const issues: FlowIssue[] = [];
	const byId = new Map<string, (typeof nodes)[number]>();
	for (const node of nodes) {
		if (byId.has(node.id)) {
			issues.push({ rule: 'unique_node_id', nodeId: node.id, field: 'id', message: `flow node id '${node.id}' is used more than once` });
		} else {
			byId.set(node.id, node);
		}
	}

	const starts = nodes.filter((n) => n.type === 'start');
	if (starts.length !== 1) {
		issues.push({
			rule: 'one_start',
			field: 'flow',
			message: starts.length === 0 ? 'flow must contain exactly one start node; it has none' : `flow must contain exactly one start node; it has ${starts.length} (${starts.map((s) => `'${s.id}'`).join(', ')})`
		});
	}
	if (!nodes.some((n) => n.type === 'end')) {
		issues.push({ rule: 'has_end', field: 'flow', message: 'flow must contain at least one end node' });
	}

	const adjacency = new Map<string, string[]>();
	for (const node of byId.values()) {
		const targets: string[] = [];
		for (const edge of edgesOf(node.raw)) {
			const where = `flow node '${node.id}' (${node.type})`;
			if (edge.target === node.id) {
				issues.push({ rule: 'no_self_loop', nodeId: node.id, field: edge.field, message: `${where}: '${edge.field}' points at its own node (self-loop)` });
			} else if (!byId.has(edge.target)) {
				issues.push({ rule: 'target_exists', nodeId: node.id, field: edge.field, message: `${where}: '${edge.field}' targets '${edge.target}', which is not a node of this flow` });
			} else {
				targets.push(edge.target);
			}
		}
		adjacency.set(node.id, targets);
	}

	const cycle = findCycle(adjacency);
	if (cycle) {
		issues.push({ rule: 'no_cycle', nodeId: cycle[0], field: 'outcomes', message: `flow has a cycle: ${cycle.map((id) => `'${id}'`).join(' → ')}` });
	}

	if (starts.length === 1) {
		const seen = new Set<string>([starts[0].id]);
		const queue = [starts[0].id];
		while (queue.length) {
			for (const next of adjacency.get(queue.shift()!) ?? []) {
				if (!seen.has(next)) {
					seen.add(next);
					queue.push(next);
				}
			}
		}
		for (const node of byId.values()) {
			if (!seen.has(node.id)) {
				issues.push({ rule: 'reachable', nodeId: node.id, message: `flow node '${node.id}' (${node.type}) cannot be reached from the start node` });
			}
		}
	}
	return issues;
}

/** Iterative three-colour DFS; returns one cycle as a closed path of ids, or null. */
function findCycle(adjacency: Map<string, string[]>): string[] | null {
	const colour = new Map<string, 0 | 1 | 2>();
	for (const root of adjacency.keys()) {
		if (colour.get(root)) continue;
		const stack: { id: string; next: number }[] = [{ id: root, next: 0 }];
		colour.set(root, 1);
		while (stack.length) {
			const frame = stack[stack.length - 1];
			const targets = adjacency.get(frame.id) ?? [];
			if (frame.next < targets.length) {
				const target = targets[frame.next++];
				const c = colour.get(target) ?? 0;
				if (c === 1) {
					const path = stack.map((f) => f.id);
					return [...path.slice(path.indexOf(target)), target];
				}
				if (c === 0) {
					colour.set(target, 1);
					stack.push({ id: target, next: 0 });
				}
			} else {
				colour.set(frame.id, 2);
				stack.pop();
			}
		}
	}
	return null;
}

/** The one-line message for a failed validation: the first few issues, then a count. */
export function summariseFlowIssues(issues: FlowIssue[], limit = 5): string {
	const head = issues.slice(0, limit).map((i) => i.message).join('; ');
	return issues.length > limit ? `${head}; and ${issues.length - limit} more` : head;
}

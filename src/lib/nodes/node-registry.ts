import type { Component } from 'svelte';
import type { NodeType } from '#lib/domain/flow/node-types.ts';
import type { NodeProps } from '#lib/flow/node-props.ts';
import { browserOnly } from '#lib/flow/lazy-component.svelte.ts';

type NodeModule<K extends NodeType> = Promise<{ default: Component<NodeProps<K>> }>;

/**
 * The component for each node type, loaded when a node of that type first shows. Exhaustive by
 * type: a new node type without a component fails the type check. Loaded, not imported: the first
 * screen (the permissions page) then carries none of the node screens' code — a flow's face, document
 * and passcode screens cost a phone nothing until the user reaches them (npm run bench -- page).
 * It lives with the nodes, not in flow/: the node components use flow/ (translator, node props,
 * uploads), so a registry in flow/ made the two folders import each other.
 *
 * Not in the server build: the server never renders a node's screen, and SvelteKit links into the
 * page's <head> the CSS of every dynamic import that its server build also holds (CSS that SSR
 * might need), so each screen's styles came with the first load although its code did not. Node
 * types that share a screen share its loader (each loader adds its list of files to the first load).
 */
const serverNode = () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/server-node/server-node.svelte'));
const twoFactor = () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/two-factor/two-factor-node.svelte'));

export const NODE_COMPONENTS = {
	start: serverNode,
	end: serverNode,
	data_validation: serverNode,
	conversation: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/conversation/conversation-node.svelte')),
	enter_email: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/enter-email/enter-email-node.svelte')),
	two_factor: twoFactor,
	two_factor_email: twoFactor,
	two_factor_sms: twoFactor,
	permissions: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/permissions/permissions-node.svelte')),
	liveness_detection: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/liveness-detection/liveness-detection-node.svelte')),
	face_scan: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/face-scan/face-scan-node.svelte')),
	face_compare: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/face-compare/face-compare-node.svelte')),
	recognition: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/recognition/recognition-node.svelte')),
	document_scan: () => (import.meta.env.SSR ? browserOnly() : import('#lib/nodes/document-scan/document-scan-node.svelte'))
} satisfies { [K in NodeType]: () => NodeModule<K> };

const loading = new Map<NodeType, Promise<Component<NodeProps>>>();

/**
 * The component of a node type, fetched once. A failed fetch (a dropped connection on a phone) is
 * forgotten, so the next call tries again rather than repeating the failure.
 */
export function loadNodeComponent(type: NodeType): Promise<Component<NodeProps>> {
	let pending = loading.get(type);
	if (!pending) {
		// Each component takes its own type's view; the registry pairs them, so the union is widened here.
		pending = NODE_COMPONENTS[type]().then((m) => m.default as Component<NodeProps>);
		pending.catch(() => loading.delete(type));
		loading.set(type, pending);
	}
	return pending;
}

/**
 * Fetches in the background the screens a flow may show, so a node opens without waiting for its
 * code: called once the first screen is interactive. Camera screens only when the flow uses the camera.
 */
export function prefetchNodeComponents(requirements: { camera: boolean }): void {
	for (const type of Object.keys(NODE_COMPONENTS) as NodeType[]) {
		if (requirements.camera || !CAMERA_NODES.has(type)) loadNodeComponent(type).catch(() => undefined);
	}
}

/** Node types whose screen is the avatar's conversation (the stage gets the most room). */
export const TALKING_NODES: ReadonlySet<NodeType> = new Set(['conversation']);

/**
 * Node types whose screen is the user's own camera: the camera and its guidance own the screen, the
 * avatar shrinks to a tile, and the stage shows no second (mirrored) copy of the camera.
 */
export const CAMERA_NODES: ReadonlySet<NodeType> = new Set(['face_scan', 'liveness_detection', 'face_compare', 'recognition', 'document_scan']);

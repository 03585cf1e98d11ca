import { LazyComponent } from '#lib/flow/lazy-component.svelte.ts';
import type { NodeType } from '#lib/domain/flow/node-types.ts';
import { loadNodeComponent, prefetchNodeComponents } from '#lib/nodes/node-registry.ts';

/**
 * The page's screens after the permissions page, fetched when first shown or in the background.
 * Part of the session's code (fetched with the runner), never of the first load or the server build:
 * the page imports this module and `session-view.svelte` only in the browser.
 */
export const later = {
	call: new LazyComponent(() => import('./node-call.svelte')),
	end: new LazyComponent(() => import('#lib/nodes/end/end-screen.svelte')),
	observer: new LazyComponent(() => import('#lib/components/observer-screen.svelte')),
	handoff: new LazyComponent(() => import('#lib/components/handoff-screen.svelte'))
};

/**
 * What the first node needs, the call layout first (every node shows in it; requests queue in this
 * order). `first`: the screens the session will most likely show first (the node it is on, or the
 * intro's guess), alone: on a phone's few connections and slow link the other nodes' screens would
 * only compete with them (they come with prefetchSessionScreens). Without a guess, every node's.
 */
export function prefetchFirstNode(requirements: { camera: boolean }, first: readonly NodeType[] = []): void {
	later.call.load().catch(() => undefined);
	if (!first.length) return prefetchNodeComponents(requirements);
	for (const type of first) loadNodeComponent(type).catch(() => undefined);
}

/** Everything a session may show; the screens after the nodes last, never ahead of these. */
export function prefetchSessionScreens(requirements: { camera: boolean }): void {
	prefetchFirstNode(requirements);
	for (const screen of Object.values(later)) screen.load().catch(() => undefined);
}

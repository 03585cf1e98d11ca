import { resolve } from 'node:path';

/** What rolldown's chunk-naming callback is given to look at the module graph with. */
interface ModuleGraph {
	getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/**
 * A rolldown code-splitting group: the app's own modules that the hosted page's first screen
 * imports statically, in one chunk (JS and CSS) beside the page's node.
 *
 * Without it, every such module that a later screen also imports becomes a chunk of its own: the
 * permissions page loaded 20 files, 7 of them app chunks of 0.04–1.3 KB, whose gzip frames and cold
 * dictionaries cost 0.9 KB of the 50 KB budget. Later screens import the group's chunk, which the
 * page has already loaded; other pages that import one of these modules (the demo) load it whole.
 * The set is read from the graph on each build, so it follows the page's imports as they change.
 */
export function firstLoadGroup(entry: string, name: string) {
	const entryId = resolve(entry);
	const sets = new WeakMap<ModuleGraph, Set<string>>();
	const reachable = (graph: ModuleGraph) => {
		let set = sets.get(graph);
		if (set) return set;
		set = new Set<string>();
		const stack = [entryId];
		while (stack.length > 0) {
			for (const id of graph.getModuleInfo(stack.pop()!)?.importedIds ?? []) {
				// The app's own modules only: Svelte's runtime and SvelteKit's client have their chunks.
				if (set.has(id) || id.includes('/node_modules/') || !id.startsWith(resolve('src'))) continue;
				set.add(id);
				stack.push(id);
			}
		}
		sets.set(graph, set);
		return set;
	};
	return { name: (id: string, graph: ModuleGraph) => (reachable(graph).has(id) ? name : null) };
}

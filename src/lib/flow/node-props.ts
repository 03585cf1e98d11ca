import type { NodeType } from '#lib/domain/flow/node-types.ts';
import type { NodeViewOf } from '#lib/domain/nodes/node-contracts.ts';
import type { PageRunner } from './page-runner.svelte.ts';

/** What every node component receives; `T` narrows the node to the types the component is written for. */
export interface NodeProps<T extends NodeType = NodeType> {
	runner: PageRunner;
	node: NodeViewOf<T>;
	/** Optional controls (captions switch, mute…) are shown. */
	showUxControls: boolean;
}

import type { NodeView } from '#lib/domain/page/page.schema.ts';
import type { PageRunner } from './page-runner.svelte.ts';

/** What every node component receives. */
export interface NodeProps {
	runner: PageRunner;
	node: NodeView;
	/** Optional controls (captions switch, mute…) are shown. */
	showUxControls: boolean;
}
